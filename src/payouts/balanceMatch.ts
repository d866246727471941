import Decimal from 'decimal.js';
import type { PayoutTransaction } from '../acquirer/port';

/**
 * Ties a payout of an account's balance (Stripe) to our batches, pure (docs/payouts-and-fees.md,
 * "Stripe's payouts"): each balance transaction it pays is looked for among the account's
 * settlement lines: a payment by its bill, a refund by its reference, a dispute's money by the
 * acquirer's dispute id, its direction and its booking (a dispute can be debited twice); a line
 * recorded before bookings had keys (its key is its type, migration 0027) by dispute and direction.
 */
export interface CandidateLine {
  batchId: string;
  /** The batch has been reconciled (it is no longer CLOSING) and the acquirer reported the line. */
  settled: boolean;
  type: string; // PAYMENT | REFUND | CHARGEBACK | CHARGEBACK_REVERSAL
  acquirerRef: string | null;
  /** A refund line's reference, as sent to the acquirer. */
  refundReference: string | null;
  acquirerDisputeId: string | null;
  /** A dispute's line: the acquirer's key of its booking (its type on lines recorded before migration 0027). */
  bookingRef?: string | null;
  netAmount: string | null;
}

export interface BalanceMatch {
  /** Every transaction of ours (carrying our payment id or refund reference) is in a settled line. */
  complete: boolean;
  /** The distinct batches of the matched lines, in the order first met. */
  batchIds: string[];
  /** The sum of the matched lines' net. */
  expectedAmount: string;
}

/** A transaction of ours: a payment or refund the service sent, by what it put on it. */
export const isOurs = (t: PayoutTransaction): boolean => t.paymentId !== undefined || t.refundReference !== undefined;

function keyOfTransaction(t: PayoutTransaction): string | null {
  if (t.type === 'PAYMENT' && t.acquirerRef) return `PAYMENT:${t.acquirerRef}`;
  if (t.type === 'REFUND' && t.refundReference) return `REFUND:${t.refundReference}`;
  if ((t.type === 'CHARGEBACK' || t.type === 'CHARGEBACK_REVERSAL') && t.disputeId) return `${t.type}:${t.disputeId}:${t.bookingRef ?? t.type}`;
  return null;
}

function keyOfLine(l: CandidateLine): string | null {
  if (l.type === 'PAYMENT' && l.acquirerRef) return `PAYMENT:${l.acquirerRef}`;
  if (l.type === 'REFUND' && l.refundReference) return `REFUND:${l.refundReference}`;
  if ((l.type === 'CHARGEBACK' || l.type === 'CHARGEBACK_REVERSAL') && l.acquirerDisputeId) return `${l.type}:${l.acquirerDisputeId}:${l.bookingRef ?? l.type}`;
  return null;
}

/**
 * `awaited`: the transactions a batch of ours will hold, so the payout waits for them; by default
 * every one of ours. The caller narrows it to what our rows say will be settled (a payment voided
 * after Stripe booked its charge never is: the close reports it as a discrepancy, not a line).
 */
export function matchBalancePayout(
  transactions: PayoutTransaction[],
  lines: CandidateLine[],
  awaited: (t: PayoutTransaction) => boolean = isOurs,
): BalanceMatch {
  const settled = new Map<string, CandidateLine>();
  for (const l of lines) {
    const key = keyOfLine(l);
    if (key && l.settled && !settled.has(key)) settled.set(key, l);
  }
  const used = new Set<string>();
  const batchIds: string[] = [];
  let expected = new Decimal(0);
  let complete = true;
  for (const t of transactions) {
    const booked = keyOfTransaction(t);
    // A dispute's booking whose line predates booking keys: that line is keyed by its type.
    const legacy = t.disputeId && booked && !settled.has(booked) ? `${t.type}:${t.disputeId}:${t.type}` : null;
    const key = legacy ?? booked;
    const line = key ? settled.get(key) : undefined;
    if (!line) {
      // Not (yet) in a reconciled batch: ours must wait for its close; anything else is not ours to expect.
      if (awaited(t)) complete = false;
      continue;
    }
    if (used.has(key!)) continue;
    used.add(key!);
    expected = expected.plus(line.netAmount ?? 0);
    if (!batchIds.includes(line.batchId)) batchIds.push(line.batchId);
  }
  return { complete, batchIds, expectedAmount: expected.toFixed() };
}
