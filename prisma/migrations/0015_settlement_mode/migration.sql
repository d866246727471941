-- A batch is of one mode (live or test): its store's. A close claims only that mode's payments and
-- refunds, so a test store's close never touches live money and the other way round.
ALTER TABLE "SettlementBatch" ADD COLUMN "mode" TEXT NOT NULL DEFAULT 'live';
UPDATE "SettlementBatch" b SET "mode" = s."mode" FROM "Store" s WHERE s."id" = b."storeId";
CREATE INDEX "SettlementBatch_merchantId_mode_closedAt_idx" ON "SettlementBatch"("merchantId", "mode", "closedAt");
