import type { Db } from '../db/client';
import { chargedBackTotal } from '../../core/dispute/statuses';

/**
 * A payment's disputes as the refund and void rules read them (docs/refunds.md, "After a
 * chargeback"): whether one is open, and what the decided ones took back for good.
 */
export interface PaymentDisputeFacts {
  id: string;
  status: string;
  /** Exact decimal text. */
  amount: string;
}

export async function disputesOfPayment(db: Db, paymentId: string): Promise<PaymentDisputeFacts[]> {
  const rows = await db.dispute.findMany({ where: { paymentId }, select: { id: true, status: true, amount: true }, orderBy: { openedAt: 'asc' } });
  return rows.map((d) => ({ id: d.id, status: d.status, amount: d.amount.toFixed() }));
}

/** What the payment's LOST, ACCEPTED and EXPIRED disputes took back (exact decimal text). */
export async function chargedBackOf(db: Db, paymentId: string): Promise<string> {
  return chargedBackTotal(await disputesOfPayment(db, paymentId));
}
