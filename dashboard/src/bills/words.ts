import type { GiveBackOutcome, PendingGiveBackStep } from '../../../core/bill/givenBack';

/**
 * A bill's give-back in words (docs/dashboard.md, "Bills"): what was done with a tender, or what
 * the service is still doing; the API's names (core/bill/givenBack.ts) stay the source.
 */
export const OUTCOME_WORDS: Record<GiveBackOutcome, string> = {
  VOIDED: 'voided: the capture was reversed',
  REFUNDED: 'refunded in full',
  RELEASED: 'released: the authorisation was let go',
  CANCELLED: 'cancelled before the customer paid',
  TO_RETURN_AT_TILL: 'to return at the till: the service cannot hand back cash or other tenders',
  NOTHING_TAKEN: 'nothing to give back: nothing was taken',
};

export const STEP_WORDS: Record<PendingGiveBackStep, string> = {
  CANCEL: 'being cancelled on the terminal',
  RELEASE: 'authorisation being released',
  VOID_OR_REFUND: 'being voided (refunded in full after the void window)',
  REFUND_REST: 'the rest being refunded',
};

/** How the bill as a whole stands once it is being given back. */
export const GIVE_BACK_HEADLINES: Record<string, string> = {
  CANCELLING:
    'Being given back: each tender below is cancelled, voided, refunded or released in turn; while an acquirer refuses or cannot be reached the service keeps trying.',
  CANCELLED: 'Cancelled: every tender was given back as listed below.',
  EXPIRED: 'Expired while still open: the service gave every tender back as listed below.',
};
