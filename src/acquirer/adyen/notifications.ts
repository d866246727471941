import { hmacValidator } from './library';
import type { NotificationRequestItem } from '@adyen/api-library/lib/src/typings/notification/notificationRequestItem';
import { parseBillRef } from './references';

/**
 * What Adyen posts to an account's notification URL (docs/acquirers.md, "Notifications per
 * account"), read as nudges: which of our payments to re-read, never the outcome itself.
 *  - standard notifications `{ live, notificationItems: [{ NotificationRequestItem }] }`, each item
 *    signed in `additionalData.hmacSignature` with the account's HMAC key;
 *  - Terminal API event notifications `{ SaleToPOIResponse }` (the answer of an /async request),
 *    which the cloud API does not sign: only a nudge, since the re-read is what counts.
 */
export interface AdyenNudge {
  /** Our payment id (merchantReference / SaleTransactionID). */
  paymentId: string;
  /** The event the payment's workflow is signalled with: a void, a refund, or anything else (re-read the bill). */
  event: 'VOID_CONFIRMED' | 'REFUND_SUCCEEDED' | 'REFUND_FAILED' | `ADYEN_${string}`;
  /** A standard item's identity, to drop a replay; none for event notifications. */
  itemKey?: string;
}

export type AdyenNotification = { kind: 'standard'; items: NotificationRequestItem[] } | { kind: 'event'; nudge: AdyenNudge | null };

const isObject = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The body's kind, or null when it is neither of Adyen's shapes. */
export function adyenNotificationOf(body: unknown): AdyenNotification | null {
  if (!isObject(body)) return null;
  if (Array.isArray(body.notificationItems)) {
    const items = body.notificationItems.map((i: unknown) => (isObject(i) ? i.NotificationRequestItem : undefined));
    return items.every(isObject) ? { kind: 'standard', items: items as NotificationRequestItem[] } : null;
  }
  if (isObject(body.SaleToPOIResponse)) return { kind: 'event', nudge: eventNudgeOf(body.SaleToPOIResponse) };
  // The terminal's own events (display, maintenance: `SaleToPOIRequest.EventNotification`) name no payment.
  if (isObject(body.SaleToPOIRequest)) return { kind: 'event', nudge: null };
  return null;
}

/** Every item signed with `hmacKey` (the library's check); an unsigned item is not. */
export function allSigned(items: NotificationRequestItem[], hmacKey: string): boolean {
  const validator = new hmacValidator();
  return items.every((item) => {
    try {
      return validator.validateHMAC(item, hmacKey);
    } catch {
      return false; // no hmacSignature at all
    }
  });
}

const VOIDS = new Set(['CANCEL_OR_REFUND', 'TECHNICAL_CANCEL']);
const REFUNDS = new Set(['REFUND', 'REFUND_FAILED', 'REFUNDED_REVERSED']);

/** A verified standard item as a nudge; null when it names nothing of ours. */
export function itemNudgeOf(item: NotificationRequestItem): AdyenNudge | null {
  const paymentId = ourPaymentId(item.merchantReference);
  if (!paymentId) return null;
  const code = String(item.eventCode);
  const refunded = code === 'REFUND' && String(item.success) === 'true';
  const event = VOIDS.has(code) ? 'VOID_CONFIRMED' : REFUNDS.has(code) ? (refunded ? 'REFUND_SUCCEEDED' : 'REFUND_FAILED') : (`ADYEN_${code}` as const);
  return { paymentId, event, itemKey: [code, item.pspReference, item.success, item.originalReference ?? ''].join(':') };
}

/** An event notification names our payment by its SaleTransactionID (what the adapter sends). */
function eventNudgeOf(response: Record<string, any>): AdyenNudge | null {
  const body = response.PaymentResponse ?? response.ReversalResponse;
  const paymentId = ourPaymentId(body?.SaleData?.SaleTransactionID?.TransactionID);
  return paymentId ? { paymentId, event: 'ADYEN_EVENT' } : null;
}

/** Our payment ids are short and plain; anything else (another sale system's reference) is not ours. */
function ourPaymentId(reference: unknown): string | null {
  if (typeof reference !== 'string' || reference.length === 0 || reference.length > 200) return null;
  return parseBillRef(reference).paymentId;
}
