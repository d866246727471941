import Decimal from 'decimal.js';
import type { AcquirerPayout } from '../acquirer/port';
import type { Db } from '../db/client';
import type { Payout } from '../generated/prisma/client';
import type { PayoutWorkflowInput } from '../../core/payout/messages';

/**
 * The payout row (docs/payouts-and-fees.md, "Payouts"), written only by its workflow's activities: what the acquirer says
 * of it, and its reconciliation with the batch it pays.
 */

/** Records the acquirer's answer: created once, then its status (and when it was paid, and what the bank said). */
export async function recordPayout(db: Db, input: PayoutWorkflowInput, read: AcquirerPayout): Promise<Payout> {
  const now = new Date();
  const paidAt = read.status === 'PAID' ? now : null;
  const row = await db.payout.upsert({
    where: { id: input.payoutId },
    create: {
      id: input.payoutId,
      merchantId: input.merchantId,
      mode: input.mode,
      acquirerAccountId: input.acquirerAccountId,
      acquirerKey: input.acquirerKey,
      acquirerPayoutId: input.acquirerPayoutId,
      // A report's payout: its device and batch; a balance payout's batches are found when it is reconciled.
      deviceId: input.pays === 'BALANCE' ? null : input.deviceId,
      status: read.status,
      amount: read.amount,
      currency: read.currency,
      arrivalDate: read.arrivalDate,
      failureReason: read.failureReason ?? null,
      batchIds: input.pays === 'BALANCE' ? [] : [input.batchId],
      paidAt,
    },
    update: {},
  });
  if (row.status === read.status) return row;
  // A decided payout stays decided: an IN_TRANSIT read after it (a stale answer) changes nothing.
  // One exception: PAID, then FAILED (Stripe: the bank returned it); never back from FAILED.
  const paidThenFailed = row.status === 'PAID' && read.status === 'FAILED';
  if (row.status !== 'IN_TRANSIT' && !paidThenFailed) return row;
  return db.payout.update({
    where: { id: input.payoutId },
    data: { status: read.status, failureReason: read.failureReason ?? null, paidAt, updatedAt: now },
  });
}

/**
 * Reconciles the payout with the batch it pays, once that batch is reconciled: `expectedAmount`
 * is the net of the batch lines its report carried (the payout's device and account, its
 * currency), `reconciled` whether the acquirer paid exactly that. False while the batch is still
 * being closed.
 */
export async function reconcilePayout(db: Db, payoutId: string): Promise<boolean> {
  const p = await db.payout.findUniqueOrThrow({ where: { id: payoutId } });
  if (p.expectedAmount !== null) return true;
  const batches = await db.settlementBatch.findMany({ where: { id: { in: p.batchIds } }, select: { id: true, status: true } });
  if (batches.length < p.batchIds.length || batches.some((b) => b.status === 'CLOSING')) return false;
  const [sum] = await db.$queryRaw<{ net: Decimal | null }[]>`
    SELECT SUM(l."netAmount") AS "net" FROM "SettlementLine" l JOIN "Payment" pay ON pay."id" = l."paymentId"
    WHERE l."batchId" = ANY(${p.batchIds}) AND l."reported" AND l."currency" = ${p.currency}
      AND pay."deviceId" = ${p.deviceId} AND l."acquirerAccountId" IS NOT DISTINCT FROM ${p.acquirerAccountId}`;
  const expected = new Decimal(sum?.net?.toString() ?? '0');
  await db.payout.update({
    where: { id: payoutId },
    data: { expectedAmount: expected.toFixed(), reconciled: expected.equals(p.amount.toString()), updatedAt: new Date() },
  });
  return true;
}
