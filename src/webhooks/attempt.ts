import type { Config } from '../config';
import type { Db } from '../db/client';
import { webhookDeliveryAttempts } from '../observability/metrics';
import { openSecret } from '../secrets/active';
import { bodyToSend } from './payload';
import { type AttemptOutcome, sendWebhook } from './send';

/**
 * One delivery attempt, made either by the publishing step itself (the first attempt of a payment
 * event) or by the delivery workflow's activity (every retry). The body is the event's stored
 * bytes, the same at every attempt; the destination is read fresh for each attempt: a deleted
 * destination stops the delivery, and the signature uses the destination's current URL and secret.
 */
export type AttemptResult =
  /** Not sent: the delivery is gone, its destination deleted (delivery FAILED), or it was delivered already. */
  { kind: 'STOPPED' } | { kind: 'ALREADY_DELIVERED' } | { kind: 'SENT'; outcome: AttemptOutcome };

export interface AttemptDeps {
  db: Db;
  config: Config;
}

export async function attemptDelivery(deps: AttemptDeps, deliveryId: string): Promise<AttemptResult> {
  const delivery = await deps.db.webhookDelivery.findUnique({ where: { id: deliveryId }, include: { config: true, event: true } });
  if (!delivery) return { kind: 'STOPPED' };
  if (delivery.config.deletedAt) {
    await deps.db.webhookDelivery.updateMany({ where: { id: delivery.id, status: 'PENDING' }, data: { status: 'FAILED' } });
    return { kind: 'STOPPED' };
  }
  // An earlier attempt delivered, but its completion was lost: do not send again.
  if (delivery.status === 'DELIVERED') return { kind: 'ALREADY_DELIVERED' };

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
  return { kind: 'SENT', outcome };
}
