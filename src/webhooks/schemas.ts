import { z } from '../domain/zod';
import { pagedSchema } from '../domain/paging';
import { PagingQuery } from '../domain/listQuery';
import { EVENT_TYPES } from './events';

/** Request and response schemas of the webhook endpoints (docs/webhooks.md). */

const eventTypesMessage = (unknown: string[]): string =>
  `unknown event type${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; expected any of ${EVENT_TYPES.join(', ')}`;

/** Omitted or empty means every event type; duplicates are dropped. */
export const EventTypes = z
  .array(z.string({ error: 'must be an array of event type names' }), { error: 'must be an array of event type names' })
  .max(EVENT_TYPES.length * 2, 'has too many entries')
  .superRefine((values, ctx) => {
    const unknown = values.filter((v) => !(EVENT_TYPES as readonly string[]).includes(v));
    if (unknown.length > 0) ctx.addIssue({ code: 'custom', message: eventTypesMessage(unknown) });
  })
  .transform((values) => [...new Set(values)])
  .openapi({ description: `Any of ${EVENT_TYPES.join(', ')}. Omitted or empty: every event`, example: ['PAYMENT_CAPTURED', 'PAYMENT_REFUSED'] });

export const WEBHOOK_URL_MAX_LENGTH = 2048;

const Url = z
  .string({ error: 'must be a string' })
  .min(1, 'is required')
  .max(WEBHOOK_URL_MAX_LENGTH, `must be at most ${WEBHOOK_URL_MAX_LENGTH} characters`)
  .openapi({ example: 'https://pos.example.com/webhooks/payments', description: 'https:// only; never a loopback, private or link-local address' });

const Description = z.string({ error: 'must be a string' }).max(500, 'must be at most 500 characters').nullish();

export const CreateConfigBody = z.strictObject({ url: Url, description: Description, eventTypes: EventTypes.optional() }).openapi('WebhookConfigCreate');

export const UpdateConfigBody = z
  .strictObject({ url: Url.optional(), description: Description, eventTypes: EventTypes.optional() })
  .refine((b) => b.url !== undefined || b.description !== undefined || b.eventTypes !== undefined, 'must name at least one of url, description, eventTypes')
  .openapi('WebhookConfigUpdate');

export const RedeliverBody = z
  .strictObject({ configId: z.string().min(1).max(100).optional().openapi({ description: 'Only this destination; omitted: every destination of the event' }) })
  .openapi('WebhookRedeliver');

export const ConfigParams = z.object({ id: z.string().min(1).max(100) });
export const EventParams = z.object({ eventId: z.string().min(1).max(100) });
export const HistoryQuery = PagingQuery.strict();

export const ConfigRecord = z
  .object({
    id: z.string(),
    url: z.string(),
    description: z.string().nullable(),
    eventTypes: z.array(z.string()).openapi({ description: 'Empty: every event type' }),
    mode: z.enum(['live', 'test']).openapi({ description: 'The mode of the key that created it; only that mode’s events arrive' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('WebhookConfig');

export const ConfigWithSecret = ConfigRecord.extend({
  secret: z.string().openapi({ description: 'Signing secret (whsec_...); shown only here and after regenerate-key' }),
}).openapi('WebhookConfigWithSecret');

export const DeliveryStatus = z.enum(['PENDING', 'DELIVERED', 'FAILED']);

export const HistoryEntry = z
  .object({ eventId: z.string(), eventType: z.string(), status: DeliveryStatus, attempts: z.number().int(), createdAt: z.string() })
  .openapi('WebhookDeliveryHistoryEntry');

export const HistoryPage = pagedSchema(HistoryEntry, 'WebhookDeliveryHistoryPage');

export const Attempt = z
  .object({
    configId: z.string(),
    attemptNumber: z.number().int(),
    requestedAt: z.string(),
    responseStatus: z.number().int().nullable(),
    durationMs: z.number().int(),
    error: z.string().nullable(),
    responseBody: z.string().nullable().openapi({ description: 'First 1024 bytes of the receiver’s answer' }),
  })
  .openapi('WebhookAttempt');

export const DeliveryQueued = z
  .object({
    eventId: z.string(),
    eventType: z.string(),
    deliveries: z.array(z.object({ configId: z.string(), status: DeliveryStatus, attempts: z.number().int() })),
  })
  .openapi('WebhookDeliveriesQueued');
