-- A dispute's money in settlement (docs/disputes.md, issue 26): the acquirer debits a dispute's amount
-- when it opens (a CHARGEBACK line) and credits it back when the dispute is WON (a
-- CHARGEBACK_REVERSAL line). Such a line names the disputed payment (when we know it) and the
-- dispute: the acquirer's id, and ours, which derives from it (src/disputes/ids.ts) so the line
-- names the dispute even before its notification arrives. Each is in one batch only.
ALTER TABLE "SettlementLine" ADD COLUMN "disputeId" TEXT;
ALTER TABLE "SettlementLine" ADD COLUMN "acquirerDisputeId" TEXT;
ALTER TABLE "SettlementLine" DROP CONSTRAINT "SettlementLine_payment_or_refund";
ALTER TABLE "SettlementLine" ADD CONSTRAINT "SettlementLine_line_kind" CHECK (
  ("type" = 'PAYMENT' AND "paymentId" IS NOT NULL AND "refundId" IS NULL)
  OR ("type" = 'REFUND' AND "refundId" IS NOT NULL)
  OR ("type" IN ('CHARGEBACK', 'CHARGEBACK_REVERSAL') AND "disputeId" IS NOT NULL AND "acquirerDisputeId" IS NOT NULL AND "refundId" IS NULL)
);
CREATE UNIQUE INDEX "SettlementLine_disputeId_type_key" ON "SettlementLine"("disputeId", "type") WHERE "type" IN ('CHARGEBACK', 'CHARGEBACK_REVERSAL');
