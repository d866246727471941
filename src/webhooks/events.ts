import crypto from 'node:crypto';

/** Event types of spec 6 that the in-store lifecycle emits, plus TEST on demand. */
export const PAYMENT_EVENT_TYPES = [
  'PAYMENT_CAPTURED',
  'PAYMENT_AUTHORIZED',
  'PAYMENT_REFUSED',
  'PAYMENT_CANCELLED',
  'PAYMENT_ERROR',
  'PAYMENT_SETTLED',
  // after the sale (contracts 7)
  'PAYMENT_REFUNDED',
  'PAYMENT_REFUND_FAILED',
] as const;
export const EVENT_TYPES = [...PAYMENT_EVENT_TYPES, 'TEST'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The event a payment status emits, if any (AWAITING_TERMINAL and EXPIRED emit none). */
export function eventTypeForStatus(status: string): EventType | undefined {
  switch (status) {
    case 'CAPTURED':
      return 'PAYMENT_CAPTURED';
    case 'AUTHORIZED':
      return 'PAYMENT_AUTHORIZED';
    case 'REFUSED':
      return 'PAYMENT_REFUSED';
    case 'CANCELLED':
      return 'PAYMENT_CANCELLED';
    case 'ERROR':
    case 'FAILED':
      return 'PAYMENT_ERROR';
    case 'SETTLED':
      return 'PAYMENT_SETTLED';
    case 'PARTIALLY_REFUNDED':
    case 'REFUNDED':
      return 'PAYMENT_REFUNDED';
    default:
      return undefined;
  }
}

/** The event of a status history entry: settlement emits PAYMENT_SETTLED whatever status the payment keeps. */
export function eventTypeForEntry(entry: { status: string; actionReference: string }): EventType | undefined {
  return entry.actionReference.startsWith(SETTLE_PREFIX) ? 'PAYMENT_SETTLED' : eventTypeForStatus(entry.status);
}
export const SETTLE_PREFIX = 'SETTLE-';

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
