import { ApplicationFailure } from '@temporalio/common';

/**
 * An acquirer's refusal as a workflow sees it (docs/architecture.md, "Where each kind of rule
 * lives"): the one failure type an activity throws when the acquirer answered "no", and the one
 * name every retry policy lists in `nonRetryableErrorTypes`. An acquirer that did not answer is not
 * this failure: the activity throws as it is and is retried.
 *
 * The value is the one recorded in existing histories (`test/replay/`): a workflow reads it back
 * from its history on replay, so it must not change.
 */
export const ACQUIRER_REJECTED = 'AcquirerRejected';

/** What a refusal carries besides its message: the acquirer's own HTTP status and error code, when known. */
export interface AcquirerRejectionDetails {
  status?: number;
  code?: string;
}

/**
 * The failure of an acquirer's refusal. Final (not retried) unless `retried` is set: only a step
 * that must never be dropped (a settlement close, docs/settlement.md) keeps asking until the
 * acquirer's side is set up.
 */
export function acquirerRejection(message: string, details: AcquirerRejectionDetails = {}, opts: { retried?: boolean } = {}): ApplicationFailure {
  return ApplicationFailure.create({ type: ACQUIRER_REJECTED, message, nonRetryable: !opts.retried, details: [details] });
}

/** Whether a failure (an activity's cause) is an acquirer's refusal. */
export function isAcquirerRejection(failure: unknown): failure is ApplicationFailure {
  return failure instanceof ApplicationFailure && failure.type === ACQUIRER_REJECTED;
}
