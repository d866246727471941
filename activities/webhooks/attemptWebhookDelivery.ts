import { ApplicationFailure } from '@temporalio/common';
import { attemptDelivery } from '../../src/webhooks/attempt';
import type { WebhookDeliveryResult } from '../../core/webhooks/delivery';
import type { ActivityDeps } from '../deps';

/**
 * One delivery attempt of the retry schedule; Temporal retries it on that schedule
 * (src/webhooks/attempt.ts does the attempt and records it with the delivery's attempt count).
 */
export function attemptWebhookDeliveryActivity(deps: ActivityDeps) {
  return async function attemptWebhookDelivery(input: { deliveryId: string }): Promise<WebhookDeliveryResult> {
    const result = await attemptDelivery(deps, input.deliveryId);
    if (result.kind === 'STOPPED') return 'STOPPED';
    if (result.kind === 'ALREADY_DELIVERED' || result.outcome.delivered) return 'DELIVERED';
    const message = result.outcome.error ?? 'delivery attempt failed';
    if (!result.outcome.retryable) throw ApplicationFailure.nonRetryable(message, 'WebhookUrlRefused');
    throw ApplicationFailure.retryable(message, 'WebhookAttemptFailed');
  };
}
