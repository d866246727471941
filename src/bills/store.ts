import Decimal from 'decimal.js';
import type { Db } from '../db/client';
import { paidOf } from '../../core/bill/tenders';
import type { TenderMethod, TenderStatus } from '../../core/bill/statuses';
import type { BillState, TenderNews } from '../../core/bill/transition';

/**
 * The bill workflow's rows (docs/bills.md): written only by its activities, as the workflow's state
 * says. Safe to repeat: the bill's fields are set, each tender is put by its sequence number.
 */
export async function recordBill(db: Db, billId: string, state: BillState): Promise<void> {
  const paid = paidOf(state.tenders);
  await db.$transaction(async (tx) => {
    await tx.bill.update({
      where: { id: billId },
      data: { status: state.status, paidAmount: paid.toFixed(), closedAt: state.closedAt ? new Date(state.closedAt) : null },
    });
    for (const t of state.tenders) {
      const fields = {
        paymentId: t.paymentId,
        method: t.method,
        status: t.status,
        amount: t.amount,
        requestedAmount: t.requestedAmount,
        refundedAmount: t.refundedAmount,
        tipAmount: t.tipAmount,
        reference: t.reference,
      };
      await tx.billTender.upsert({
        where: { billId_sequenceNumber: { billId, sequenceNumber: t.sequenceNumber } },
        create: { billId, sequenceNumber: t.sequenceNumber, ...fields },
        update: fields,
      });
    }
  });
}

/** A tender's payment as its row stands (its workflow wrote it); null when no payment was created for the hold. */
export async function readTender(db: Db, billId: string, paymentId: string): Promise<TenderNews | null> {
  const p = await db.payment.findFirst({ where: { id: paymentId, billId } });
  if (!p) return null;
  // `amount` is what the card approved (partial authorisation), `requestedAmount` what was asked (null: the same).
  // The tip is on top and never counts toward the bill (docs/tips.md): captured and refunded amounts
  // include it, so the bill counts what they hold beyond it (a refund gives back the tip first).
  const tip = new Decimal(p.tipAmount.toFixed());
  const decided = p.capturedAmount ? Decimal.max(0, new Decimal(p.capturedAmount.toFixed()).minus(tip)) : new Decimal(p.amount.toFixed());
  return {
    paymentId: p.id,
    status: p.status as TenderStatus,
    method: (p.paymentMethod as TenderMethod | null) ?? null,
    amount: decided.toFixed(),
    requestedAmount: (p.requestedAmount ?? p.amount).toFixed(),
    refundedAmount: Decimal.max(0, new Decimal(p.refundedAmount.toFixed()).minus(tip)).toFixed(),
    tipAmount: tip.toFixed(),
  };
}
