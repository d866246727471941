import type Stripe from 'stripe';
import type { AcquirerDispute, DisputeEvidence } from '../port';
import { fromStripeAmount } from './mapping';

/**
 * Stripe's disputes as ours (docs/disputes.md, "Stripe"), pure. The tables below name every status and reason
 * Stripe's OpenAPI description lists (test/acquirer/stripe/disputes.unit.test.ts fails on a value
 * without a row); a value Stripe adds later reads as the nearest safe meaning (see `*_FALLBACK`).
 * The table is also in docs/disputes.md.
 */
export const STRIPE_DISPUTE_STATUS: Readonly<Record<string, AcquirerDispute['status']>> = {
  // An inquiry (warning_*) is a dispute the bank may still escalate: answered the same way, by the due date.
  warning_needs_response: 'NEEDS_RESPONSE',
  needs_response: 'NEEDS_RESPONSE',
  warning_under_review: 'UNDER_REVIEW',
  under_review: 'UNDER_REVIEW',
  won: 'WON',
  // An inquiry closed without becoming a chargeback, or a dispute prevented: the merchant keeps the money.
  warning_closed: 'WON',
  prevented: 'WON',
  // `lost` after no submission is an acceptance (closing a dispute is accepting it): see disputeStatusOf.
  lost: 'LOST',
};
const STATUS_FALLBACK: AcquirerDispute['status'] = 'UNDER_REVIEW'; // unknown: not ours to answer, not decided

export const STRIPE_DISPUTE_REASON: Readonly<Record<string, AcquirerDispute['reason']>> = {
  fraudulent: 'FRAUD',
  unrecognized: 'FRAUD',
  debit_not_authorized: 'FRAUD',
  product_not_received: 'NOT_RECEIVED',
  duplicate: 'DUPLICATE',
  credit_not_processed: 'CREDIT_NOT_PROCESSED',
  subscription_canceled: 'CREDIT_NOT_PROCESSED',
  general: 'GENERAL',
  product_unacceptable: 'GENERAL',
  bank_cannot_process: 'GENERAL',
  check_returned: 'GENERAL',
  customer_initiated: 'GENERAL',
  incorrect_account_details: 'GENERAL',
  insufficient_funds: 'GENERAL',
  noncompliant: 'GENERAL',
};
const REASON_FALLBACK: AcquirerDispute['reason'] = 'GENERAL';

export type ReadableDispute = Pick<Stripe.Dispute, 'id' | 'status' | 'reason' | 'amount' | 'currency' | 'created' | 'payment_intent' | 'evidence_details'>;

export function disputeStatusOf(d: Pick<ReadableDispute, 'status' | 'evidence_details'>): AcquirerDispute['status'] {
  const status = STRIPE_DISPUTE_STATUS[d.status] ?? STATUS_FALLBACK;
  // Stripe shows a closed (accepted) dispute as lost; nothing was ever submitted for it.
  if (status === 'LOST' && (d.evidence_details?.submission_count ?? 0) === 0) return 'ACCEPTED';
  return status;
}

export const disputeReasonOf = (reason: string): AcquirerDispute['reason'] => STRIPE_DISPUTE_REASON[reason] ?? REASON_FALLBACK;

const iso = (seconds: number): string => new Date(seconds * 1000).toISOString();

/** A Stripe dispute as the port's; the due date is Stripe's `evidence_details.due_by` (null once nothing is due: its opening then). */
export function acquirerDisputeOf(d: ReadableDispute): AcquirerDispute {
  const pi = typeof d.payment_intent === 'string' ? d.payment_intent : (d.payment_intent?.id ?? '');
  return {
    disputeId: d.id,
    acquirerRef: pi,
    status: disputeStatusOf(d),
    reason: disputeReasonOf(d.reason),
    amount: fromStripeAmount(d.amount, d.currency),
    currency: d.currency.toUpperCase(),
    openedAt: iso(d.created),
    dueBy: iso(d.evidence_details?.due_by ?? d.created),
  };
}

/** Stripe's limit of a long evidence text field, as ours of the statement (20000): the transaction's facts are cut to it. */
const TEXT_MAX = 20_000;
const clip = (s: string, max = TEXT_MAX): string => (s.length > max ? s.slice(0, max) : s);

/**
 * Our answer as Stripe's evidence, submitted at once (`submit: true`): the statement as
 * `uncategorized_text`, the assembled transaction as the receipt facts Stripe has fields for and,
 * whole, in the access-activity log (a text field Stripe shows the bank).
 */
export function evidenceParams(evidence: DisputeEvidence): Stripe.DisputeUpdateParams {
  const t = evidence.transaction as Record<string, unknown>;
  const product = [t.storeName, t.reference].filter((v) => typeof v === 'string' && v).join(', ');
  const captured = typeof t.capturedAt === 'string' ? t.capturedAt.slice(0, 10) : undefined;
  return {
    submit: true,
    evidence: {
      uncategorized_text: clip(evidence.text),
      access_activity_log: clip(JSON.stringify(t)),
      ...(product ? { product_description: clip(`In-store card payment at ${product}`) } : {}),
      ...(captured ? { service_date: captured } : {}),
    },
  };
}
