import crypto from 'node:crypto';
import type { Prisma } from '../generated/prisma/client';
import type { Payment, PaymentHistory } from '../generated/prisma/client';
import { amountText } from '../money/amountText';
import { cardSummary, type EventType } from './events';

/**
 * The event body (docs/webhooks.md, "What a delivery looks like"), built once when the event is recorded: WebhookEvent.body keeps its
 * exact bytes, which every attempt signs and sends unchanged; WebhookEvent.payload keeps the same
 * object as JSON for reading. The data fields, in the documented order (docs/webhooks.md), with
 * requestedAmount after amount (issue 42: the amount asked; equal to amount unless a card approved
 * less), then tipAmount and totalAmount (docs/tips.md): amounts are decimal strings, never JSON numbers; cardSummary is masked
 * (brand and last four digits only).
 */
export const EVENT_DATA_FIELDS = ['pspReference', 'merchantReference', 'amount', 'currency', 'status', 'cardSummary', 'cardBrand', 'paymentMethod'] as const;

/** A refund in the data of PAYMENT_REFUNDED and PAYMENT_REFUND_FAILED (docs/refunds.md, "Rules"); amount a decimal string. */
export interface EventRefund {
  id: string;
  amount: string;
  status: string;
  reason: string | null;
}

export type WebhookEventData = Record<(typeof EVENT_DATA_FIELDS)[number], string | null> & {
  /** The amount asked (a payment's events since issue 42; absent in events recorded before). */
  requestedAmount?: string;
  /** The tip and amount + tip, what the card was charged (docs/tips.md; absent in events recorded before tips). */
  tipAmount?: string;
  totalAmount?: string;
  /** The payment's history sequence: receivers order a payment's events by it (absent only on TEST). */
  sequence?: number;
  refund?: EventRefund;
  dispute?: EventDispute;
  payout?: EventPayout;
  /** `data.bill` of BILL_PAID, BILL_CANCELLED and BILL_EXPIRED (docs/bills.md); amounts decimal strings. */
  bill?: Record<string, unknown>;
  /** `data.receipt` of RECEIPT_SENT and RECEIPT_FAILED (docs/receipts.md): the address masked. */
  receipt?: { paymentId: string; to: string | null; event: string };
};

/** `data.payout` of PAYOUT_PAID and PAYOUT_FAILED (docs/payouts-and-fees.md, "Payouts"); amounts decimal strings. */
export interface EventPayout {
  id: string;
  acquirerAccountId: string | null;
  acquirerPayoutId: string;
  status: string;
  amount: string;
  currency: string;
  arrivalDate: string;
  expectedAmount: string | null;
  reconciled: boolean;
  failureReason: string | null;
}

/** `data.dispute` of the DISPUTE_* events (README, "Disputes"); amount a decimal string. */
export interface EventDispute {
  id: string;
  status: string;
  reason: string;
  amount: string;
  currency: string;
  dueBy: string;
}

export interface WebhookEventBody {
  eventId: string;
  eventType: EventType;
  merchantExternalId: string;
  timestamp: string;
  data: WebhookEventData & { settlement?: SettlementData };
}

/** `data.settlement` of PAYMENT_SETTLED (docs/settlement.md, "Reconciliation"): the batch, its business date, this payment's fee and net (decimal strings). */
export type SettlementData = { batchId: string; date: string; feeAmount: string; netAmount: string };
const SETTLEMENT_FIELDS = ['batchId', 'date', 'feeAmount', 'netAmount'] as const;

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/**
 * The exact bytes sent, in the documented order whatever order `body` has (a JSONB payload does
 * not keep key order): used once when an event is recorded, and for events recorded before
 * WebhookEvent.body existed (migration 0011).
 */
