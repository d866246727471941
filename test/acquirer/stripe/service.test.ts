import Stripe from 'stripe';
import { call, expectErrorShape } from '../../support/http';
import { startTestStack, type TestStack } from '../../support/stack';
import { type StripeMock, type StripeRecorder, startStripeMock, startStripeRecorder } from '../../support/stripeMock';
import { createPayment, eventually, openShop, type Shop, sim, sleep, workflowHandle } from '../../payments/helpers';
import { closeBatch, userOf } from '../../settlement/helpers';
import { answer, writeStatement } from '../../disputes/helpers';
import examples from './stripe-examples.json';

/**
 * The service with ACQUIRER=stripe against stripe-mock: live payments reach Stripe, test payments
 * keep the sandbox; Stripe's webhooks are verified with the library's signature check and are
 * only nudges (a forged, stale or replayed one changes nothing).
 */
const SECRET = 'whsec_test_secret_for_the_stripe_tests';
const PATH = '/internal/acquirer/stripe/webhooks';
let mock: StripeMock;
let recorder: StripeRecorder;
let stack: TestStack;
const stripe = new Stripe('sk_test_123');

beforeAll(async () => {
  mock = await startStripeMock();
  // Stripe's requests pass through a recorder to stripe-mock: what the service asked Stripe for is seen.
  recorder = await startStripeRecorder(mock.url);
  stack = await startTestStack({ ACQUIRER: 'stripe', STRIPE_API_KEY: 'sk_test_123', STRIPE_WEBHOOK_SECRET: SECRET, STRIPE_API_BASE: recorder.url });
}, 900_000);
afterAll(async () => {
  await stack?.stop();
  await recorder?.stop();
  await mock?.stop();
});
const READER = 'tmr_FDOt2wlRZEdpd7';
const seconds = (d: Date) => String(Math.floor(d.getTime() / 1000));
/** The PaymentIntent the service created for a payment (its metadata names the payment). */
const createdIntent = (paymentId: string) =>
  recorder.requests.find((r) => r.method === 'POST' && r.path === '/v1/payment_intents' && r.body['metadata[isp_payment_id]'] === paymentId);
const balanceListings = () => recorder.requests.filter((r) => r.method === 'GET' && r.path === '/v1/balance_transactions');

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

async function liveShop(opts: { twoStep?: boolean } = {}): Promise<Shop> {
  const shop = await openShop(stack, { mode: 'live', ...opts });
  await stack.db.terminal.update({ where: { id: shop.terminalId }, data: { deviceId: READER } });
  return { ...shop, deviceId: READER };
}

