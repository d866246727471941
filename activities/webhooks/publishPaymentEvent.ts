import { dispatchEvent } from '../../src/webhooks/dispatch';
import { eventTypeForEntry, paymentEventId } from '../../src/webhooks/events';
import { settlementDataOf } from '../../src/settlement/events';
import { paymentEventBody, storedBody } from '../../src/webhooks/payload';
import type { ActivityDeps } from '../index';

export interface PublishPaymentEventInput {
  paymentId: string;
  /** The PaymentHistory sequence of the status event. */
  sequence: number;
}

/**
 * Records the webhook event of one payment status event and hands it to every matching
 * destination (a delivery row and a delivery workflow each). Idempotent end to end: the event id
 * is derived from payment id and sequence, the delivery row is unique per (event, destination),
 * and a delivery workflow is never started twice for the same pair. Returns the event id, or null
 * when this status emits no event.
 */
export function publishPaymentEventActivity(deps: ActivityDeps) {
  return async function publishPaymentEvent(input: PublishPaymentEventInput): Promise<string | null> {
    const entry = await deps.db.paymentHistory.findUnique({
      where: { paymentId_sequence: { paymentId: input.paymentId, sequence: input.sequence } },
      include: { payment: { include: { merchant: true } } },
    });
    if (!entry) throw new Error(`no history entry ${input.sequence} for payment ${input.paymentId}`);
    const eventType = eventTypeForEntry(entry);
    if (!eventType) return null;
    const p = entry.payment;
    const eventId = paymentEventId(p.id, entry.sequence);
    const settlement = eventType === 'PAYMENT_SETTLED' ? await settlementDataOf(deps.db, p.id) : undefined;
    const stored = storedBody(paymentEventBody(eventId, eventType, p.merchant.externalId, p, entry, settlement));
    await deps.db.webhookEvent.upsert({
      where: { id: eventId },
      create: { id: eventId, merchantId: p.merchantId, mode: p.mode, paymentId: p.id, eventType, ...stored },
      update: {},
    });
    await dispatchEvent(deps, { id: eventId, merchantId: p.merchantId, mode: p.mode, eventType });
    return eventId;
  };
}
