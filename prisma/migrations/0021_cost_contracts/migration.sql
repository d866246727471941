-- Cost contracts and the fee audit (docs/payouts-and-fees.md, issue 27). An account's price list per currency,
-- versioned: each save is a new version in force from its validFrom, and a payment keeps the
-- expected fee the version in force at its capture gave it (Payment.expectedFee, written with the
-- CAPTURED status by the payment's own writer). A settlement line keeps that expected fee beside
-- the reported one.
CREATE TABLE "CostContract" (
  "id"         TEXT NOT NULL PRIMARY KEY,
  "merchantId" TEXT NOT NULL REFERENCES "Merchant"("id") ON DELETE CASCADE,
  "accountId"  TEXT NOT NULL REFERENCES "AcquirerAccount"("id") ON DELETE CASCADE,
  "currency"   TEXT NOT NULL,
  -- [{ paymentMode, cardBrand?, percent, fixed }] with exact decimal strings
  "lines"      JSONB NOT NULL,
  "disputeFee" DECIMAL(20, 4),
  "version"    INTEGER NOT NULL,
  "validFrom"  TIMESTAMPTZ(3) NOT NULL,
  "createdBy"  TEXT NOT NULL
);
CREATE UNIQUE INDEX "CostContract_accountId_currency_version_key" ON "CostContract"("accountId", "currency", "version");
CREATE INDEX "CostContract_accountId_currency_validFrom_idx" ON "CostContract"("accountId", "currency", "validFrom");

ALTER TABLE "Payment" ADD COLUMN "expectedFee" DECIMAL(20, 4);
ALTER TABLE "SettlementLine" ADD COLUMN "expectedFeeAmount" DECIMAL(20, 4);