export function serializeEventBody(body: unknown): Buffer {
  const p = (body ?? {}) as Record<string, unknown>;
  const d = (p.data ?? {}) as Record<string, unknown>;
  // A compliance alert's, a payout's or a bill's event is about no one payment: its data is the alert (the payout, the bill) alone.
  const head = { eventId: text(p.eventId), eventType: text(p.eventType), merchantExternalId: text(p.merchantExternalId), timestamp: text(p.timestamp) };
  if (d.alert && typeof d.alert === 'object') return Buffer.from(JSON.stringify({ ...head, data: { alert: d.alert } }), 'utf8');
  if (d.payout && typeof d.payout === 'object') return Buffer.from(JSON.stringify({ ...head, data: { payout: d.payout } }), 'utf8');
  if (d.bill && typeof d.bill === 'object') return Buffer.from(JSON.stringify({ ...head, data: { bill: d.bill } }), 'utf8');
  if (d.receipt && typeof d.receipt === 'object') return Buffer.from(JSON.stringify({ ...head, data: { receipt: d.receipt } }), 'utf8');
  const ordered = {
    eventId: text(p.eventId),
    eventType: text(p.eventType),
    merchantExternalId: text(p.merchantExternalId),
    timestamp: text(p.timestamp),
    data: {
      // requestedAmount right after amount, in the events that carry it (recorded since issue 42).
      ...Object.fromEntries(
        EVENT_DATA_FIELDS.flatMap((field): [string, string | null][] =>
          field === 'amount' && typeof d.requestedAmount === 'string'
            ? [
                [field, text(d[field])],
                ['requestedAmount', d.requestedAmount],
                // The tip and what the card was charged (docs/tips.md), in the events recorded since tips.
                ...(typeof d.tipAmount === 'string' ? [['tipAmount', d.tipAmount] as [string, string]] : []),
                ...(typeof d.totalAmount === 'string' ? [['totalAmount', d.totalAmount] as [string, string]] : []),
              ]
            : [[field, text(d[field])]],
        ),
      ),
      ...(d.settlement && typeof d.settlement === 'object'
        ? { settlement: Object.fromEntries(SETTLEMENT_FIELDS.map((f) => [f, text((d.settlement as Record<string, unknown>)[f])])) }
        : {}),
      // After them: the payment's history sequence, then a refund event's refund.
      ...(typeof d.sequence === 'number' ? { sequence: d.sequence } : {}),
      ...(d.refund && typeof d.refund === 'object' ? { refund: d.refund } : {}),
      ...(d.dispute && typeof d.dispute === 'object' ? { dispute: d.dispute } : {}),
    },
  };
  return Buffer.from(JSON.stringify(ordered), 'utf8');
}

/** The columns of a new WebhookEvent row that carry its body: the JSON to read, the bytes to send. */
export function storedBody(body: WebhookEventBody): { payload: Prisma.InputJsonValue; body: string } {
  return { payload: body as unknown as Prisma.InputJsonValue, body: serializeEventBody(body).toString('utf8') };
}

/** The bytes an attempt sends: the stored ones; rebuilt only for an event older than migration 0011. */
export function bodyToSend(event: { body: string | null; payload: unknown }): Buffer {
  return event.body === null ? serializeEventBody(event.payload) : Buffer.from(event.body, 'utf8');
}

/** The payment's fields a payment event is built from (and stored by). */
export type EventPayment = Pick<
  Payment,
  | 'id'
  | 'merchantId'
  | 'mode'
  | 'pspReference'
  | 'reference'
  | 'amount'
  | 'requestedAmount'
  | 'tipAmount'
  | 'currency'
  | 'cardBrand'
  | 'last4'
  | 'paymentMethod'
>;

/** The tip fields of a payment's events (docs/tips.md): decimal strings like amount. */
function tipFields(payment: Pick<Payment, 'amount' | 'tipAmount' | 'currency'>): { tipAmount: string; totalAmount: string } {
  return {
    tipAmount: amountText(payment.tipAmount, payment.currency),
    totalAmount: amountText(payment.amount.plus(payment.tipAmount), payment.currency),
  };
}

/** What every event carries around its data. */
function envelope(eventId: string, eventType: EventType, merchantExternalId: string, at: Date, data: WebhookEventData): WebhookEventBody {
  return { eventId, eventType, merchantExternalId, timestamp: at.toISOString(), data };
}

