import { verifyWebhookSignature } from '../../src/webhooks/signature';
import { LoopbackReceiver, type ReceivedRequest, type ReceiverAnswer } from '../../support/loopbackReceiver';

/** One event as the receiver recorded it. */
export interface ReceivedEvent {
  eventId: string;
  eventType: string;
  /** The business the event is about. */
  merchantExternalId: string;
  pspReference: string | null;
  status: string | null;
  /** `data.refund.id` of a refund event, else null. */
  refundId: string | null;
  /** `data.bill` of a bill event (BILL_PAID, BILL_CANCELLED, BILL_EXPIRED), else null. */
  bill: { id: string; status: string; toReturnAtTill: { method: string; amount: string; reference: string | null }[] } | null;
  /** First arrival (ms since epoch). */
  firstAt: number;
  /** How many times it arrived (duplicates are allowed: a lost 2xx is retried). */
  deliveries: number;
}

/**
 * The merchant's webhook receiver, as docs/webhooks.md tells a merchant to write one: loopback
 * only, verifies the signature over the raw bytes, answers 2xx at once, deduplicates on eventId.
 * It can go down (port closed, connections dropped) and come back on the same port.
 */
export class ChaosReceiver extends LoopbackReceiver {
  /** eventId -> the event, first arrival. */
  readonly events = new Map<string, ReceivedEvent>();
  /** eventIds that arrived with different payments (pspReference) or types: must never happen. */
  readonly conflicts: { eventId: string; first: string; other: string }[] = [];
  badSignatures = 0;
  /** The webhook secrets of the run's businesses (the payments' and the bills'): a delivery must verify under one. */
  secrets: string[] = [];

  protected override answer({ headers, rawBody }: ReceivedRequest): ReceiverAnswer {
    const signature = headers['x-webhook-signature'] as string | undefined;
    if (!this.secrets.some((secret) => verifyWebhookSignature(rawBody, signature, secret))) {
      this.badSignatures += 1;
      return { status: 401, body: 'bad signature' };
    }
    this.record(rawBody);
    return 204;
  }

  private record(raw: Buffer): void {
    let body: {
      eventId?: string;
      eventType?: string;
      merchantExternalId?: string;
      data?: { pspReference?: string; status?: string; refund?: { id?: string }; bill?: ReceivedEvent['bill'] };
    };
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      return;
    }
    const eventId = String(body.eventId ?? '');
    const key = `${body.eventType}:${body.data?.pspReference ?? body.data?.bill?.id ?? ''}`;
    const seen = this.events.get(eventId);
    if (seen) {
      seen.deliveries += 1;
      const seenKey = `${seen.eventType}:${seen.pspReference ?? seen.bill?.id ?? ''}`;
      if (seenKey !== key) this.conflicts.push({ eventId, first: seenKey, other: key });
      return;
    }
    this.events.set(eventId, {
      eventId,
      eventType: String(body.eventType ?? ''),
      merchantExternalId: String(body.merchantExternalId ?? ''),
      pspReference: body.data?.pspReference ?? null,
      status: body.data?.status ?? null,
      refundId: body.data?.refund?.id ?? null,
      bill: body.data?.bill ?? null,
      firstAt: Date.now(),
      deliveries: 1,
    });
  }
}
