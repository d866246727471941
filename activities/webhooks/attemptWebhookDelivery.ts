import { openSecret } from '../../src/secrets/active';
import { ApplicationFailure } from '@temporalio/common';
import { bodyToSend } from '../../src/webhooks/payload';
import { sendWebhook } from '../../src/webhooks/send';
import type { WebhookDeliveryResult } from '../../workflows/webhooks/definitions';
import { webhookDeliveryAttempts } from '../../src/observability/metrics';
import type { ActivityDeps } from '../index';

/**
 * One delivery attempt; Temporal retries it on the webhook retry schedule. The body is the
 * event's stored bytes, the same at every attempt; the destination is read fresh for each attempt:
 * a deleted destination stops the delivery, and the signature uses the destination's current URL
 * and secret, so a regenerated secret signs the very next attempt.
 * Every attempt that was made (sent or refused) is recorded with the delivery's attempt count.
 */
export function attemptWebhookDeliveryActivity(deps: ActivityDeps) {
  return async function attemptWebhookDelivery(input: { deliveryId: string }): Promise<WebhookDeliveryResult> {
    const delivery = await deps.db.webhookDelivery.findUnique({
      where: { id: input.deliveryId },
      include: { config: true, event: true },
    });
    if (!delivery) return 'STOPPED';
    if (delivery.config.deletedAt) {
      await deps.db.webhookDelivery.updateMany({ where: { id: delivery.id, status: 'PENDING' }, data: { status: 'FAILED' } });
      return 'STOPPED';
    }
    // A previous try of this activity delivered, but its completion was lost: do not send again.
    if (delivery.status === 'DELIVERED') return 'DELIVERED';

    const outcome = await sendWebhook({
      url: delivery.config.url,
      body: bodyToSend(delivery.event),
      eventId: delivery.event.id,
      eventType: delivery.event.eventType,
      secret: openSecret(delivery.config.secret, 'webhook'),
      timeoutMs: deps.config.WEBHOOK_TIMEOUT_SECONDS * 1000,
      allowInsecure: deps.config.WEBHOOK_ALLOW_INSECURE,
    });

    // One statement counts the attempt and records it (atomic without an interactive transaction,
    // which would hold the embedded database's single session across round trips).
    await deps.db.$executeRaw`
      WITH counted AS (
        UPDATE "WebhookDelivery"
        SET "attempts" = "attempts" + 1,
            "status" = CASE WHEN ${outcome.delivered}::boolean THEN 'DELIVERED' ELSE "status" END,
            "updatedAt" = now()
        WHERE "id" = ${delivery.id}
        RETURNING "id", "attempts"
      )
      INSERT INTO "WebhookAttempt" ("deliveryId", "attemptNumber", "requestedAt", "responseStatus", "durationMs", "error", "responseBody")
      SELECT "id", "attempts", ${outcome.requestedAt}::timestamptz, ${outcome.responseStatus}::integer, ${outcome.durationMs}::integer, ${outcome.error}::text, ${outcome.responseBody}::text
      FROM counted`;

    webhookDeliveryAttempts.inc({ outcome: outcome.delivered ? 'delivered' : outcome.retryable ? 'failed_attempt' : 'refused_url' });
    if (outcome.delivered) return 'DELIVERED';
    const message = outcome.error ?? 'delivery attempt failed';
    if (!outcome.retryable) throw ApplicationFailure.nonRetryable(message, 'WebhookUrlRefused');
    throw ApplicationFailure.retryable(message, 'WebhookAttemptFailed');
  };
}
