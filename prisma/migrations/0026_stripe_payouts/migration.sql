-- Stripe's payouts (docs/payouts-and-fees.md, issue 27): a Stripe payout pays the account's balance, the
-- balance transactions of every reader, not one device's report; its batches are found through
-- those transactions when it is reconciled. Such a payout has no device.
ALTER TABLE "Payout" ALTER COLUMN "deviceId" DROP NOT NULL;
