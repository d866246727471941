import Decimal from 'decimal.js';
import { isRefundable, isSettleable, type PaymentStatus } from './statuses';

/**
 * "May this operation run now, and if not, why?": one pure function per operation, the one home
 * of each precondition. The API asks them from the payment's row before it bothers the workflow;
 * the workflow's validators ask them again from the run's own state (which also knows what is in
 * flight) and decide. A refusal's `code` is a domain error kind: HTTP answers `invalid` with 400
 * and `conflict` with 409 (src/domain/errors.ts), whoever refused.
 */
export type RefusalCode = 'invalid' | 'conflict';
export interface Refusal {
  code: RefusalCode;
  message: string;
}

/** What the rules read of a payment: its row, or a run's state (both have these fields). */
export interface PaymentFacts {
  status: PaymentStatus;
  /** The authorised amount (exact decimal text), without the tip. */
  amount: string;
  /** The tip on top of it (docs/tips.md); absent: none. */
  tipAmount?: string;
  previousStatus: PaymentStatus | null;
  capturedAt: string | null;
  capturedAmount: string | null;
  refundedAmount: string;
  settledAt?: string | null;
}

/** What only the running workflow knows; the API reads what it can from the rows. */
export interface InFlight {
  /** A two-step completion asked for and not answered yet. */
  captureUnderWay?: boolean;
  /** Refunds accepted and not decided (their amounts are still reserved). */
  refundUnderWay?: boolean;
  /** The sum of refunds reserved and not decided (exact decimal text). */
  pendingRefundTotal?: string;
  /** A void request being handled, or a reversal the acquirer has not confirmed yet. */
  voidUnderWay?: boolean;
  /** A dispute of the payment is NEEDS_RESPONSE or UNDER_REVIEW (docs/disputes.md, "The payment side"): its money is in question. */
  disputeOpen?: boolean;
  /** What LOST, ACCEPTED and EXPIRED disputes took back (exact decimal text): no longer the merchant's to refund or void (docs/refunds.md). */
  chargedBack?: string;
}

const DISPUTE_OPEN = 'a dispute of this payment is open (NEEDS_RESPONSE or UNDER_REVIEW)';

const conflict = (message: string): Refusal => ({ code: 'conflict', message });
const invalid = (message: string): Refusal => ({ code: 'invalid', message });

/**
 * Two-step completion (docs/payments.md, "Two-step completion"): an AUTHORIZED payment, at most its
 * authorised total (the tip included: docs/tips.md), one completion at a time.
 */
export function captureRefusal(p: PaymentFacts, inFlight: InFlight, amount?: string): Refusal | undefined {
  if (amount !== undefined) {
    const authorised = authorisedTotal(p);
    if (new Decimal(amount).lte(0)) return invalid('amount: must be greater than 0');
    if (new Decimal(amount).gt(authorised)) return invalid(`amount: ${amount} is more than the authorised ${authorised.toFixed()}`);
  }
  if (p.status !== 'AUTHORIZED') return conflict(`capture not permitted: the payment is ${p.status}, not AUTHORIZED`);
  if (inFlight.captureUnderWay) return conflict('capture not permitted: a capture of this payment is already being completed');
  return undefined;
}

/** What a two-step completion takes by default: the authorised amount and its tip. */
export function authorisedTotal(p: Pick<PaymentFacts, 'amount' | 'tipAmount'>): Decimal {
  return new Decimal(p.amount).plus(p.tipAmount ?? 0);
}

/** Cancel: anything not yet decided; an authorisation whose capture is under way is decided. */
export function cancelRefusal(p: PaymentFacts, inFlight: InFlight): Refusal | undefined {
  if (p.status === 'AUTHORIZED' && inFlight.captureUnderWay) return conflict('payment already decided: its capture is being completed');
  return undefined;
}

/** Void (docs/payments.md, "Void"): a CAPTURED payment inside its void window, with no refund under way. */
export function voidRefusal(p: PaymentFacts, inFlight: InFlight, window: { nowMs: number; voidWindowMs: number }): Refusal | undefined {
  if (p.status !== 'CAPTURED') {
    return conflict(
      p.status === 'CANCELLED' && p.previousStatus === 'CAPTURED'
        ? 'void not permitted: the payment was already voided'
        : `void not permitted: the payment is ${p.status}, not CAPTURED`,
    );
  }
  if (!p.capturedAt || window.nowMs >= Date.parse(p.capturedAt) + window.voidWindowMs) {
    return conflict(`void not permitted: the void window of ${window.voidWindowMs / 60_000} minutes from capture has closed`);
  }
  if (inFlight.refundUnderWay) return conflict('void not permitted: a refund of this payment is under way');
  if (inFlight.disputeOpen) return conflict(`void not permitted: ${DISPUTE_OPEN}`);
  if (new Decimal(inFlight.chargedBack ?? 0).gt(0)) return conflict(`void not permitted: ${chargedBackText(inFlight)}`);
  return undefined;
}

/** What is left to refund: captured minus succeeded minus still pending minus what chargebacks took back (never below 0). */
export function refundableLeft(p: PaymentFacts, inFlight: InFlight): Decimal {
  return Decimal.max(
    0,
    new Decimal(p.capturedAmount ?? 0)
      .minus(p.refundedAmount)
      .minus(inFlight.pendingRefundTotal ?? 0)
      .minus(inFlight.chargedBack ?? 0),
  );
}

const chargedBackText = (inFlight: InFlight): string =>
  `a chargeback took back ${new Decimal(inFlight.chargedBack ?? 0).toFixed()} of this payment (its dispute was lost, accepted or expired)`;

/** Refund (docs/refunds.md, "Rules"): a refundable status, no more than is left, and never while a reversal is under way. */
export function refundRefusal(p: PaymentFacts, inFlight: InFlight, amount?: string): Refusal | undefined {
  if (!isRefundable(p.status)) return conflict(notRefundable(p));
  if (inFlight.voidUnderWay) return conflict('refund not permitted: a void of this payment is under way');
  if (inFlight.disputeOpen) return conflict(`refund not permitted: ${DISPUTE_OPEN}`);
  const left = refundableLeft(p, inFlight);
  const why = new Decimal(inFlight.chargedBack ?? 0).gt(0) ? ` (${chargedBackText(inFlight)})` : '';
  if (amount === undefined) return left.lte(0) ? conflict(`amount: nothing is left to refund${why}`) : undefined;
  return new Decimal(amount).gt(left) ? conflict(`amount: ${amount} is more than the ${left.toFixed()} still refundable${why}`) : undefined;
}

function notRefundable(p: PaymentFacts): string {
  if (p.status === 'AUTHORIZED') return 'refund not permitted: the payment is AUTHORIZED; release it (cancel) or capture it first';
  if (p.status === 'CANCELLED' && p.previousStatus === 'CAPTURED') return 'refund not permitted: the payment was voided, its money is already back';
  return `refund not permitted: the payment is ${p.status}; only CAPTURED, SETTLED and PARTIALLY_REFUNDED payments are refundable`;
}

/** Settlement (docs/settlement.md, "Reconciliation"): a captured or refunded payment, once. */
export function settleRefusal(p: PaymentFacts): Refusal | undefined {
  if (!p.settledAt && !isSettleable(p.status)) return conflict(`settlement not permitted: the payment is ${p.status}`);
  return undefined;
}
