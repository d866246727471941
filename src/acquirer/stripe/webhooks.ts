import Stripe from 'stripe';
import { META } from './mapping';
import { signedInTheFuture } from './signatureTime';

/**
 * Stripe's webhooks, as nudges: which bill (PaymentIntent) an event is about, never what happened to
 * it. The payment's workflow re-reads Stripe and applies what Stripe says, exactly as with the
 * sandbox's notifications, so a forged, replayed or out-of-order event changes nothing.
 */
export const STRIPE_SIGNATURE_HEADER = 'stripe-signature';

export interface StripeNudge {
  acquirerRef: string; // the PaymentIntent
  deviceId?: string; // the reader, when the event names it
  event: string;
  voidReference?: string;
}

/**
 * The library's signature check (HMAC-SHA256 over timestamp and raw body, refused when older than
 * the tolerance, 5 minutes) and ours for the other side (refused when dated more than the
 * tolerance ahead, ./signatureTime.ts); null when either fails.
 */
export function verifyStripeEvent(rawBody: string | Buffer, signature: string | undefined, secret: string, toleranceSeconds = 300): Stripe.Event | null {
  if (!signature) return null;
  try {
    const event = Stripe.webhooks.constructEvent(rawBody, signature, secret, toleranceSeconds);
    return signedInTheFuture(signature, toleranceSeconds) ? null : event;
  } catch {
    return null;
  }
}

const idOf = (v: string | { id: string } | null | undefined): string | undefined => {
  const id = typeof v === 'string' ? v : v?.id;
  return typeof id === 'string' && id.length > 0 && id.length <= 255 ? id : undefined;
};
const textOf = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 && v.length <= 255 ? v : undefined);

/** The bill an event is about, or null for events that move no bill of ours. */
export function nudgeOf(event: Pick<Stripe.Event, 'type' | 'data'>): StripeNudge | null {
  // Signed by Stripe, yet read defensively: a shape we do not know is ignored, never a crash.
  const type = event?.type as unknown;
  const object = event?.data?.object as unknown;
  if (typeof type !== 'string' || !object || typeof object !== 'object') return null;
  if (type === 'terminal.reader.action_succeeded' || type === 'terminal.reader.action_failed') {
    const reader = object as Stripe.Terminal.Reader;
    const acquirerRef = idOf(reader.action?.process_payment_intent?.payment_intent);
    const deviceId = textOf(reader.id);
    return acquirerRef && deviceId ? { acquirerRef, deviceId, event: type } : null;
  }
  if (type.startsWith('payment_intent.')) {
    const pi = object as Stripe.PaymentIntent;
    const acquirerRef = idOf(pi.id);
    if (pi.object !== 'payment_intent' || !acquirerRef) return null;
    const deviceId = textOf(pi.metadata?.[META.deviceId]);
    return { acquirerRef, ...(deviceId ? { deviceId } : {}), event: type };
  }
  if (type === 'charge.refund.updated') {
    const refund = object as Stripe.Refund;
    const acquirerRef = idOf(refund.payment_intent);
    if (!acquirerRef) return null;
    const voidReference = textOf(refund.metadata?.[META.voidReference]);
    return { acquirerRef, event: type, ...(voidReference ? { voidReference } : {}) };
  }
  return null;
}

/** The `charge.dispute.*` events (docs/disputes.md, "Stripe"): each names the dispute and its PaymentIntent. */
export const STRIPE_DISPUTE_EVENTS: readonly string[] = [
  'charge.dispute.created',
  'charge.dispute.updated',
  'charge.dispute.closed',
  'charge.dispute.funds_withdrawn',
  'charge.dispute.funds_reinstated',
];

export interface StripeDisputeNudge {
  acquirerRef: string; // the disputed PaymentIntent
  disputeId: string; // dp_...
}

/** The dispute a `charge.dispute.*` event is about, or null (another event, or no PaymentIntent: not a bill of ours). Only a nudge: the service reads the dispute back. */
export function disputeNudgeOf(event: Pick<Stripe.Event, 'type' | 'data'>): StripeDisputeNudge | null {
  const type = event?.type as unknown;
  const object = event?.data?.object as unknown;
  if (typeof type !== 'string' || !STRIPE_DISPUTE_EVENTS.includes(type) || !object || typeof object !== 'object') return null;
  const dispute = object as Stripe.Dispute;
  const disputeId = idOf(dispute.id);
  const acquirerRef = idOf(dispute.payment_intent);
  return dispute.object === 'dispute' && disputeId && acquirerRef ? { acquirerRef, disputeId } : null;
}

/** Event ids seen lately: a replay within the signature's tolerance is dropped before it reaches a workflow. */
export class RecentEvents {
  private readonly seen = new Set<string>();
  constructor(private readonly capacity = 10_000) {}

  /** True the first time an id is offered. */
  firstTime(id: string): boolean {
    if (this.seen.has(id)) return false;
    this.seen.add(id);
    if (this.seen.size > this.capacity) this.seen.delete(this.seen.values().next().value as string);
    return true;
  }
}

/** The `payout.*` events (docs/payouts-and-fees.md, "Stripe's payouts"): each names a payout of the account's balance. */
export const STRIPE_PAYOUT_EVENTS: readonly string[] = ['payout.created', 'payout.updated', 'payout.paid', 'payout.failed', 'payout.canceled'];

/** The payout a `payout.*` event is about, or null. Only a nudge: the service reads the payout back. */
export function payoutNudgeOf(event: Pick<Stripe.Event, 'type' | 'data'>): { payoutId: string } | null {
  const type = event?.type as unknown;
  const object = event?.data?.object as unknown;
  if (typeof type !== 'string' || !STRIPE_PAYOUT_EVENTS.includes(type) || !object || typeof object !== 'object') return null;
  const payout = object as Stripe.Payout;
  const payoutId = idOf(payout.id);
  return payout.object === 'payout' && payoutId ? { payoutId } : null;
}
