-- Payouts (docs/payouts-and-fees.md, issue 27): what the acquirer paid (or failed to pay) to the merchant's bank
-- for the reports of each account, recorded once per acquirer payout by its workflow
-- (`payout-<id>`), reconciled with the net of the batch lines it pays.
CREATE TABLE "Payout" (
  "id"                TEXT NOT NULL PRIMARY KEY,
  "merchantId"        TEXT NOT NULL REFERENCES "Merchant"("id") ON DELETE CASCADE,
  "mode"              TEXT NOT NULL,
  "acquirerAccountId" TEXT REFERENCES "AcquirerAccount"("id") ON DELETE RESTRICT,
  -- acquirerAccountId, or `installation:<acquirer>`: whose payout ids these are
  "acquirerKey"       TEXT NOT NULL,
  "acquirerPayoutId"  TEXT NOT NULL,
  "deviceId"          TEXT NOT NULL,
  "status"            TEXT NOT NULL,
  "amount"            DECIMAL(20, 4) NOT NULL,
  "currency"          TEXT NOT NULL,
  "arrivalDate"       TEXT NOT NULL,
  "failureReason"     TEXT,
  "batchIds"          TEXT[] NOT NULL DEFAULT '{}',
  -- null until the batches it pays are reconciled
  "expectedAmount"    DECIMAL(20, 4),
  "reconciled"        BOOLEAN NOT NULL DEFAULT false,
  "paidAt"            TIMESTAMPTZ(3),
  "createdAt"         TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updatedAt"         TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE UNIQUE INDEX "Payout_acquirerKey_acquirerPayoutId_key" ON "Payout"("acquirerKey", "acquirerPayoutId");
CREATE INDEX "Payout_merchantId_createdAt_idx" ON "Payout"("merchantId", "createdAt");
CREATE INDEX "Payout_merchantId_status_createdAt_idx" ON "Payout"("merchantId", "status", "createdAt");
CREATE INDEX "Payout_merchantId_acquirerAccountId_createdAt_idx" ON "Payout"("merchantId", "acquirerAccountId", "createdAt");
