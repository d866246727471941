-- Compliance alerts (docs/disputes.md, issue 26): the chargeback ratio (disputes opened over payments
-- captured) and the refund ratio (refunded over captured amount) of each store and each acquirer
-- account over a rolling window. One OPEN alert per type and target at a time (the partial unique
-- index); a RESOLVED one stays as the record of what happened.
CREATE TABLE "ComplianceAlert" (
  "id"                TEXT NOT NULL PRIMARY KEY,
  "merchantId"        TEXT NOT NULL REFERENCES "Merchant"("id") ON DELETE CASCADE,
  "mode"              TEXT NOT NULL,
  "type"              TEXT NOT NULL,
  "scope"             TEXT NOT NULL,
  "storeExternalId"   TEXT,
  "acquirerAccountId" TEXT,
  "windowDays"        DECIMAL(10, 4) NOT NULL,
  "count"             INTEGER NOT NULL,
  "ratio"             DECIMAL(20, 6) NOT NULL,
  "threshold"         DECIMAL(20, 6) NOT NULL,
  "status"            TEXT NOT NULL,
  "raisedAt"          TIMESTAMPTZ(3) NOT NULL,
  "resolvedAt"        TIMESTAMPTZ(3),
  "updatedAt"         TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "ComplianceAlert_target" CHECK (("scope" = 'STORE' AND "storeExternalId" IS NOT NULL) OR ("scope" = 'ACQUIRER_ACCOUNT' AND "acquirerAccountId" IS NOT NULL))
);
CREATE UNIQUE INDEX "ComplianceAlert_open_key" ON "ComplianceAlert"("merchantId", "mode", "type", "scope", COALESCE("storeExternalId", ''), COALESCE("acquirerAccountId", '')) WHERE "status" = 'OPEN';
CREATE INDEX "ComplianceAlert_merchantId_status_raisedAt_idx" ON "ComplianceAlert"("merchantId", "status", "raisedAt");

-- The ratios' inputs, read as ranges of these indexes (never a scan of every payment).
CREATE INDEX "Payment_merchantId_storeExternalId_capturedAt_idx" ON "Payment"("merchantId", "storeExternalId", "capturedAt");
CREATE INDEX "Payment_acquirerAccountId_capturedAt_idx" ON "Payment"("acquirerAccountId", "capturedAt");
CREATE INDEX "Dispute_acquirerAccountId_openedAt_idx" ON "Dispute"("acquirerAccountId", "openedAt");
CREATE INDEX "Refund_merchantId_status_decidedAt_idx" ON "Refund"("merchantId", "status", "decidedAt");
