import type { Db } from '../db/client';
import { minorUnitsOf } from '../money/currencies';
import type { SettlementData } from '../webhooks/payload';

/** `data.settlement` of PAYMENT_SETTLED (docs/settlement.md, "Reconciliation"): from the payment's line and its batch. */
export async function settlementDataOf(db: Db, paymentId: string): Promise<SettlementData> {
  const line = await db.settlementLine.findFirst({ where: { type: 'PAYMENT', paymentId }, include: { batch: { select: { id: true, date: true } } } });
  if (!line) throw new Error(`payment ${paymentId} is in no settlement batch`);
  const digits = minorUnitsOf(line.currency);
  return {
    batchId: line.batch.id,
    date: line.batch.date,
    feeAmount: (line.feeAmount ?? line.amount.minus(line.amount)).toFixed(digits),
    netAmount: (line.netAmount ?? line.amount).toFixed(digits),
  };
}
