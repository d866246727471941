import Stripe from 'stripe';
import type { Merchant } from '../../src/generated/prisma/client';
import { type Admin, adminOf, STRIPE_TEST } from '../acquirerAccounts/helpers';
import examples from '../acquirer/stripe/stripe-examples.json';
import { createPayment, eventually, openShop, type Shop, sleep, storeWithTerminal } from '../payments/helpers';
import { closeBatch, userOf } from '../settlement/helpers';
import { call, expectErrorShape } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';
import { type StripeMock, type StripeRecorder, startStripeMock, startStripeRecorder } from '../support/stripeMock';

/**
 * Stripe's payouts (docs/payouts-and-fees.md, "Stripe's payouts"): a business's Stripe account's `payout.*` events, signed with the
 * account's webhook secret at its notificationPath, start the payout's workflow, which reads the
 * payout and its balance transactions from Stripe (stripe-mock, behind a recorder) and records it
 * once. stripe-mock keeps no state and answers its example payout (11.00 USD, arriving
 * 2009-02-13) and its example balance transaction (a charge of nobody's we know): nothing of ours
 * in it, so the payout is reconciled at once against nothing, a PAYOUT_MISMATCH. Where a test needs
 * Stripe to say more (a paid PaymentIntent of ours, its charge in a close and in the payout), the
 * recorder shows stripe-mock's answers so.
 */
let mock: StripeMock;
let recorder: StripeRecorder;
let stack: TestStack;
let shop: Shop;
let admin: Admin;
let finance: string;
let accountId: string;
let notificationPath: string;
const stripe = new Stripe('sk_test_123');

beforeAll(async () => {
  mock = await startStripeMock();
  recorder = await startStripeRecorder(mock.url);
  stack = await startTestStack({ STRIPE_API_BASE: recorder.url });
  shop = await openShop(stack, { mode: 'test' });
  const merchant: Merchant = await stack.db.merchant.findUniqueOrThrow({ where: { id: shop.merchantId } });
  admin = await adminOf(stack, merchant);
  finance = await userOf(stack, shop, ['FINANCE']);
  const created = await admin.createAccount({
    name: 'Stripe payouts',
    acquirer: 'stripe',
    mode: 'test',
    merchantAccountId: 'acct_1Payouts',
    credentials: STRIPE_TEST,
  });
  expect(created.status).toBe(201);
  ({ id: accountId, notificationPath } = created.body);
}, 900_000);
afterAll(async () => {
  await stack?.stop();
  await recorder?.stop();
  await mock?.stop();
});
afterEach(() => {
  recorder.answer = null;
});

const eventOf = (id: string, type: string, object: object) =>
  JSON.stringify({ id, object: 'event', type, api_version: '2026-08-26.dahlia', created: Math.floor(Date.now() / 1000), livemode: false, data: { object } });
const send = (path: string, payload: string, secret = STRIPE_TEST.webhookSecret) =>
  call(stack.apiUrl, 'POST', path, {
    rawBody: payload,
    headers: { 'Content-Type': 'application/json', 'Stripe-Signature': stripe.webhooks.generateTestHeaderString({ payload, secret }) },
  });
const payoutsOf = async () =>
  (await call(stack.apiUrl, 'GET', `/api/dashboard/payouts?acquirerAccountId=${accountId}`, { token: finance })).body.content as any[];
const paidEvents = (payoutId: string) =>
  stack.db.webhookEvent.count({ where: { eventType: 'PAYOUT_PAID', payload: { path: ['data', 'payout', 'id'], equals: payoutId } } });
/** stripe-mock answers its example payout under any id: shown with the id asked for, in this status. */
const stripeShowsPayouts = (status: string) => {
  recorder.answer = (req, body) => (req.method === 'GET' && req.path.startsWith('/v1/payouts/') ? { ...body, id: req.path.split('/')[3], status } : body);
};

it('a signed payout.paid records the payout for the account as Stripe shows it, once, though the event arrives twice', async () => {
  stripeShowsPayouts('paid');
  const PAYOUT = 'po_1StripePaidTwice';
  const paid = eventOf('evt_payout_paid_1', 'payout.paid', { ...examples.objects.payout, id: PAYOUT, status: 'paid' });
  expect((await send(notificationPath, paid)).status).toBe(200);
  // Stripe delivers again (the same event), and tells of the payout once more (another event).
  expect((await send(notificationPath, paid)).status).toBe(200);
  const updated = eventOf('evt_payout_updated_1', 'payout.updated', { ...examples.objects.payout, id: PAYOUT, status: 'paid' });
  expect((await send(notificationPath, updated)).status).toBe(200);

  const [payout] = await eventually(async () => {
    const list = (await payoutsOf()).filter((p) => p.acquirerPayoutId === PAYOUT);
    return list[0]?.expectedAmount !== null && list[0]?.status === 'PAID' ? list : undefined;
  });
  expect(payout).toMatchObject({
    acquirerAccountId: accountId,
    acquirerPayoutId: PAYOUT,
    status: 'PAID',
    amount: 11,
    currency: 'USD',
    arrivalDate: '2009-02-13',
    // stripe-mock's transaction is a payment not taken through the service: no batch of ours, nothing expected.
    batchIds: [],
    expectedAmount: 0,
    reconciled: false,
    discrepancy: { type: 'PAYOUT_MISMATCH', expectedAmount: 0, amount: 11 },
    failureReason: null,
  });
  // The workflow read Stripe itself: the payout, and its balance transactions with their sources.
  expect(recorder.requests.some((r) => r.method === 'GET' && r.path === `/v1/payouts/${PAYOUT}` && r.authorization === `Bearer ${STRIPE_TEST.apiKey}`)).toBe(
    true,
  );
  expect(recorder.requests.find((r) => r.path === '/v1/balance_transactions' && r.query.payout === PAYOUT)?.query).toMatchObject({
    'expand[0]': 'data.source',
  });
  await eventually(async () => ((await paidEvents(payout.id)) === 1 ? true : undefined));
  await sleep(500);
  expect(await stack.db.payout.count({ where: { acquirerPayoutId: PAYOUT } })).toBe(1);
  expect(await paidEvents(payout.id)).toBe(1);
});

