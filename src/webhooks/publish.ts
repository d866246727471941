import type { Db } from '../db/client';
import type { Logger } from '../logger';
import { type DeliveryRef, type DispatchDeps, firstAttempt } from './dispatch';
import { storedBody, type WebhookEventBody } from './payload';

/** A webhook event to record: its id derives from what it announces, so a retried publish names the same one. */
export interface NewWebhookEvent {
  id: string;
  merchantId: string;
  mode: string;
  paymentId: string | null;
  eventType: string;
  body: WebhookEventBody;
}

/**
 * Records a webhook event, and hands it to its destinations: the first attempts run in the
 * background (firstAttempt). Returns the event id.
 */
export async function publishEvent(deps: DispatchDeps & { logger?: Logger }, event: NewWebhookEvent): Promise<string> {
  attemptFirst(deps, await recordEvent(deps.db, event));
  return event.id;
}

/** The first attempt of each delivery, in the background: after the transaction that recorded them, when there is one. */
export function attemptFirst(deps: DispatchDeps & { logger?: Logger }, deliveries: DeliveryRef[]): void {
  for (const d of deliveries) void firstAttempt(deps, d);
}

/**
 * Records a webhook event and fans it out to every live destination of its business and mode that
 * selects its type (an empty selection means every type), in one statement: the event row (written
 * once: a retried publish keeps the first), one WebhookDelivery row per destination (unique per
 * event and destination), and back the deliveries never attempted (those inserted now, and those a
 * crashed earlier publish inserted but never attempted; the outer SELECT sees the table as it was
 * before the statement: no row twice). `db` may be a transaction, so that the event commits with
 * the change it announces.
 */
export async function recordEvent(db: Pick<Db, '$queryRaw'>, event: NewWebhookEvent): Promise<DeliveryRef[]> {
  const { payload, body } = storedBody(event.body);
  return db.$queryRaw<DeliveryRef[]>`
    WITH event AS (
      INSERT INTO "WebhookEvent" ("id", "merchantId", "mode", "paymentId", "eventType", "payload", "body", "createdAt")
      VALUES (${event.id}, ${event.merchantId}, ${event.mode}, ${event.paymentId}, ${event.eventType}, ${JSON.stringify(payload)}::jsonb, ${body}, now())
      ON CONFLICT ("id") DO NOTHING
    ),
    destinations AS (
      SELECT "id" FROM "WebhookConfig"
      WHERE "merchantId" = ${event.merchantId} AND "mode" = ${event.mode} AND "deletedAt" IS NULL
        AND (cardinality("eventTypes") = 0 OR ${event.eventType} = ANY("eventTypes"))
    ),
    inserted AS (
      INSERT INTO "WebhookDelivery" ("id", "eventId", "configId", "status", "attempts", "createdAt", "updatedAt")
      SELECT gen_random_uuid()::text, ${event.id}, "id", 'PENDING', 0, now(), now() FROM destinations
      ON CONFLICT ("eventId", "configId") DO NOTHING
      RETURNING "id", "eventId", "configId"
    )
    SELECT "id", "eventId", "configId" FROM inserted
    UNION ALL
    SELECT d."id", d."eventId", d."configId" FROM "WebhookDelivery" d JOIN destinations ON destinations."id" = d."configId"
    WHERE d."eventId" = ${event.id} AND d."status" = 'PENDING' AND d."attempts" = 0`;
}
