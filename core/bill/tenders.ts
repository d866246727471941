import Decimal from 'decimal.js';
import { HOLDING_TENDER_STATUSES, PAID_TENDER_STATUSES, type TenderMethod, type TenderStatus } from './statuses';

/** One tender of a bill as the bill keeps it (money as exact decimal text). */
export interface BillTender {
  /** The payment of a card or QR tender; null for a tender the till took itself. */
  paymentId: string | null;
  sequenceNumber: number;
  /** CARD or QR_CODE once known (a payment offering both modes is null until the customer chooses), CASH or OTHER at the till. */
  method: TenderMethod | null;
  status: TenderStatus;
  /** What the tender counts toward the bill: the amount asked while it is open, the approved amount after. */
  amount: string;
  /** The amount asked (equal to `amount` unless a card approved less). */
  requestedAmount: string;
  /** What refunds gave back of it since (a captured tender refunded outside the bill). */
  refundedAmount: string;
  /** The tip on top, never counted toward the bill. */
  tipAmount: string;
  /** The till's own reference of a cash or other tender. */
  reference: string | null;
}

const sum = (values: Decimal[]) => values.reduce((a, b) => a.plus(b), new Decimal(0));

/** What the bill has of its tenders: the paid ones, less what was refunded of them. */
export function paidOf(tenders: readonly BillTender[]): Decimal {
  return sum(tenders.filter((t) => PAID_TENDER_STATUSES.includes(t.status)).map((t) => new Decimal(t.amount).minus(t.refundedAmount)));
}

/** What open tenders hold: asked of a customer who has not answered yet. */
export function heldOf(tenders: readonly BillTender[]): Decimal {
  return sum(tenders.filter((t) => HOLDING_TENDER_STATUSES.includes(t.status)).map((t) => new Decimal(t.requestedAmount)));
}

/** The bill's remainder: what is still owed, not counting what open tenders hold. */
export function remainingOf(amount: string, tenders: readonly BillTender[]): Decimal {
  return Decimal.max(0, new Decimal(amount).minus(paidOf(tenders)));
}

/** What a new tender may ask: the remainder less what open tenders hold (so two tills cannot over-pay one bill). */
export function availableOf(amount: string, tenders: readonly BillTender[]): Decimal {
  return Decimal.max(0, remainingOf(amount, tenders).minus(heldOf(tenders)));
}

/** The next sequence number: one past the highest taken. */
export const nextSequenceNumber = (tenders: readonly BillTender[]): number => tenders.reduce((n, t) => Math.max(n, t.sequenceNumber), 0) + 1;

/**
 * A cash or other tender the till records again under the same reference (a retry after a lost
 * answer): the tender already recorded, or undefined when the reference is new or absent. `same`
 * tells whether the repeat matches it (method and amount); a mismatch is refused, never added.
 */
export function repeatedTillTender(
  tenders: readonly { paymentId: string | null; reference: string | null; method: string | null; amount: Decimal.Value }[],
  ask: { method: string; amount: Decimal.Value; reference: string | null },
): { same: boolean } | undefined {
  if (ask.reference === null) return undefined;
  const found = tenders.find((t) => t.paymentId === null && t.reference === ask.reference);
  return found && { same: found.method === ask.method && new Decimal(found.amount).eq(ask.amount) };
}
