import Decimal from 'decimal.js';

/**
 * Dispute statuses and reasons (docs/disputes.md, "Lifecycle"). Pure definitions shared by the workflow, the API
 * and the acquirer adapters.
 */
export const DISPUTE_STATUSES = ['NEEDS_RESPONSE', 'UNDER_REVIEW', 'WON', 'LOST', 'ACCEPTED', 'EXPIRED'] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

/** Open: the merchant may still answer, or the scheme has not decided. A payment's refunds and voids wait meanwhile. */
export const OPEN_DISPUTE_STATUSES: readonly DisputeStatus[] = ['NEEDS_RESPONSE', 'UNDER_REVIEW'];
export const isDisputeOpen = (s: string | null | undefined): boolean => (OPEN_DISPUTE_STATUSES as readonly (string | null | undefined)[]).includes(s);
export const isDisputeFinal = (s: string): boolean => (DISPUTE_STATUSES as readonly string[]).includes(s) && !isDisputeOpen(s);

/**
 * Decided for the cardholder: the acquirer debited the dispute's amount when it opened and keeps
 * it (LOST, ACCEPTED, EXPIRED). A WON dispute's amount came back to the merchant (docs/disputes.md).
 */
export const CHARGED_BACK_STATUSES: readonly DisputeStatus[] = ['LOST', 'ACCEPTED', 'EXPIRED'];
export const isChargedBack = (s: string | null | undefined): boolean => (CHARGED_BACK_STATUSES as readonly (string | null | undefined)[]).includes(s);

/** What a payment's disputes took back for good (exact decimal text): the sum of the charged-back ones. */
export function chargedBackTotal(disputes: Iterable<{ status: string; amount?: string | null }>): string {
  let total = new Decimal(0);
  for (const d of disputes) if (isChargedBack(d.status) && d.amount) total = total.plus(d.amount);
  return total.toFixed();
}

export const DISPUTE_REASONS = ['FRAUD', 'NOT_RECEIVED', 'DUPLICATE', 'CREDIT_NOT_PROCESSED', 'GENERAL'] as const;
export type DisputeReason = (typeof DISPUTE_REASONS)[number];

/** How far a status is along the lifecycle: a later word about a dispute never moves it back. */
export function disputeStatusRank(s: string): number {
  if (s === 'NEEDS_RESPONSE') return 0;
  if (s === 'UNDER_REVIEW') return 1;
  return 2;
}

/** The statement's limits: 1-20000 characters (README, "Disputes"). */
export const EVIDENCE_TEXT_MAX = 20_000;
