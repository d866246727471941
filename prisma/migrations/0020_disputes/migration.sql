-- Disputes (chargebacks), docs/disputes.md and issue 26. One row per dispute, written only by its
-- workflow (`dispute-<id>`). The acquirer's dispute id is unique per acquirer key (the payment's
-- account, or `installation:<acquirerName>` for the installation default), so a notification that
-- arrives twice opens one dispute. The payment carries the status of its latest dispute.
CREATE TABLE "Dispute" (
  "id"                TEXT NOT NULL PRIMARY KEY,
  "merchantId"        TEXT NOT NULL REFERENCES "Merchant"("id") ON DELETE CASCADE,
  "mode"              TEXT NOT NULL,
  "paymentId"         TEXT NOT NULL REFERENCES "Payment"("id") ON DELETE CASCADE,
  "pspReference"      TEXT NOT NULL,
  "storeExternalId"   TEXT NOT NULL,
  "acquirerAccountId" TEXT,
  "acquirerName"      TEXT NOT NULL,
  "acquirerKey"       TEXT NOT NULL,
  "acquirerDisputeId" TEXT NOT NULL,
  "status"            TEXT NOT NULL,
  "reason"            TEXT NOT NULL,
  "amount"            DECIMAL(20, 4) NOT NULL,
  "currency"          TEXT NOT NULL,
  "openedAt"          TIMESTAMPTZ(3) NOT NULL,
  "dueBy"             TIMESTAMPTZ(3) NOT NULL,
  -- { "transaction": {...assembled from our records...}, "text": null | the merchant's statement }
  "evidence"          JSONB NOT NULL,
  "submittedAt"       TIMESTAMPTZ(3),
  "closedAt"          TIMESTAMPTZ(3),
  "createdAt"         TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updatedAt"         TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE UNIQUE INDEX "Dispute_acquirerKey_acquirerDisputeId_key" ON "Dispute"("acquirerKey", "acquirerDisputeId");
-- The list's filters, newest first.
CREATE INDEX "Dispute_merchantId_openedAt_idx" ON "Dispute"("merchantId", "openedAt");
CREATE INDEX "Dispute_merchantId_status_openedAt_idx" ON "Dispute"("merchantId", "status", "openedAt");
CREATE INDEX "Dispute_merchantId_storeExternalId_openedAt_idx" ON "Dispute"("merchantId", "storeExternalId", "openedAt");
-- A payment's latest dispute.
CREATE INDEX "Dispute_paymentId_openedAt_idx" ON "Dispute"("paymentId", "openedAt");

ALTER TABLE "Payment" ADD COLUMN "disputeStatus" TEXT;
