import Stripe from 'stripe';
import { call, expectErrorShape } from '../../support/http';
import { startTestStack, type TestStack } from '../../support/stack';
import { type StripeMock, startStripeMock } from '../../support/stripeMock';
import { createPayment, eventually, openShop, sim, sleep, workflowHandle } from '../../payments/helpers';

/**
 * The service with ACQUIRER=stripe against stripe-mock: live payments reach Stripe, test payments
 * keep the sandbox; Stripe's webhooks are verified with the library's signature check and are
 * only nudges (a forged, stale or replayed one changes nothing).
 */
const SECRET = 'whsec_test_secret_for_the_stripe_tests';
const PATH = '/internal/acquirer/stripe/webhooks';
let mock: StripeMock;
let stack: TestStack;
const stripe = new Stripe('sk_test_123');

beforeAll(async () => {
  mock = await startStripeMock();
  stack = await startTestStack({ ACQUIRER: 'stripe', STRIPE_API_KEY: 'sk_test_123', STRIPE_WEBHOOK_SECRET: SECRET, STRIPE_API_BASE: mock.url });
}, 900_000);
afterAll(async () => {
  await stack?.stop();
  await mock?.stop();
});

const send = (payload: string, signature?: string) =>
  call(stack.apiUrl, 'POST', PATH, {
    rawBody: payload,
    headers: { 'Content-Type': 'application/json', ...(signature ? { 'Stripe-Signature': signature } : {}) },
  });
const signed = (payload: string, opts: { secret?: string; timestamp?: number } = {}) =>
  stripe.webhooks.generateTestHeaderString({ payload, secret: opts.secret ?? SECRET, ...(opts.timestamp ? { timestamp: opts.timestamp } : {}) });
const eventOf = (id: string, type: string, object: object) =>
  JSON.stringify({ id, object: 'event', type, api_version: '2026-08-26.dahlia', created: Math.floor(Date.now() / 1000), livemode: false, data: { object } });
const signals = async (paymentId: string) =>
  (await workflowHandle(stack, paymentId).fetchHistory()).events!.filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'acquirerNotified')
    .length;

async function livePayment() {
  const shop = await openShop(stack, { mode: 'live' });
  await stack.db.terminal.update({ where: { id: shop.terminalId }, data: { deviceId: 'tmr_FDOt2wlRZEdpd7' } });
  const created = await createPayment(stack, shop);
  expect(created.status).toBe(201);
  return stack.db.payment.findUniqueOrThrow({ where: { id: created.body.id } });
}

describe('ACQUIRER=stripe', () => {
  it('a live payment goes to Stripe: a PaymentIntent processed on the reader', async () => {
    const row = await livePayment();
    expect(row).toMatchObject({ acquirerName: 'stripe', deviceId: 'tmr_FDOt2wlRZEdpd7', acquirerRef: expect.stringMatching(/^pi_/) });
  });

  it('a test payment keeps the sandbox', async () => {
    const shop = await openShop(stack, { mode: 'test' });
    const created = await createPayment(stack, shop);
    expect(created.body.status).toBe('AWAITING_TERMINAL');
    expect((await stack.db.payment.findUniqueOrThrow({ where: { id: created.body.id } })).acquirerName).toBe('sandbox');
    expect((await sim(stack).device(shop.deviceId)).body.currentBill).toMatchObject({ status: 'WAITING' });
  });

  it('a signed webhook nudges the payment to re-read Stripe; forged, stale and replayed ones change nothing', async () => {
    const row = await livePayment();
    const before = await signals(row.id);
    const payload = eventOf('evt_nudge_1', 'payment_intent.succeeded', {
      id: row.acquirerRef,
      object: 'payment_intent',
      metadata: { isp_device_id: row.deviceId },
    });

    expectErrorShape(await send(payload), 401);
    expectErrorShape(await send(payload, signed(payload, { secret: 'whsec_not_ours' })), 401);
    expectErrorShape(await send(payload.replace('evt_nudge_1', 'evt_nudge_2'), signed(payload)), 401); // signed over another body
    expectErrorShape(await send(payload, signed(payload, { timestamp: Math.floor(Date.now() / 1000) - 3600 })), 401); // an old capture replayed
    await sleep(300);
    expect(await signals(row.id)).toBe(before);

    expect((await send(payload, signed(payload))).status).toBe(200);
    await eventually(async () => ((await signals(row.id)) === before + 1 ? true : undefined));
    // The same event again (Stripe retries, or someone replays it within the tolerance): dropped.
    expect((await send(payload, signed(payload))).status).toBe(200);
    await sleep(300);
    expect(await signals(row.id)).toBe(before + 1);
  });

  it('an event about nothing of ours, or a malformed one, is accepted and ignored', async () => {
    for (const payload of [
      eventOf('evt_other', 'payment_intent.succeeded', { id: 'pi_unknown', object: 'payment_intent', metadata: {} }),
      eventOf('evt_plan', 'plan.created', { id: 'price_1' }),
      '{"id":"evt_x"}',
    ]) {
      expect((await send(payload, signed(payload))).status).toBe(200);
    }
  });
});
