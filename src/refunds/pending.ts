import type { Db } from '../db/client';
import type { Refund } from '../generated/prisma/client';
import type { PendingRefund } from '../../core/payment/messages';

/** A PENDING refund row as a payment's workflow takes it over (docs/refunds.md, "Recovery"). */
export function pendingRefundOf(r: Refund): PendingRefund {
  return {
    id: r.id,
    amount: r.amount.toFixed(),
    reason: r.reason,
    createdBy: r.createdBy,
    createdByUserId: r.createdByUserId,
    idempotencyKey: r.idempotencyKey,
    requestFingerprint: r.requestFingerprint,
  };
}

/** The payment's refunds still PENDING, oldest first: a run started from the row follows them. */
export async function pendingRefundsOf(db: Db, paymentId: string): Promise<PendingRefund[]> {
  const rows = await db.refund.findMany({ where: { paymentId, status: 'PENDING' }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  return rows.map(pendingRefundOf);
}
