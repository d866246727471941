-- When a payment was settled (docs/settlement.md). Migration 0007 (post-sale) adds the same column;
-- IF NOT EXISTS lets either land first.
ALTER TABLE "Payment" ADD COLUMN IF NOT EXISTS "settledAt" TIMESTAMPTZ(3);
