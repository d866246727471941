-- When a payment was settled (contracts 6 and 8). Migration 0007 (post-sale) adds the same column;
-- IF NOT EXISTS lets either land first.
ALTER TABLE "Payment" ADD COLUMN IF NOT EXISTS "settledAt" TIMESTAMPTZ(3);
