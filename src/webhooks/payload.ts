import crypto from 'node:crypto';
import type { EventType } from './events';

/** The event body of spec 6, as stored in WebhookEvent.payload and sent to every destination. */
export interface WebhookEventBody {
  eventId: string;
  eventType: EventType;
  merchantExternalId: string;
  timestamp: string;
  data: {
    pspReference: string | null;
    merchantReference: string | null;
    /** Decimal string, never a JSON number (contracts 2). */
    amount: string | null;
    currency: string | null;
    status: string | null;
    /** Masked: brand and last four digits only. */
    cardSummary: string | null;
    cardBrand: string | null;
    paymentMethod: string | null;
  };
}

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/**
 * The exact bytes sent. The stored payload is JSONB, which does not keep key order, so the body is
 * rebuilt here in the order spec 6 lists the fields; the signature is computed over these bytes.
 */
export function serializeEventBody(stored: unknown): Buffer {
  const p = (stored ?? {}) as Record<string, unknown>;
  const d = (p.data ?? {}) as Record<string, unknown>;
  const body = {
    eventId: text(p.eventId),
    eventType: text(p.eventType),
    merchantExternalId: text(p.merchantExternalId),
    timestamp: text(p.timestamp),
    data: {
      pspReference: text(d.pspReference),
      merchantReference: text(d.merchantReference),
      amount: text(d.amount),
      currency: text(d.currency),
      status: text(d.status),
      cardSummary: text(d.cardSummary),
      cardBrand: text(d.cardBrand),
      paymentMethod: text(d.paymentMethod),
    },
  };
  return Buffer.from(JSON.stringify(body), 'utf8');
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
