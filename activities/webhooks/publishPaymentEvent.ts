import { amountText } from '../../src/money/amountText';
import { publishEvent } from '../../src/webhooks/publish';
import { merchantExternalIdOf } from '../../src/db/merchantExternalIds';
import { type EventType, eventTypeForEntry, paymentEventId, refundFailedEventId } from '../../src/webhooks/events';
import { settlementDataOf } from '../../src/settlement/events';
import { type EventPayment, type EventRefund, paymentEventBody } from '../../src/webhooks/payload';
import type { Db } from '../../src/db/client';
import type { PaymentHistory } from '../../src/generated/prisma/client';
import { receiptEventOf, startEventReceipt } from '../../src/receipts/workflowStart';
import type { ActivityDeps } from '../deps';

type EntryWithPayment = Pick<PaymentHistory, 'status' | 'previousStatus' | 'occurredAt' | 'sequence' | 'actionReference'> & {
  payment: EventPayment;
  /** Whether the payment has a customerEmail (its receipts are emailed; the address itself is not read here). */
  emailed: boolean;
};

/** The history entry and the payment fields its event carries, in one statement (a join). */
async function entryWithPayment(db: Db, paymentId: string, sequence: number): Promise<EntryWithPayment | undefined> {
  const [row] = await db.$queryRaw<(Omit<EntryWithPayment, 'payment'> & EventPayment)[]>`
    SELECT h."status", h."previousStatus", h."occurredAt", h."sequence", h."actionReference", p."customerEmail" IS NOT NULL AS "emailed",
      p."id", p."merchantId", p."mode", p."pspReference", p."reference", p."amount", p."requestedAmount", p."tipAmount", p."currency", p."cardBrand", p."last4", p."paymentMethod"
    FROM "PaymentHistory" h JOIN "Payment" p ON p."id" = h."paymentId"
    WHERE h."paymentId" = ${paymentId} AND h."sequence" = ${sequence}`;
  if (!row) return undefined;
  const { status, previousStatus, occurredAt, sequence: entrySequence, actionReference, emailed, ...payment } = row;
  return { status, previousStatus, occurredAt, sequence: entrySequence, actionReference, emailed, payment };
}

export interface PublishPaymentEventInput {
  paymentId: string;
  /** The PaymentHistory sequence of the status event (a failed refund: the payment's current one). */
  sequence: number;
  /** The refund this event is about (data.refund). */
  refundId?: string;
  /** A failed refund: PAYMENT_REFUND_FAILED, with no status event of its own. */
  refundFailed?: boolean;
}

/**
 * Records the webhook event of one payment status event (or of a failed refund) and hands it to
 * every matching destination (a delivery row and a delivery workflow each). Idempotent end to
 * end: the event id is derived from payment id and sequence (a failed refund: from the refund
 * id), the delivery row is unique per (event, destination), and a delivery workflow is never
 * started twice for the same pair. Returns the event id, or null when this status emits no event.
 */
export function publishPaymentEventActivity(deps: ActivityDeps) {
  return async function publishPaymentEvent(input: PublishPaymentEventInput): Promise<string | null> {
    const entry = await entryWithPayment(deps.db, input.paymentId, input.sequence);
    if (!entry) throw new Error(`no history entry ${input.sequence} for payment ${input.paymentId}`);
    const eventType: EventType | undefined = input.refundFailed ? 'PAYMENT_REFUND_FAILED' : eventTypeForEntry(entry);
    if (!eventType) return null;
    const p = entry.payment;
    const settlement = eventType === 'PAYMENT_SETTLED' ? await settlementDataOf(deps.db, p.id) : undefined;
    const refund = input.refundId ? await deps.db.refund.findUniqueOrThrow({ where: { id: input.refundId } }) : null;
    const eventRefund: EventRefund | undefined = refund
      ? {
          id: refund.id,
          amount: amountText(refund.amount, refund.currency),
          status: refund.status,
          reason: refund.reason,
        }
      : undefined;
    const eventId = input.refundFailed && refund ? refundFailedEventId(refund.id) : paymentEventId(p.id, entry.sequence);
    // A failed refund leaves the payment as it is: its event is dated by the refund's decision.
    const at = input.refundFailed && refund?.decidedAt ? { ...entry, occurredAt: refund.decidedAt } : entry;
    const merchantExternalId = await merchantExternalIdOf(deps.db, p.merchantId);
    const body = paymentEventBody(eventId, eventType, merchantExternalId, p, at, settlement, eventRefund);
    const published = await publishEvent(deps, { id: eventId, merchantId: p.merchantId, mode: p.mode, paymentId: p.id, eventType, body });
    // The customer's receipt email of this event (docs/receipts.md): its own workflow, started once per (payment, event).
    const receiptEvent = entry.emailed && !input.refundFailed ? receiptEventOf(eventType, entry) : undefined;
    if (receiptEvent) await startEventReceipt(deps, p.id, receiptEvent, receiptEvent === 'REFUNDED' ? (input.refundId ?? `seq${entry.sequence}`) : undefined);
    return published;
  };
}
