import type { Prisma } from '../../src/generated/prisma/client';
import { cardSummary, eventTypeForStatus, paymentEventId } from '../../src/webhooks/events';
import type { ActivityDeps } from '../index';

export interface PublishPaymentEventInput {
  paymentId: string;
  /** The PaymentHistory sequence of the status event. */
  sequence: number;
}

/**
 * Records the webhook event of one payment status event (idempotent: the event id is derived from
 * payment id and sequence). Returns the event id, or null when this status emits no event.
 */
export function publishPaymentEventActivity(deps: ActivityDeps) {
  return async function publishPaymentEvent(input: PublishPaymentEventInput): Promise<string | null> {
    const entry = await deps.db.paymentHistory.findUnique({
      where: { paymentId_sequence: { paymentId: input.paymentId, sequence: input.sequence } },
      include: { payment: { include: { merchant: true } } },
    });
    if (!entry) throw new Error(`no history entry ${input.sequence} for payment ${input.paymentId}`);
    const eventType = eventTypeForStatus(entry.status);
    if (!eventType) return null;
    const p = entry.payment;
    const eventId = paymentEventId(p.id, entry.sequence);
    const payload = {
      eventId,
      eventType,
      merchantExternalId: p.merchant.externalId,
      timestamp: entry.occurredAt.toISOString(),
      data: {
        pspReference: p.pspReference,
        merchantReference: p.reference,
        amount: p.amount.toFixed(),
        currency: p.currency,
        status: entry.status,
        cardSummary: cardSummary(p.cardBrand, p.last4),
        cardBrand: p.cardBrand,
        paymentMethod: p.paymentMethod,
      },
    } satisfies Prisma.InputJsonValue;
    await deps.db.webhookEvent.upsert({
      where: { id: eventId },
      create: { id: eventId, merchantId: p.merchantId, paymentId: p.id, eventType, payload },
      update: {},
    });
    return eventId;
  };
}
