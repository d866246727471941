import { ActivityFailure, CancellationScope, isCancellation, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import type { WebhookDeliveryInput, WebhookDeliveryResult } from './definitions';

/** Time for the name resolution and database writes around the HTTP attempt itself. */
const ATTEMPT_MARGIN_MS = 15_000;

/**
 * Delivers one event to one destination. The attempt activity's retry policy IS the retry
 * schedule (contracts 2): exponential backoff from the initial interval, doubling, capped, for at
 * most the maximum age; Temporal keeps only the last failure in history, so three days of retries
 * stay small. When the schedule is exhausted the delivery is FAILED. Cancelled when its destination
 * is deleted; a manual redelivery starts a fresh run under the same workflow id.
 */
export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<WebhookDeliveryResult> {
  const { attemptWebhookDelivery } = proxyActivities<Activities>({
    startToCloseTimeout: input.retry.attemptTimeoutMs + ATTEMPT_MARGIN_MS,
    scheduleToCloseTimeout: input.retry.maxAgeMs,
    retry: {
      initialInterval: input.retry.initialIntervalMs,
      backoffCoefficient: 2,
      maximumInterval: input.retry.maximumIntervalMs,
      // No maximumAttempts: unlimited, the maximum age (schedule-to-close) ends the schedule.
      nonRetryableErrorTypes: ['WebhookUrlRefused'],
    },
  });
  const { finishWebhookDelivery } = proxyActivities<Activities>({
    startToCloseTimeout: '30 seconds',
    retry: { maximumInterval: '30 seconds' },
  });

  try {
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
