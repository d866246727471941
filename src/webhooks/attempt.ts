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

/** What an attempt reads: the delivery, its destination and its event. */
export interface AttemptRow {
  id: string;
  status: string;
  url: string;
  secret: string;
  deletedAt: Date | null;
  eventId: string;
  eventType: string;
  body: string | null;
  payload: unknown;
}

/**
 * `read`: the row as the statement that stored the delivery read it, for the first attempt right
 * after (src/webhooks/publish.ts: the destination read in that statement is as fresh as a read of
 * its own a moment later, and saves one statement per event and destination).
 */
export async function attemptDelivery(deps: AttemptDeps, deliveryId: string, read?: AttemptRow): Promise<AttemptResult> {
  // The delivery, its destination and its event in one statement.
  const [row] = read
    ? [read]
    : await deps.db.$queryRaw<AttemptRow[]>`
    SELECT d."id", d."status", c."url", c."secret", c."deletedAt", e."id" AS "eventId", e."eventType", e."body", e."payload"
    FROM "WebhookDelivery" d
    JOIN "WebhookConfig" c ON c."id" = d."configId"
    JOIN "WebhookEvent" e ON e."id" = d."eventId"
    WHERE d."id" = ${deliveryId}`;
  if (!row) return { kind: 'STOPPED' };
  const delivery = {
    id: row.id,
    status: row.status,
    config: { url: row.url, secret: row.secret, deletedAt: row.deletedAt },
    event: { id: row.eventId, eventType: row.eventType, body: row.body, payload: typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload },
  };
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
