/**
 * The receipt email workflow's messages (docs/receipts.md, "Emails"): one workflow per (payment,
 * event), its id derived from both, so a second start for the same event is refused and a
 * customer never gets the same receipt twice. Pure: shared by the service, the activities and the
 * workflow.
 */
export const RECEIPT_WORKFLOW_TYPE = 'receiptWorkflow';

/** What a receipt email announces: the sale, a refund, a void; REQUESTED a copy sent from the dashboard. */
export const RECEIPT_EVENTS = ['CAPTURED', 'REFUNDED', 'VOIDED', 'REQUESTED'] as const;
export type ReceiptEvent = (typeof RECEIPT_EVENTS)[number];

export interface ReceiptRetry {
  /** The longest wait between attempts (RECEIPT_RETRY_MAX_INTERVAL_SECONDS). */
  maximumIntervalMs: number;
  /** After this, the receipt is RECEIPT_FAILED (RECEIPT_RETRY_MAX_AGE_HOURS). */
  maxAgeMs: number;
  /** One attempt's limit (RECEIPT_ATTEMPT_TIMEOUT_SECONDS): an attempt lost with its worker is retried after it. */
  attemptTimeoutMs: number;
}

export interface ReceiptWorkflowInput {
  /** The receipt's own id: the workflow id's tail and the email's Message-ID. */
  receiptId: string;
  paymentId: string;
  event: ReceiptEvent;
  /** The refund a REFUNDED receipt is about. */
  refundId?: string;
  /**
   * REQUESTED only: the address typed in the dashboard. The others are sent to the payment's
   * customerEmail, read when sending, so the address stays out of the workflow's history.
   */
  to?: string;
  retry: ReceiptRetry;
}

export type ReceiptWorkflowResult = 'SENT' | 'FAILED' | 'NO_ADDRESS';

/** The id of the receipt of one event: the payment and the event (a refund: the refund, as each refund has its own). */
export function receiptIdOf(paymentId: string, event: Exclude<ReceiptEvent, 'REQUESTED'>, refundKey?: string): string {
  return event === 'REFUNDED' ? `${paymentId}-refund-${refundKey ?? 'payment'}` : `${paymentId}-${event.toLowerCase()}`;
}

/** The inverse of receiptIdOf: the payment (a uuid, 36 characters) and the rest (`captured`, `voided`, `refund-<key>`, `requested-<id>`). */
export function receiptPartsOf(receiptId: string): { paymentId: string; event: string } {
  return { paymentId: receiptId.slice(0, 36), event: receiptId.slice(37) };
}

/** The failure of a receipt that can never be sent (the payment has none): not retried, RECEIPT_FAILED at once. */
export const RECEIPT_NOT_SENDABLE = 'ReceiptNotSendable';

export const receiptWorkflowId = (receiptId: string): string => `receipt-${receiptId}`;

/** What a receipt event announces (RECEIPT_SENT, RECEIPT_FAILED). */
export interface ReceiptEventInput {
  receiptId: string;
  paymentId: string;
  event: ReceiptEvent;
  outcome: 'SENT' | 'FAILED';
  /** REQUESTED only: the address typed in the dashboard (masked in the event). */
  to?: string;
}