/** The payment's fields of every event about a payment, with the status it announces. */
function paymentFields(payment: EventPayment, status: Payment['status']) {
  return {
    pspReference: payment.pspReference,
    merchantReference: payment.reference,
    // Decimal string with the currency's minor-unit digits: "12.50" EUR, "1200" JPY.
    amount: amountText(payment.amount, payment.currency),
    requestedAmount: amountText(payment.requestedAmount ?? payment.amount, payment.currency),
    ...tipFields(payment),
    currency: payment.currency,
    status,
    cardSummary: cardSummary(payment.cardBrand, payment.last4),
    cardBrand: payment.cardBrand,
    paymentMethod: payment.paymentMethod,
  };
}

/** The body of a payment status event. */
export function paymentEventBody(
  eventId: string,
  eventType: EventType,
  merchantExternalId: string,
  payment: EventPayment,
  entry: Pick<PaymentHistory, 'status' | 'occurredAt'> & { sequence: number },
  settlement?: SettlementData,
  refund?: EventRefund,
): WebhookEventBody {
  return {
    eventId,
    eventType,
    merchantExternalId,
    timestamp: entry.occurredAt.toISOString(),
    data: {
      ...paymentFields(payment, entry.status),
      ...(settlement ? { settlement } : {}),
      sequence: entry.sequence,
      ...(refund ? { refund } : {}),
    },
  };
}

/**
 * The body of a dispute event (README, "Disputes"): the payment's data as in its events (its status
 * now), no history sequence (the event is not one of the payment's status events), plus
 * `data.dispute`.
 */
export function disputeEventBody(
  eventId: string,
  eventType: EventType,
  merchantExternalId: string,
  payment: Payment,
  at: Date,
  dispute: EventDispute,
): WebhookEventBody {
  return envelope(eventId, eventType, merchantExternalId, at, { ...paymentFields(payment, payment.status), dispute });
}

/** The payment fields of an event about no payment (a payout, a bill, a receipt): null in the stored object; not sent (serializeEventBody). */
const NO_PAYMENT = Object.fromEntries(EVENT_DATA_FIELDS.map((f) => [f, null])) as Record<(typeof EVENT_DATA_FIELDS)[number], null>;

/** A payout's event: about no payment, so what is sent is `data.payout` alone (serializeEventBody); the payment fields stay null in the stored object. */
export function payoutEventBody(eventId: string, eventType: EventType, merchantExternalId: string, at: Date, payout: EventPayout): WebhookEventBody {
  return envelope(eventId, eventType, merchantExternalId, at, { ...NO_PAYMENT, payout });
}

/** A bill's event (docs/bills.md): data.bill alone (sent as `data: { bill }`, like a payout's). */
export function billEventBody(eventId: string, eventType: EventType, merchantExternalId: string, at: Date, bill: Record<string, unknown>): WebhookEventBody {
  return envelope(eventId, eventType, merchantExternalId, at, { ...NO_PAYMENT, bill });
}

/** A receipt's event: about one email, so what is sent is `data.receipt` alone (serializeEventBody). */
export function receiptEventBody(
  eventId: string,
  eventType: EventType,
  merchantExternalId: string,
  at: Date,
  receipt: NonNullable<WebhookEventData['receipt']>,
): WebhookEventBody {
  return envelope(eventId, eventType, merchantExternalId, at, { ...NO_PAYMENT, receipt });
}

/** A fresh id for a TEST event (payment events derive theirs from the status event instead). */
export function newTestEventId(): string {
  return `evt_${crypto.randomBytes(16).toString('hex')}`;
}

/**
 * The body of a TEST event: the shape of a payment event with sample data, clearly marked by its
 * type and the TEST references, so a receiver can exercise its whole path.
 */
export function testEventBody(eventId: string, merchantExternalId: string, at: Date): WebhookEventBody {
  return {
    eventId,
    eventType: 'TEST',
    merchantExternalId,
    timestamp: at.toISOString(),
    data: {
      pspReference: 'TEST',
      merchantReference: 'TEST',
      amount: '1.00',
      currency: 'EUR',
      status: 'CAPTURED',
      cardSummary: 'VISA **** 4242',
      cardBrand: 'VISA',
      paymentMethod: 'CARD',
    },
  };
}