it('a payout that comes before the close of the batch it pays is recorded, waits, and is reconciled with that batch once it is closed', async () => {
  const READER = 'tmr_FDOt2wlRZEdpd7';
  const store = await storeWithTerminal(stack, shop, { mode: 'test' });
  await stack.db.terminal.update({ where: { id: store.terminalId }, data: { deviceId: READER } });
  expect((await admin.saveRoutes({ mode: 'test', rules: [], defaultAccountId: accountId })).status).toBe(200);
  const PAYOUT = 'po_1StripeBeforeClose';
  const now = Math.floor(Date.now() / 1000);
  let payoutStatus = 'in_transit';
  // Stripe (stateless stripe-mock, shown through the recorder): the PaymentIntent paid on the reader; the
  // charge's balance transaction (12.00, fee 0.30) both in the close's period and in the payout, which
  // pays exactly its net.
  const charge = (pi: string, paymentId: string) => ({
    ...examples.objects.charge,
    payment_intent: pi,
    metadata: { isp_payment_id: paymentId, isp_device_id: READER },
    payment_method_details: { type: 'card_present', card_present: { reader: READER, brand: 'visa', last4: '4242' } },
  });
  let paymentId = '';
  let acquirerRef = '';
  recorder.answer = (req, body) => {
    if (req.method === 'GET' && req.path.startsWith('/v1/payment_intents/'))
      return { ...body, status: 'succeeded', amount: 1200, amount_received: 1200, currency: 'eur', created: now, latest_charge: null };
    if (req.method === 'GET' && req.path === `/v1/payouts/${PAYOUT}`) return { ...body, id: PAYOUT, status: payoutStatus, amount: 1170, currency: 'eur' };
    if (req.method === 'GET' && req.path === '/v1/balance_transactions') {
      return {
        ...body,
        has_more: false,
        data: [{ ...body.data[0], type: 'charge', amount: 1200, fee: 30, net: 1170, currency: 'eur', created: now, source: charge(acquirerRef, paymentId) }],
      };
    }
    return body;
  };
  const created = await createPayment(stack, store, { amount: 12 });
  expect(created.status).toBe(201);
  paymentId = created.body.id;
  acquirerRef = (await stack.db.payment.findUniqueOrThrow({ where: { id: paymentId } })).acquirerRef!;
  // Stripe tells of the payment: the payment's workflow re-reads it, paid.
  const succeeded = eventOf('evt_pi_succeeded_2', 'payment_intent.succeeded', {
    id: acquirerRef,
    object: 'payment_intent',
    metadata: { isp_device_id: READER },
  });
  expect((await send(notificationPath, succeeded)).status).toBe(200);
  await eventually(() => stack.db.payment.findFirst({ where: { id: paymentId, status: 'CAPTURED' } }).then((p) => p ?? undefined));

  // Stripe tells of the payout before the store's batch is closed: recorded, not yet reconciled.
  const createdEvent = eventOf('evt_payout_created_2', 'payout.created', { ...examples.objects.payout, id: PAYOUT });
  expect((await send(notificationPath, createdEvent)).status).toBe(200);
  const [waiting] = await eventually(async () => {
    const list = (await payoutsOf()).filter((p) => p.acquirerPayoutId === PAYOUT);
    return list.length === 1 ? list : undefined;
  });
  expect(waiting).toMatchObject({
    status: 'IN_TRANSIT',
    amount: 11.7,
    currency: 'EUR',
    batchIds: [],
    expectedAmount: null,
    reconciled: false,
    discrepancy: null,
  });

  const closed = await closeBatch(stack, finance, store.storeExternalId);
  expect(closed.status).toBe(201);
  expect(closed.body.totals[0]).toMatchObject({ currency: 'EUR', grossAmount: 12, feeAmount: 0.3, netAmount: 11.7 });
  // The bank credits it; Stripe says so.
  payoutStatus = 'paid';
  const paid = eventOf('evt_payout_paid_2', 'payout.paid', { ...examples.objects.payout, id: PAYOUT, status: 'paid' });
  expect((await send(notificationPath, paid)).status).toBe(200);
  const [payout] = await eventually(async () => {
    const list = (await payoutsOf()).filter((p) => p.acquirerPayoutId === PAYOUT);
    return list[0]?.status === 'PAID' && list[0]?.expectedAmount !== null ? list : undefined;
  }, 30_000);
  expect(payout).toMatchObject({ id: waiting.id, batchIds: [closed.body.id], expectedAmount: 11.7, amount: 11.7, reconciled: true, discrepancy: null });
  await eventually(async () => ((await paidEvents(payout.id)) === 1 ? true : undefined));
  expect(await stack.db.payout.count({ where: { acquirerPayoutId: PAYOUT } })).toBe(1);
});

