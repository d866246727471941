/**
 * The webhook records the API returns, as plain types with no imports: the server's serializers
 * (records.ts) produce them and the dashboard (dashboard/src/types.ts) reads them, from this one
 * place.
 */
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

/** One delivery of the history (docs/webhooks.md, "History and attempts"). */
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
