-- Test and live are separate worlds (issue 15 point 5): a store belongs to the mode of the API key
-- that created it, and its terminals with it. Stores made before this were made by live keys or
-- the operator, so they are live.
ALTER TABLE "Store" ADD COLUMN "mode" TEXT NOT NULL DEFAULT 'live';
CREATE INDEX "Store_merchantId_mode_idx" ON "Store" ("merchantId", "mode");
