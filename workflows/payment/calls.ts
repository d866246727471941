import { ActivityFailure, ApplicationFailure, CancelledFailure, proxyActivities, proxyLocalActivities, TemporalFailure } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { ACQUIRER_REJECTED, isAcquirerRejection } from '../../core/acquirerFailure';
import { ACQUIRER_RETRY_MAX_MS } from '../../core/payment/messages';
import type { Refusal } from '../../core/payment/rules';

/**
 * How the payment workflow calls its activities, and how it reads their failures: an answer, no
 * answer (unreachable, timed out: nothing is known, nothing changes) or a refusal by the acquirer
 * (the ACQUIRER_REJECTED failure of core/acquirerFailure.ts, never retried).
 */

// Quick calls, run as local activities (no extra workflow tasks): bounded, a failure means "no answer".
// Bounded by attempts: a local activity's schedule-to-close is not a reliable bound while it retries.
export const quickCalls = proxyLocalActivities<Activities>({
  startToCloseTimeout: '6s',
  retry: { initialInterval: '200ms', backoffCoefficient: 2, maximumInterval: '1s', maximumAttempts: 2, nonRetryableErrorTypes: [ACQUIRER_REJECTED] },
});
// Projection and webhook event: must happen, retried until they do.
export const effectCalls = proxyLocalActivities<Activities>({
  startToCloseTimeout: '10s',
  retry: { initialInterval: '200ms', backoffCoefficient: 2, maximumInterval: '10s' },
});
// What may happen only once the workflow task that decided it is committed (a webhook event, and the
// receipt it starts): an activity, which the server hands out only after that task completes. A
// local activity runs inside the task: were the task lost (a worker or Temporal node killed before
// it completed), its replay could decide otherwise at the same sequence, after the merchant heard
// the first decision (docs/webhooks.md, "Only what the payment decided").
export const afterCommit = proxyActivities<Activities>({
  startToCloseTimeout: '10s',
  retry: { initialInterval: '200ms', backoffCoefficient: 2, maximumInterval: '10s' },
});
// Calls that must eventually get an answer (expiry, probe): server-side retries add no history.
// Their pause is capped per run (timing.acquirerRetryMaxMs); options are not part of replay checks.
export const persistentCalls = (maximumIntervalMs = ACQUIRER_RETRY_MAX_MS) =>
  proxyActivities<Activities>({
    startToCloseTimeout: '20s',
    retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: maximumIntervalMs, nonRetryableErrorTypes: [ACQUIRER_REJECTED] },
  });
// The PENDING row of a new refund: must be written, retried until it is.
export const rowWrites = proxyActivities<Activities>({
  startToCloseTimeout: '10s',
  retry: { initialInterval: '200ms', backoffCoefficient: 2, maximumInterval: '10s' },
});
/** The first send of a bill: one quick attempt (a local activity holds the workflow task; it must not linger when the acquirer is silent). */
export const sendOnce = proxyLocalActivities<Activities>({
  startToCloseTimeout: '6s',
  retry: { maximumAttempts: 1, nonRetryableErrorTypes: [ACQUIRER_REJECTED] },
});
/** Sends retried server-side until the device's own deadline (no history grows meanwhile). */
export const sendUntil = (scheduleToCloseMs: number) =>
  proxyActivities<Activities>({
    startToCloseTimeout: '10s',
    scheduleToCloseTimeout: scheduleToCloseMs,
    retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '10s', nonRetryableErrorTypes: [ACQUIRER_REJECTED] },
  });

/** An activity's failure: wrapped in ActivityFailure, or (local activities) the failure itself. */
const activityCause = (err: unknown): TemporalFailure | undefined =>
  err instanceof ActivityFailure ? ((err.cause as TemporalFailure | undefined) ?? err) : err instanceof TemporalFailure ? err : undefined;
export const isRejected = (err: unknown): boolean => isAcquirerRejection(activityCause(err));
/** The acquirer gave no usable answer (unreachable, timed out): nothing is known, nothing changes. */
const isNoAnswer = (err: unknown): boolean => activityCause(err) !== undefined && !(err instanceof CancelledFailure) && !isRejected(err);

/** A rule's refusal as the failure an update answers with: its type is the refusal's code (rules.ts). */
export const refused = (refusal: Refusal): ApplicationFailure =>
  ApplicationFailure.create({ type: refusal.code, message: refusal.message, nonRetryable: true });

/** What an acquirer call came to. Anything else (a workflow cancelled, a bug) is thrown on. */
export type Attempt<T> = { kind: 'answer'; value: T } | { kind: 'noAnswer' } | { kind: 'rejected'; message: string | undefined };

export async function attempt<T>(call: Promise<T>): Promise<Attempt<T>> {
  try {
    return { kind: 'answer', value: await call };
  } catch (err) {
    if (isRejected(err)) return { kind: 'rejected', message: activityCause(err)?.message };
    if (isNoAnswer(err)) return { kind: 'noAnswer' };
    throw err;
  }
}

/** A call retried until it is answered (persistent): only a refusal comes back; anything else is thrown on. */
export async function attemptUntilAnswered<T>(call: Promise<T>): Promise<Exclude<Attempt<T>, { kind: 'noAnswer' }>> {
  try {
    return { kind: 'answer', value: await call };
  } catch (err) {
    if (isRejected(err)) return { kind: 'rejected', message: activityCause(err)?.message };
    throw err;
  }
}
