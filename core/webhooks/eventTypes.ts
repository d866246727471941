/**
 * Which webhook event a payment status emits. Pure (no Node imports): the payment workflow uses it
 * too, to skip the publish step of a status that emits nothing.
 */

/** Event types (docs/webhooks.md, "What a delivery looks like") that the in-store lifecycle emits, plus TEST on demand. */
export const PAYMENT_EVENT_TYPES = [
  'PAYMENT_CAPTURED',
  'PAYMENT_AUTHORIZED',
  'PAYMENT_REFUSED',
  'PAYMENT_CANCELLED',
  'PAYMENT_ERROR',
  'PAYMENT_SETTLED',
  // after the sale (docs/refunds.md)
  'PAYMENT_REFUNDED',
  'PAYMENT_REFUND_FAILED',
] as const;
/** A dispute's events (README, "Disputes"): data as for payment events plus data.dispute. */
export const DISPUTE_WEBHOOK_EVENT_TYPES = ['DISPUTE_OPENED', 'DISPUTE_RESPONSE_DUE', 'DISPUTE_UNDER_REVIEW', 'DISPUTE_CLOSED'] as const;
/** A payout's events (docs/payouts-and-fees.md, "Payouts"): data.payout. */
export const PAYOUT_WEBHOOK_EVENT_TYPES = ['PAYOUT_PAID', 'PAYOUT_FAILED'] as const;
/** Compliance alerts (docs/disputes.md, "Compliance alerts"): data.alert only (no payment). */
export const COMPLIANCE_EVENT_TYPES = ['COMPLIANCE_ALERT_RAISED', 'COMPLIANCE_ALERT_RESOLVED'] as const;
/** A bill's events (docs/bills.md): data.bill only; its tenders keep their own payment events. */
export const BILL_WEBHOOK_EVENT_TYPES = ['BILL_PAID', 'BILL_CANCELLED', 'BILL_EXPIRED'] as const;
/** A receipt email's outcome (docs/receipts.md): data.receipt only. */
export const RECEIPT_WEBHOOK_EVENT_TYPES = ['RECEIPT_SENT', 'RECEIPT_FAILED'] as const;
export const EVENT_TYPES = [
  ...PAYMENT_EVENT_TYPES,
  ...DISPUTE_WEBHOOK_EVENT_TYPES,
  ...PAYOUT_WEBHOOK_EVENT_TYPES,
  ...COMPLIANCE_EVENT_TYPES,
  ...BILL_WEBHOOK_EVENT_TYPES,
  ...RECEIPT_WEBHOOK_EVENT_TYPES,
  'TEST',
] as const;
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
