import { type ActivityOptions, condition, continueAsNew, patched, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { ACQUIRER_REJECTED } from '../../core/acquirerFailure';
import { payoutNudgeSignal, type PayoutWorkflowInput } from '../../core/payout/messages';
import { autoUpgradeWhenVersioned } from '../versioning';

/**
 * One payout of an acquirer's report (docs/payouts-and-fees.md, "Payouts"): records it, and
 * once it is PAID or FAILED and the batch it pays is reconciled (so the payout is too), announces
 * it (PAYOUT_PAID or PAYOUT_FAILED, once) and ends. Between looks it waits for news: a
 * notification (a signal), the end of its batch's close (moments: short timers), or, while in
 * transit, a re-read every `recheckMs` so a lost notification is repaired.
 */
// An acquirer's refusal is final (core/acquirerFailure.ts); no answer is retried.
export const PAYOUT_ACTIVITY_OPTIONS = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute', nonRetryableErrorTypes: [ACQUIRER_REJECTED] },
} satisfies ActivityOptions;
const act = proxyActivities<Activities>(PAYOUT_ACTIVITY_OPTIONS);

/** Patch: the watch after PAID keeps a nudge that came while PAID was read and announced. */
export const PAYOUT_WATCH_KEEPS_NUDGE = 'payout-watch-keeps-nudge';

/** Looks before the history is handed to a fresh run. */
const LOOKS_PER_RUN = 200;
/** While its batch is being closed: 1 s, doubling, at most a minute. */
const BATCH_WAIT_MS = [1_000, 60_000] as const;

export async function payoutWorkflow(input: PayoutWorkflowInput): Promise<void> {
  let nudged = false;
  setHandler(payoutNudgeSignal, () => void (nudged = true));
  let batchWaitMs: number = BATCH_WAIT_MS[0];
  for (let look = 0; look < LOOKS_PER_RUN; look++) {
    nudged = false;
    const seen = await act.syncPayout(input);
    if (seen.status !== 'IN_TRANSIT' && seen.reconciledWithBatch) {
      await act.publishPayoutEvent({ payoutId: input.payoutId, eventType: seen.status === 'PAID' ? 'PAYOUT_PAID' : 'PAYOUT_FAILED' });
      if (seen.status === 'PAID' && input.pays === 'BALANCE' && input.paidWatchMs)
        await watchAfterPaid(
          input,
          input.paidWatchMs,
          () => nudged,
          () => void (nudged = false),
        );
      return;
    }
    if (!seen.reconciledWithBatch) {
      await condition(() => nudged, batchWaitMs);
      batchWaitMs = Math.min(batchWaitMs * 2, BATCH_WAIT_MS[1]);
    } else {
      await condition(() => nudged, input.recheckMs);
    }
  }
  await continueAsNew<typeof payoutWorkflow>(input);
}
// Long-lived: moves to the current build at its next task (workflows/versioning.ts).
autoUpgradeWhenVersioned(payoutWorkflow);

/**
 * A payout of a balance (Stripe) may show paid and fail days later (the bank returned it): for
 * `watchMs` after PAID each notification re-reads it, and a failure is announced (PAYOUT_FAILED,
 * once) before the run ends. Only balance payouts, new with this code: no earlier run takes it.
 */
async function watchAfterPaid(input: PayoutWorkflowInput, watchMs: number, nudged: () => boolean, clear: () => void): Promise<void> {
  const until = Date.now() + watchMs;
  // A notification that came while PAID was being read or announced is news after that read: it is
  // kept, so the watch re-reads at once. Runs from before this forgot it (and slept to the watch's end).
  if (!patched(PAYOUT_WATCH_KEEPS_NUDGE)) clear();
  while (Date.now() < until && (await condition(nudged, until - Date.now()))) {
    clear();
    const seen = await act.syncPayout(input);
    if (seen.status === 'FAILED') {
      await act.publishPayoutEvent({ payoutId: input.payoutId, eventType: 'PAYOUT_FAILED' });
      return;
    }
  }
}
