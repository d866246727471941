import { verifyWebhookSignature } from '../../src/webhooks/signature';
import { LoopbackReceiver, type ReceivedRequest, type ReceiverAnswer } from '../../support/loopbackReceiver';

/** One event as the receiver recorded it. */
export interface ReceivedEvent {
  eventId: string;
  eventType: string;
  pspReference: string | null;
  status: string | null;
  /** `data.refund.id` of a refund event, else null. */
  refundId: string | null;
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
  secret = '';

  protected override answer({ headers, rawBody }: ReceivedRequest): ReceiverAnswer {
    if (!verifyWebhookSignature(rawBody, headers['x-webhook-signature'] as string | undefined, this.secret)) {
      this.badSignatures += 1;
      return { status: 401, body: 'bad signature' };
    }
    this.record(rawBody);
    return 204;
  }

  private record(raw: Buffer): void {
    let body: { eventId?: string; eventType?: string; data?: { pspReference?: string; status?: string; refund?: { id?: string } } };
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      return;
    }
    const eventId = String(body.eventId ?? '');
    const key = `${body.eventType}:${body.data?.pspReference ?? ''}`;
    const seen = this.events.get(eventId);
    if (seen) {
      seen.deliveries += 1;
      const seenKey = `${seen.eventType}:${seen.pspReference ?? ''}`;
      if (seenKey !== key) this.conflicts.push({ eventId, first: seenKey, other: key });
      return;
    }
    this.events.set(eventId, {
      eventId,
      eventType: String(body.eventType ?? ''),
      pspReference: body.data?.pspReference ?? null,
      status: body.data?.status ?? null,
      refundId: body.data?.refund?.id ?? null,
      firstAt: Date.now(),
      deliveries: 1,
    });
  }
}
