import { openSecret } from '../secrets/active';
import type { WebhookAttempt, WebhookConfig } from '../generated/prisma/client';

/** A destination as the API returns it; the secret only where the caller asks for it. */
export interface WebhookConfigRecord {
  id: string;
  url: string;
  description: string | null;
  /** Empty means every event type. */
  eventTypes: string[];
  mode: string;
  createdAt: string;
  updatedAt: string;
}

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

/** The create and regenerate-key answers: the record plus the signing secret (contracts 2). */
export function toConfigRecordWithSecret(c: WebhookConfig): WebhookConfigRecord & { secret: string } {
  return { ...toConfigRecord(c), secret: openSecret(c.secret, 'webhook') };
}

/** One delivery of the history (contracts 2). */
export interface DeliveryHistoryEntry {
  eventId: string;
  eventType: string;
  status: string;
  attempts: number;
  createdAt: string;
}

export interface AttemptRecord {
  configId: string;
  attemptNumber: number;
  requestedAt: string;
  responseStatus: number | null;
  durationMs: number;
  error: string | null;
  responseBody: string | null;
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
