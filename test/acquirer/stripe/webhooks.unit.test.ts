import Stripe from 'stripe';
import { nudgeOf, RecentEvents, verifyStripeEvent } from '../../../src/acquirer/stripe/webhooks';
import examples from './stripe-examples.json';

/** Stripe's webhook signature check (the library's) and the nudge each event gives. */
const stripe = new Stripe('sk_test_123');
const SECRET = 'whsec_unit_test_secret';
const eventOf = (type: string, object: unknown) => JSON.stringify({ id: 'evt_1', object: 'event', type, created: 1, livemode: false, data: { object } });
const header = (payload: string, opts: { secret?: string; timestamp?: number } = {}) =>
  stripe.webhooks.generateTestHeaderString({ payload, secret: opts.secret ?? SECRET, ...(opts.timestamp ? { timestamp: opts.timestamp } : {}) });

describe('verifying a Stripe webhook', () => {
  const payload = eventOf('payment_intent.succeeded', { ...examples.objects.payment_intent, status: 'succeeded' });

  it("accepts a payload signed with our secret by the library's test helper", () => {
    expect(verifyStripeEvent(payload, header(payload), SECRET)?.type).toBe('payment_intent.succeeded');
  });

  it('refuses no signature, another secret, another body, and a signature older than five minutes', () => {
    expect(verifyStripeEvent(payload, undefined, SECRET)).toBeNull();
    expect(verifyStripeEvent(payload, header(payload, { secret: 'whsec_other' }), SECRET)).toBeNull();
    expect(verifyStripeEvent(payload.replace('succeeded', 'canceled'), header(payload), SECRET)).toBeNull();
    expect(verifyStripeEvent(payload, header(payload, { timestamp: Math.floor(Date.now() / 1000) - 301 }), SECRET)).toBeNull();
    expect(verifyStripeEvent(payload, 'garbage', SECRET)).toBeNull();
  });

  it('refuses a signature dated more than five minutes ahead, and accepts one within them either way', () => {
    const now = Math.floor(Date.now() / 1000);
    expect(verifyStripeEvent(payload, header(payload, { timestamp: now + 301 }), SECRET)).toBeNull();
    expect(verifyStripeEvent(payload, header(payload, { timestamp: now + 365 * 24 * 3600 }), SECRET)).toBeNull();
    expect(verifyStripeEvent(payload, header(payload, { timestamp: now + 240 }), SECRET)?.type).toBe('payment_intent.succeeded');
    expect(verifyStripeEvent(payload, header(payload, { timestamp: now - 240 }), SECRET)?.type).toBe('payment_intent.succeeded');
    // a tolerance of its own applies both ways
    expect(verifyStripeEvent(payload, header(payload, { timestamp: now + 61 }), SECRET, 60)).toBeNull();
  });
});

describe('the nudge of each event', () => {
  const pi = examples.objects.payment_intent;
  it('a reader action names the reader and its PaymentIntent', () => {
    const reader = {
      ...examples.objects['terminal.reader'],
      action: { type: 'process_payment_intent', status: 'succeeded', process_payment_intent: { payment_intent: 'pi_1' } },
    };
    for (const type of ['terminal.reader.action_succeeded', 'terminal.reader.action_failed']) {
      expect(nudgeOf(JSON.parse(eventOf(type, reader)))).toEqual({ acquirerRef: 'pi_1', deviceId: reader.id, event: type });
    }
    // Stripe's example reader's last action was a refund: no bill of ours.
    expect(nudgeOf(JSON.parse(eventOf('terminal.reader.action_failed', examples.objects['terminal.reader'])))).toBeNull();
  });

  it('payment_intent.* names the PaymentIntent, and the reader from its metadata', () => {
    expect(nudgeOf(JSON.parse(eventOf('payment_intent.amount_capturable_updated', { ...pi, metadata: { isp_device_id: 'tmr_1' } })))).toEqual({
      acquirerRef: pi.id,
      deviceId: 'tmr_1',
      event: 'payment_intent.amount_capturable_updated',
    });
    expect(nudgeOf(JSON.parse(eventOf('payment_intent.canceled', pi)))).toEqual({ acquirerRef: pi.id, event: 'payment_intent.canceled' });
  });

  it('charge.refund.updated names the PaymentIntent and the void it carries', () => {
    const refund = { ...examples.objects.refund, payment_intent: 'pi_9', metadata: { isp_void_reference: 'VOID-PSP-1-1' } };
    expect(nudgeOf(JSON.parse(eventOf('charge.refund.updated', refund)))).toEqual({
      acquirerRef: 'pi_9',
      event: 'charge.refund.updated',
      voidReference: 'VOID-PSP-1-1',
    });
    expect(nudgeOf(JSON.parse(eventOf('charge.refund.updated', examples.objects.refund)))).toBeNull(); // no PaymentIntent
  });

  it('ignores other events and shapes it does not know, without throwing', () => {
    for (const e of [
      { type: 'plan.created', data: { object: {} } },
      {},
      { type: 'payment_intent.succeeded' },
      { type: 'payment_intent.succeeded', data: { object: 'x' } },
      { type: 7, data: { object: {} } },
      null,
    ]) {
      expect(nudgeOf(e as never)).toBeNull();
    }
  });

  it('drops an event id seen before, remembering a bounded number', () => {
    const recent = new RecentEvents(2);
    expect([recent.firstTime('a'), recent.firstTime('a'), recent.firstTime('b'), recent.firstTime('c'), recent.firstTime('a')]).toEqual([
      true,
      false,
      true,
      true,
      true,
    ]);
  });
});