async function livePayment(shop?: Shop) {
  const created = await createPayment(stack, shop ?? (await liveShop()));
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

  it("a payout event on the installation's path is ignored: the installation's Stripe balance is not one business's", async () => {
    const payload = eventOf('evt_payout_installation', 'payout.paid', { ...examples.objects.payout, id: 'po_1Installation', status: 'paid' });
    expect((await send(payload, signed(payload))).status).toBe(200);
    await sleep(500);
    expect(await stack.db.payout.count({ where: { acquirerPayoutId: 'po_1Installation' } })).toBe(0);
    expect(recorder.requests.some((r) => r.path === '/v1/payouts/po_1Installation')).toBe(false);
  });

  it("a two-step terminal's payment is a manual-capture PaymentIntent; a one-step terminal's automatic (the terminal decides, not the reader)", async () => {
    const twoStep = await livePayment(await liveShop({ twoStep: true }));
    const oneStep = await livePayment(await liveShop({ twoStep: false }));
    expect(createdIntent(twoStep.id)?.body.capture_method).toBe('manual');
    expect(createdIntent(oneStep.id)?.body.capture_method).toBe('automatic');
  });

  it("a close asks Stripe for exactly what settled since the reader's previous close", async () => {
    const shop = await liveShop();
    const linkedAt = (await stack.db.terminal.findUniqueOrThrow({ where: { id: shop.terminalId } })).linkedAt!;
    const finance = await userOf(stack, shop, ['FINANCE']);
    const before = balanceListings().length;
    // Stripe's example transaction names no reader: both closes find nothing of this store's (409), and are recorded.
    expect((await closeBatch(stack, finance, shop.storeExternalId)).status).toBe(409);
    expect((await closeBatch(stack, finance, shop.storeExternalId)).status).toBe(409);
    const [first, second] = await stack.db.settlementBatch.findMany({ where: { storeId: shop.storeId }, orderBy: { until: 'asc' } });
    expect(
      balanceListings()
        .slice(before)
        .map((r) => r.query),
    ).toEqual([
      // The reader's first close: since it was linked.
      expect.objectContaining({ 'created[gt]': seconds(linkedAt), 'created[lte]': seconds(first!.until) }),
      // The next: since the previous close, no earlier.
      expect.objectContaining({ 'created[gt]': seconds(first!.until), 'created[lte]': seconds(second!.until) }),
    ]);
  });

  it("a test store's devices without payments are settled from the sandbox (the store's mode), never from Stripe", async () => {
    const shop = await openShop(stack, { mode: 'test' });
    const offline = await call(stack.sandboxUrl, 'POST', `/sim/devices/${shop.deviceId}/offline-payments`, {
      body: { amount: 30, currency: 'EUR', last4: '1111' },
    });
    expect(offline.status).toBe(201);
    const finance = await userOf(stack, shop, ['FINANCE']);
    const before = balanceListings().length;
    const closed = await closeBatch(stack, finance, shop.storeExternalId);
    expect(closed.status).toBe(201);
    expect(closed.body.discrepancies).toEqual([
      expect.objectContaining({ type: 'NOT_IN_PLATFORM', acquirerRef: offline.body.acquirerRef, reportedAmount: 30 }),
    ]);
    expect(balanceListings().length).toBe(before);
  });

  it('a signed charge.dispute.created opens the dispute of a live Stripe payment; a forged one, or a second event, opens nothing more; submit and the decision go through Stripe', async () => {
    // stripe-mock names every PaymentIntent alike: the dispute is found by its own id, not the payment's.
    const row = await livePayment();
    const DISPUTE = `dp_${row.id.replace(/-/g, '').slice(0, 20)}`;
    const dueBy = Math.floor(Date.now() / 1000) + 7 * 24 * 3600;
    // stripe-mock keeps no state: its dispute is shown as this payment's, in the status each step needs.
    let status = 'needs_response';
    let submissions = 0;
    recorder.answer = (req, body) =>
      req.path.startsWith(`/v1/disputes/${DISPUTE}`)
        ? {
            ...body,
            id: DISPUTE,
            payment_intent: row.acquirerRef,
            amount: 1234,
            currency: 'eur',
            reason: 'fraudulent',
            status,
            evidence_details: { ...body.evidence_details, due_by: dueBy, submission_count: submissions },
          }
        : body;
    try {
      const object = { ...examples.objects.dispute, id: DISPUTE, payment_intent: row.acquirerRef };
      const created = eventOf(`evt_dispute_${row.id}`, 'charge.dispute.created', object);
      // Forged: nothing read, nothing opened.
      expectErrorShape(await send(created, signed(created, { secret: 'whsec_not_ours' })), 401);
      await sleep(300);
      expect(await stack.db.dispute.count({ where: { acquirerDisputeId: DISPUTE } })).toBe(0);

      expect((await send(created, signed(created))).status).toBe(200);
      const dispute = await eventually(() =>
        stack.db.dispute.findFirst({ where: { acquirerDisputeId: DISPUTE, status: 'NEEDS_RESPONSE' } }).then((d) => d ?? undefined),
      );
      expect(dispute).toMatchObject({ acquirerDisputeId: DISPUTE, reason: 'FRAUD', currency: 'EUR', dueBy: new Date(dueBy * 1000) });
      expect(dispute.amount.toString()).toBe('12.34');
      expect(recorder.requests.some((r) => r.method === 'GET' && r.path === `/v1/disputes/${DISPUTE}`)).toBe(true);

      // Stripe's next event about it meets the same dispute.
      const updated = eventOf(`evt_dispute_upd_${row.id}`, 'charge.dispute.updated', object);
      expect((await send(updated, signed(updated))).status).toBe(200);
      await sleep(300);
      expect(await stack.db.dispute.count({ where: { acquirerDisputeId: DISPUTE } })).toBe(1);

      // The merchant answers: the evidence reaches Stripe with submit=true.
      const token = await userOf(stack, { merchantId: dispute.merchantId } as Shop, ['COMPLIANCE']);
      expect((await writeStatement(stack, token, dispute.id, { text: 'The card was present and signed.' })).status).toBe(200);
      const submitted = await answer(stack, token, dispute.id, 'submit');
      expect(submitted.status).toBe(200);
      expect(submitted.body.status).toBe('UNDER_REVIEW');
      const posted = recorder.requests.find((r) => r.method === 'POST' && r.path === `/v1/disputes/${DISPUTE}`);
      expect(posted?.body).toMatchObject({ submit: 'true', 'evidence[uncategorized_text]': 'The card was present and signed.' });

      // Stripe decides and says so: the event nudges the workflow, which reads WON.
      status = 'won';
      submissions = 1;
      const closed = eventOf(`evt_dispute_closed_${row.id}`, 'charge.dispute.closed', { ...object, status: 'won' });
      expect((await send(closed, signed(closed))).status).toBe(200);
      await eventually(() => stack.db.dispute.findFirst({ where: { id: dispute.id, status: 'WON' } }).then((d) => d ?? undefined));
    } finally {
      recorder.answer = null;
    }
  });
});
