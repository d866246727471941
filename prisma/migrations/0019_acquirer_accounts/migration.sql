-- Acquirer accounts (MIDs) and acquirer routes (docs/acquirers.md, issue 24): the acquirer becomes a
-- business's data. A payment records the account its route chose (null: the installation default)
-- and the rule that chose it; a settlement line records the account that reported it.
CREATE TABLE "AcquirerAccount" (
  "id"                TEXT NOT NULL PRIMARY KEY,
  "merchantId"        TEXT NOT NULL REFERENCES "Merchant"("id") ON DELETE CASCADE,
  "name"              TEXT NOT NULL,
  "acquirer"          TEXT NOT NULL,
  "mode"              TEXT NOT NULL,
  "merchantAccountId" TEXT NOT NULL,
  "status"            TEXT NOT NULL DEFAULT 'ACTIVE',
  -- The credentials object as JSON, sealed with the installation's keyring (purpose 'acquirer').
  "credentials"       TEXT NOT NULL,
  -- Each field's last 4 characters, for the masked answer without opening the seal.
  "credentialHints"   JSONB NOT NULL DEFAULT '{}',
  -- Counts every change of credentials or MID: adapters are cached per (id, revision).
  "revision"          INTEGER NOT NULL DEFAULT 1,
  "createdAt"         TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updatedAt"         TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  -- Removed by ADMIN: gone from every answer, kept for the payments it took (their refunds and
  -- settlement still go to it).
  "deletedAt"         TIMESTAMPTZ(3)
);
CREATE INDEX "AcquirerAccount_merchantId_mode_idx" ON "AcquirerAccount"("merchantId", "mode");

CREATE TABLE "AcquirerRoutes" (
  "merchantId"       TEXT NOT NULL REFERENCES "Merchant"("id") ON DELETE CASCADE,
  "mode"             TEXT NOT NULL,
  "rules"            JSONB NOT NULL DEFAULT '[]',
  "defaultAccountId" TEXT REFERENCES "AcquirerAccount"("id") ON DELETE RESTRICT,
  "version"          INTEGER NOT NULL,
  "updatedAt"        TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updatedBy"        TEXT NOT NULL,
  PRIMARY KEY ("merchantId", "mode")
);

ALTER TABLE "Payment" ADD COLUMN "acquirerAccountId" TEXT REFERENCES "AcquirerAccount"("id") ON DELETE RESTRICT;
ALTER TABLE "Payment" ADD COLUMN "routeRule" TEXT;
CREATE INDEX "Payment_acquirerAccountId_status_idx" ON "Payment"("acquirerAccountId", "status") WHERE "acquirerAccountId" IS NOT NULL;

ALTER TABLE "SettlementLine" ADD COLUMN "acquirerAccountId" TEXT;
