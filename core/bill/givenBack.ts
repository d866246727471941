import { type BillStatus, giveBackStepOf, type GiveBackStep, type TenderStatus } from './statuses';

/**
 * What the give-back of a bill did with each tender (docs/bills.md, "Giving a bill back"), as the
 * dashboard's bill page shows it step by step. Read from the tender's status and, for a card or QR
 * tender that ended CANCELLED, the status its payment was cancelled from (the payment record's
 * `previousStatus`): CAPTURED is a void, AUTHORIZED a release, anything else a cancel.
 */
/** A bill being given back, or given back: cancelled on request, or expired. */
export const GIVING_BACK_STATUSES: readonly BillStatus[] = ['CANCELLING', 'CANCELLED', 'EXPIRED'];
export const isGivingBack = (s: string): boolean => (GIVING_BACK_STATUSES as readonly string[]).includes(s);

export const GIVE_BACK_OUTCOMES = ['VOIDED', 'REFUNDED', 'RELEASED', 'CANCELLED', 'TO_RETURN_AT_TILL', 'NOTHING_TAKEN'] as const;
export type GiveBackOutcome = (typeof GIVE_BACK_OUTCOMES)[number];

/** The steps still to take (the service's own; cash and other tenders are the till's, an outcome at once). */
export const PENDING_GIVE_BACK_STEPS = ['CANCEL', 'RELEASE', 'VOID_OR_REFUND', 'REFUND_REST'] as const satisfies readonly GiveBackStep[];
export type PendingGiveBackStep = (typeof PENDING_GIVE_BACK_STEPS)[number];

export interface TenderGiveBack {
  /** What was done: null while a step is still to take. */
  givenBack: GiveBackOutcome | null;
  /** The step still to take (retried by the bill's workflow while an acquirer refuses or is away): null once done. */
  giveBackStep: PendingGiveBackStep | null;
}

export function tenderGiveBack(status: TenderStatus, cancelledFrom: string | null): TenderGiveBack {
  const step = giveBackStepOf(status);
  if (step === 'RETURN_AT_TILL') return { givenBack: 'TO_RETURN_AT_TILL', giveBackStep: null };
  if (step) return { givenBack: null, giveBackStep: step };
  const done = (givenBack: GiveBackOutcome): TenderGiveBack => ({ givenBack, giveBackStep: null });
  if (status === 'REFUNDED') return done('REFUNDED');
  if (status === 'CANCELLED') return done(cancelledFrom === 'CAPTURED' ? 'VOIDED' : cancelledFrom === 'AUTHORIZED' ? 'RELEASED' : 'CANCELLED');
  return done('NOTHING_TAKEN'); // refused, expired, failed or in error: nothing was taken
}
