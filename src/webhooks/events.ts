import crypto from 'node:crypto';

export { EVENT_TYPES, type EventType, eventTypeForEntry, eventTypeForStatus, PAYMENT_EVENT_TYPES, SETTLE_PREFIX } from '../../core/webhooks/eventTypes';

/**
 * The event id of a payment status event: derived from the payment id and the history sequence,
 * so a retried activity, a replayed workflow or a racing sync never mints a second event.
 */
export function paymentEventId(paymentId: string, sequence: number): string {
  const digest = crypto.createHash('sha256').update(`${paymentId}:${sequence}`).digest('hex');
  return `evt_${digest.slice(0, 32)}`;
}

/** The event id of a failed refund (no status event of its own): derived from the refund id. */
export function refundFailedEventId(refundId: string): string {
  const digest = crypto.createHash('sha256').update(`refund-failed:${refundId}`).digest('hex');
  return `evt_${digest.slice(0, 32)}`;
}

/** Masked card summary for webhook data: brand and last four digits only, never a full number. */
export function cardSummary(cardBrand: string | null, last4: string | null): string | null {
  if (!last4) return null;
  return `${cardBrand ?? 'CARD'} **** ${last4}`;
}
