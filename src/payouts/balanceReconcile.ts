import Decimal from 'decimal.js';
import type { PayoutTransaction } from '../acquirer/port';
import type { Db } from '../db/client';
import { type CandidateLine, matchBalancePayout } from './balanceMatch';
import { SETTLEABLE_STATUSES } from '../../core/payment/statuses';

/**
 * Reconciles a payout of an account's balance (Stripe) with our batches, once every transaction of
 * ours it pays is in a reconciled batch: `batchIds` the batches holding the matching lines of the
 * account, `expectedAmount` their net, `reconciled` whether Stripe paid exactly that (its own fees,
 * or payments taken outside the service, make a PAYOUT_MISMATCH). False while one of ours is still
 * waiting for its close: the workflow looks again.
 */
export async function reconcileBalancePayout(db: Db, payoutId: string, transactions: PayoutTransaction[]): Promise<boolean> {
  const p = await db.payout.findUniqueOrThrow({ where: { id: payoutId } });
  if (p.expectedAmount !== null) return true;
  // Our refunds among the transactions, read once: the lines hold them by id, the waiting rule by status.
  const refunds = await db.refund.findMany({
    where: { refundReference: { in: unique(transactions.map((t) => t.refundReference)) } },
    select: { id: true, refundReference: true, merchantId: true, status: true },
  });
  const awaited = await awaitedOf(db, p.merchantId, transactions, refunds);
  const match = matchBalancePayout(transactions, await candidateLines(db, p.acquirerAccountId, transactions, refunds), awaited);
  if (!match.complete) return false;
  await db.payout.update({
    where: { id: payoutId },
    data: {
      batchIds: match.batchIds,
      expectedAmount: match.expectedAmount,
      reconciled: new Decimal(match.expectedAmount).equals(p.amount.toString()),
      updatedAt: new Date(),
    },
  });
  return true;
}

/** The account's settlement lines that may hold the payout's transactions: by bill, refund reference or dispute. */
async function candidateLines(db: Db, acquirerAccountId: string | null, transactions: PayoutTransaction[], ourRefunds: RefundRow[]): Promise<CandidateLine[]> {
  const bills = unique(transactions.filter((t) => t.type === 'PAYMENT').map((t) => t.acquirerRef));
  const disputes = unique(transactions.map((t) => t.disputeId));
  const refunds = new Map(ourRefunds.map((r) => [r.id, r.refundReference]));
  const lines = await db.settlementLine.findMany({
    where: {
      acquirerAccountId,
      OR: [
        { type: 'PAYMENT', acquirerRef: { in: bills } },
        { type: 'REFUND', refundId: { in: [...refunds.keys()] } },
        { type: { in: ['CHARGEBACK', 'CHARGEBACK_REVERSAL'] }, acquirerDisputeId: { in: disputes } },
      ],
    },
    select: {
      batchId: true,
      type: true,
      acquirerRef: true,
      refundId: true,
      acquirerDisputeId: true,
      bookingRef: true,
      netAmount: true,
      reported: true,
      batch: { select: { status: true } },
    },
  });
  return lines.map((l) => ({
    batchId: l.batchId,
    settled: l.reported && l.batch.status !== 'CLOSING',
    type: l.type,
    acquirerRef: l.acquirerRef,
    refundReference: l.refundId ? (refunds.get(l.refundId) ?? null) : null,
    acquirerDisputeId: l.acquirerDisputeId,
    bookingRef: l.bookingRef,
    netAmount: l.netAmount === null ? null : l.netAmount.toFixed(),
  }));
}

/**
 * The transactions a batch of ours will hold: our payments that are settleable or settled, our
 * refunds that succeeded (both of this business). Another business's ids, or a payment voided after
 * Stripe booked its charge, are not waited for.
 */
async function awaitedOf(db: Db, merchantId: string, transactions: PayoutTransaction[], ourRefunds: RefundRow[]): Promise<(t: PayoutTransaction) => boolean> {
  const payments = await db.payment.findMany({
    where: { id: { in: unique(transactions.map((t) => t.paymentId)) }, merchantId, status: { in: [...SETTLEABLE_STATUSES, 'SETTLED'] } },
    select: { id: true },
  });
  const paymentIds = new Set(payments.map((p) => p.id));
  const refundReferences = new Set(ourRefunds.filter((r) => r.merchantId === merchantId && r.status === 'SUCCEEDED').map((r) => r.refundReference));
  return (t) =>
    (t.type === 'PAYMENT' && t.paymentId !== undefined && paymentIds.has(t.paymentId)) ||
    (t.type === 'REFUND' && t.refundReference !== undefined && refundReferences.has(t.refundReference));
}

interface RefundRow {
  id: string;
  refundReference: string;
  merchantId: string;
  status: string;
}

const unique = (values: (string | undefined)[]): string[] => [...new Set(values.filter((v): v is string => v !== undefined))];