it("a failed payout shows Stripe's words", async () => {
  const PAYOUT = 'po_1StripeFailed';
  recorder.answer = (req, body) =>
    req.method === 'GET' && req.path === `/v1/payouts/${PAYOUT}`
      ? { ...body, id: PAYOUT, status: 'failed', failure_code: 'account_closed', failure_message: 'The bank account has been closed.' }
      : body;
  const failed = eventOf('evt_payout_failed_1', 'payout.failed', { ...examples.objects.payout, id: PAYOUT, status: 'failed' });
  expect((await send(notificationPath, failed)).status).toBe(200);
  const [payout] = await eventually(async () => {
    const list = (await payoutsOf()).filter((p) => p.acquirerPayoutId === PAYOUT);
    return list[0]?.status === 'FAILED' ? list : undefined;
  });
  expect(payout.failureReason).toBe('The bank account has been closed. (account_closed)');
});

it('a payout Stripe shows paid and then failed (the bank returned it): FAILED with its words, PAYOUT_PAID then PAYOUT_FAILED, once each', async () => {
  const PAYOUT = 'po_1StripePaidThenFailed';
  stripeShowsPayouts('paid');
  expect((await send(notificationPath, eventOf('evt_ptf_paid', 'payout.paid', { ...examples.objects.payout, id: PAYOUT, status: 'paid' }))).status).toBe(200);
  const [paid] = await eventually(async () => {
    const list = (await payoutsOf()).filter((p) => p.acquirerPayoutId === PAYOUT);
    return list[0]?.status === 'PAID' ? list : undefined;
  });
  await eventually(async () => ((await paidEvents(paid.id)) === 1 ? true : undefined));

  // Days later Stripe says failed: the workflow still hears it.
  recorder.answer = (req, body) =>
    req.method === 'GET' && req.path === `/v1/payouts/${PAYOUT}`
      ? { ...body, id: PAYOUT, status: 'failed', failure_code: 'could_not_process', failure_message: 'The bank could not process this payout.' }
      : body;
  const failedEvent = eventOf('evt_ptf_failed', 'payout.failed', { ...examples.objects.payout, id: PAYOUT, status: 'failed' });
  expect((await send(notificationPath, failedEvent)).status).toBe(200);
  const [failed] = await eventually(async () => {
    const list = (await payoutsOf()).filter((p) => p.acquirerPayoutId === PAYOUT);
    return list[0]?.status === 'FAILED' ? list : undefined;
  });
  expect(failed.failureReason).toBe('The bank could not process this payout. (could_not_process)');
  const failedEvents = () =>
    stack.db.webhookEvent.findMany({ where: { eventType: 'PAYOUT_FAILED', payload: { path: ['data', 'payout', 'id'], equals: paid.id } } });
  const [announced] = await eventually(async () => {
    const rows = await failedEvents();
    return rows.length ? rows : undefined;
  });
  expect((announced.payload as any).data.payout).toMatchObject({
    status: 'FAILED',
    failureReason: 'The bank could not process this payout. (could_not_process)',
  });
  // Told again: nothing changes, no second event; the workflow has ended.
  expect((await send(notificationPath, failedEvent)).status).toBe(200);
  await sleep(500);
  expect(await failedEvents()).toHaveLength(1);
  expect(await paidEvents(paid.id)).toBe(1);
  expect((await stack.client.workflow.getHandle(`payout-${paid.id}`).describe()).status.name).toBe('COMPLETED');
});

it('a forged signature is refused and records nothing; an account that is not ours is refused', async () => {
  stripeShowsPayouts('paid');
  const PAYOUT = 'po_1StripeForged';
  const forged = eventOf('evt_payout_forged', 'payout.paid', { ...examples.objects.payout, id: PAYOUT });
  expectErrorShape(await send(notificationPath, forged, 'whsec_not_the_accounts'), 401);
  expect((await call(stack.apiUrl, 'POST', '/internal/acquirer/acct-unknown/notifications', { rawBody: forged })).status).toBe(404);
  await sleep(1000);
  expect(await stack.db.payout.count({ where: { acquirerPayoutId: PAYOUT } })).toBe(0);
  expect(recorder.requests.some((r) => r.path === `/v1/payouts/${PAYOUT}`)).toBe(false);
});
