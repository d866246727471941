import { ActivityFailure, CancellationScope, isCancellation, proxyActivities, sleep } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import type { WebhookDeliveryInput, WebhookDeliveryResult } from '../../core/webhooks/delivery';
import { autoUpgradeWhenVersioned } from '../versioning';

/** Time for the name resolution and database writes around the HTTP attempt itself. */
const ATTEMPT_MARGIN_MS = 15_000;

/**
 * Delivers one event to one destination. The attempt activity's retry policy IS the retry
 * schedule (docs/webhooks.md, "Retries"): exponential backoff from the initial interval, doubling, capped, for at
 * most the maximum age; Temporal keeps only the last failure in history, so three days of retries
 * stay small. When the schedule is exhausted the delivery is FAILED. Cancelled when its destination
 * is deleted; a manual redelivery starts a fresh run under the same workflow id.
 *
 * A payment event's first attempt is made by the publishing step itself (src/webhooks/dispatch.ts);
 * only when it fails does this run start, with `firstAttemptAtMs`: it waits out the first interval
 * from that attempt, then retries with the doubled interval and what is left of the maximum age,
 * so the attempts fall where they would have fallen had the run made the first one.
 */
export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<WebhookDeliveryResult> {
  const { retry } = input;
  const { finishWebhookDelivery } = proxyActivities<Activities>({
    startToCloseTimeout: '30 seconds',
    retry: { maximumInterval: '30 seconds' },
  });

  try {
    let initialInterval = retry.initialIntervalMs;
    let maxAge = retry.maxAgeMs;
    if (input.firstAttemptAtMs !== undefined) {
      const wait = Math.min(retry.initialIntervalMs, retry.maximumIntervalMs) - (Date.now() - input.firstAttemptAtMs);
      if (wait > 0) await sleep(wait);
      initialInterval = Math.min(retry.initialIntervalMs * 2, retry.maximumIntervalMs);
      maxAge = retry.maxAgeMs - (Date.now() - input.firstAttemptAtMs);
      if (maxAge <= 0) {
        await finishWebhookDelivery({ deliveryId: input.deliveryId });
        return 'FAILED';
      }
    }
    const { attemptWebhookDelivery } = proxyActivities<Activities>({
      startToCloseTimeout: retry.attemptTimeoutMs + ATTEMPT_MARGIN_MS,
      scheduleToCloseTimeout: maxAge,
      retry: {
        initialInterval,
        backoffCoefficient: 2,
        maximumInterval: retry.maximumIntervalMs,
        // No maximumAttempts: unlimited, the maximum age (schedule-to-close) ends the schedule.
        nonRetryableErrorTypes: ['WebhookUrlRefused'],
      },
    });
    return await attemptWebhookDelivery({ deliveryId: input.deliveryId });
  } catch (err) {
    if (isCancellation(err)) {
      await CancellationScope.nonCancellable(() => finishWebhookDelivery({ deliveryId: input.deliveryId }));
      throw err;
    }
    // Only the end of the retry schedule (or a URL refused for good) closes the delivery as FAILED;
    // anything else is a bug that must stay visible as a failing workflow task.
    if (!(err instanceof ActivityFailure)) throw err;
    await finishWebhookDelivery({ deliveryId: input.deliveryId });
    return 'FAILED';
  }
}
// Long-lived: moves to the current build at its next task (workflows/versioning.ts).
autoUpgradeWhenVersioned(webhookDeliveryWorkflow);
