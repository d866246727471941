-- A dispute's money once per booking, not once per dispute and type (docs/disputes.md): the acquirer
-- can debit one dispute twice (Adyen's SecondChargeback after a ChargebackReversed; Stripe can book
-- more than one adjustment on a dispute), and the second debit had the first's key (disputeId,
-- type), so it was never recorded. A chargeback line now carries the acquirer's key of its booking
-- (Stripe: the balance transaction id; Adyen: record type, dispute and booking time; the sandbox:
-- the item's type), and is one per (disputeId, bookingRef). The lines recorded before keep their
-- type as their key: they were one per dispute and type, so they stay unique.
ALTER TABLE "SettlementLine" ADD COLUMN "bookingRef" TEXT;
UPDATE "SettlementLine" SET "bookingRef" = "type" WHERE "type" IN ('CHARGEBACK', 'CHARGEBACK_REVERSAL');
ALTER TABLE "SettlementLine" DROP CONSTRAINT "SettlementLine_line_kind";
ALTER TABLE "SettlementLine" ADD CONSTRAINT "SettlementLine_line_kind" CHECK (
  ("type" = 'PAYMENT' AND "paymentId" IS NOT NULL AND "refundId" IS NULL)
  OR ("type" = 'REFUND' AND "refundId" IS NOT NULL)
  OR ("type" IN ('CHARGEBACK', 'CHARGEBACK_REVERSAL') AND "disputeId" IS NOT NULL AND "acquirerDisputeId" IS NOT NULL AND "bookingRef" IS NOT NULL AND "refundId" IS NULL)
);
DROP INDEX "SettlementLine_disputeId_type_key";
CREATE UNIQUE INDEX "SettlementLine_disputeId_bookingRef_key" ON "SettlementLine"("disputeId", "bookingRef") WHERE "type" IN ('CHARGEBACK', 'CHARGEBACK_REVERSAL');
