import type { Db } from '../db/client';
import type { Logger } from '../logger';
import type { AttemptRow } from './attempt';
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
export function attemptFirst(deps: DispatchDeps & { logger?: Logger }, deliveries: PublishedDelivery[]): void {
  for (const d of deliveries) void firstAttempt(deps, d, d.read);
}

/** A delivery never attempted, with what its first attempt needs as the publishing statement read it (in memory only: it holds the sealed secret). */
export interface PublishedDelivery extends DeliveryRef {
  read: AttemptRow;
}

interface PublishedRow extends DeliveryRef {
  url: string;
  secret: string;
  /** The event as stored before this statement (a retried publish keeps the first); null when this statement stored it. */
  storedType: string | null;
  storedBody: string | null;
  storedPayload: unknown;
}

/**
 * Records a webhook event and fans it out to every live destination of its business and mode that
 * selects its type (an empty selection means every type), in one statement: the event row (written
 * once: a retried publish keeps the first), one WebhookDelivery row per destination (unique per
 * event and destination), and back the deliveries never attempted (those inserted now, and those a
 * crashed earlier publish inserted but never attempted; the outer SELECT sees the table as it was
 * before the statement: no row twice). `db` may be a transaction, so that the event commits with
 * the change it announces. Each delivery comes back with its destination's URL and secret and the
 * event's stored bytes, so its first attempt reads nothing more (docs/benchmark.md, "Issue 41,
 * fourth point").
 */
export async function recordEvent(db: Pick<Db, '$queryRaw'>, event: NewWebhookEvent): Promise<PublishedDelivery[]> {
  const { payload, body } = storedBody(event.body);
  const rows = await db.$queryRaw<PublishedRow[]>`
    WITH event AS (
      INSERT INTO "WebhookEvent" ("id", "merchantId", "mode", "paymentId", "eventType", "payload", "body", "createdAt")
      VALUES (${event.id}, ${event.merchantId}, ${event.mode}, ${event.paymentId}, ${event.eventType}, ${JSON.stringify(payload)}::jsonb, ${body}, now())
      ON CONFLICT ("id") DO NOTHING
    ),
    stored AS (
      SELECT "eventType", "body", "payload" FROM "WebhookEvent" WHERE "id" = ${event.id}
    ),
    destinations AS (
      SELECT "id", "url", "secret" FROM "WebhookConfig"
      WHERE "merchantId" = ${event.merchantId} AND "mode" = ${event.mode} AND "deletedAt" IS NULL
        AND (cardinality("eventTypes") = 0 OR ${event.eventType} = ANY("eventTypes"))
    ),
    inserted AS (
      INSERT INTO "WebhookDelivery" ("id", "eventId", "configId", "status", "attempts", "createdAt", "updatedAt")
      SELECT gen_random_uuid()::text, ${event.id}, "id", 'PENDING', 0, now(), now() FROM destinations
      ON CONFLICT ("eventId", "configId") DO NOTHING
      RETURNING "id", "eventId", "configId"
    )
    SELECT i."id", i."eventId", i."configId", destinations."url", destinations."secret",
           stored."eventType" AS "storedType", stored."body" AS "storedBody", stored."payload" AS "storedPayload"
    FROM inserted i JOIN destinations ON destinations."id" = i."configId" LEFT JOIN stored ON true
    UNION ALL
    SELECT d."id", d."eventId", d."configId", destinations."url", destinations."secret",
           stored."eventType", stored."body", stored."payload"
    FROM "WebhookDelivery" d JOIN destinations ON destinations."id" = d."configId" LEFT JOIN stored ON true
    WHERE d."eventId" = ${event.id} AND d."status" = 'PENDING' AND d."attempts" = 0`;
  return rows.map(({ url, secret, storedType, storedBody, storedPayload, ...ref }) => ({
    ...ref,
    read: {
      id: ref.id,
      status: 'PENDING',
      url,
      secret,
      deletedAt: null,
      eventId: ref.eventId,
      // The stored event wins over this publish's (the same id announces the same thing; its bytes were signed once already).
      ...(storedType !== null
        ? { eventType: storedType, body: storedBody, payload: typeof storedPayload === 'string' ? JSON.parse(storedPayload) : storedPayload }
        : { eventType: event.eventType, body, payload }),
    },
  }));
}
