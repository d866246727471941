import { openSecret } from '../secrets/active';
import type { WebhookAttempt, WebhookConfig } from '../generated/prisma/client';
import type { AttemptRecord, DeliveryHistoryEntry, WebhookConfigRecord } from './recordTypes';

export type { AttemptRecord, DeliveryHistoryEntry, WebhookConfigRecord };

export function toConfigRecord(c: WebhookConfig): WebhookConfigRecord {
  return {
    id: c.id,
    url: c.url,
    description: c.description,
    eventTypes: c.eventTypes,
    mode: c.mode,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

/** The create and regenerate-key answers: the record plus the signing secret (docs/webhooks.md, "The destination"). */
export function toConfigRecordWithSecret(c: WebhookConfig): WebhookConfigRecord & { secret: string } {
  return { ...toConfigRecord(c), secret: openSecret(c.secret, 'webhook') };
}

export function toAttemptRecord(a: WebhookAttempt & { delivery: { configId: string } }): AttemptRecord {
  return {
    configId: a.delivery.configId,
    attemptNumber: a.attemptNumber,
    requestedAt: a.requestedAt.toISOString(),
    responseStatus: a.responseStatus,
    durationMs: a.durationMs,
    error: a.error,
    responseBody: a.responseBody,
  };
}
