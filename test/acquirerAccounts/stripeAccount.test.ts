import type { Merchant } from '../../src/generated/prisma/client';
import Stripe from 'stripe';
import { addTerminal, createPayment, eventually, openShop, type Shop } from '../payments/helpers';
import { call, expectErrorShape } from '../support/http';
import examples from '../acquirer/stripe/stripe-examples.json';
import { startTestStack, type TestStack } from '../support/stack';
import { type StripeMock, type StripeRecorder, startStripeMock, startStripeRecorder } from '../support/stripeMock';
import { adminOf, type Admin, STRIPE_LIVE, STRIPE_TEST } from './helpers';

/**
 * A business's own Stripe account (docs/acquirers.md): the installation runs the sandbox only, yet a
 * live payment routed to the account reaches Stripe (stripe-mock, behind a recorder) with the
 * account's own key; a reader the account's Stripe does not know is a 409 naming the terminal and
 * the account, and nothing is written.
 */
let mock: StripeMock;
let recorder: StripeRecorder;
let stack: TestStack;
let shop: Shop;
let merchant: Merchant;
let admin: Admin;
let accountId: string;
const READER = 'tmr_FDOt2wlRZEdpd7';

beforeAll(async () => {
  mock = await startStripeMock();
  recorder = await startStripeRecorder(mock.url);
  stack = await startTestStack({ STRIPE_API_BASE: recorder.url });
  shop = await openShop(stack, { mode: 'test' });
  await stack.db.terminal.update({ where: { id: shop.terminalId }, data: { deviceId: READER } });
  shop = { ...shop, deviceId: READER };
  merchant = await stack.db.merchant.findUniqueOrThrow({ where: { id: shop.merchantId } });
  admin = await adminOf(stack, merchant);
  const created = await admin.createAccount({
    name: 'Stripe test',
    acquirer: 'stripe',
    mode: 'test',
    merchantAccountId: 'acct_1TestShop',
    credentials: STRIPE_TEST,
  });
  accountId = created.body.id;
  expect((await admin.saveRoutes({ mode: 'test', rules: [], defaultAccountId: accountId })).status).toBe(200);
}, 900_000);
afterAll(async () => {
  await stack?.stop();
  await recorder?.stop();
  await mock?.stop();
});

afterEach(() => {
  recorder.answer = null;
});

it("a payment routed to the account reaches Stripe with the account's key, not the installation's", async () => {
  const created = await createPayment(stack, shop, { amount: 12 });
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({ acquirerAccountId: accountId, acquirerName: 'stripe', routeRule: 'default' });
  const intent = recorder.requests.find(
    (r) => r.method === 'POST' && r.path === '/v1/payment_intents' && r.body['metadata[isp_payment_id]'] === created.body.id,
  );
  expect(intent?.authorization).toBe(`Bearer ${STRIPE_TEST.apiKey}`);
  // Every Stripe call of this payment used the account's key.
  expect(recorder.requests.filter((r) => r.authorization !== `Bearer ${STRIPE_TEST.apiKey}`)).toEqual([]);
});

it('a reader unknown to the chosen account: 409 naming the terminal and the account, nothing written', async () => {
  recorder.answer = (req, body) =>
    req.method === 'GET' && req.path === `/v1/terminal/readers/${READER}` ? { id: READER, object: 'terminal.reader', deleted: true } : body;
  const before = await stack.db.payment.count({ where: { merchantId: shop.merchantId } });
  const res = await createPayment(stack, shop, { amount: 3 });
  const message = expectErrorShape(res, 409);
  expect(message).toContain(`terminal ${shop.terminalExternalId}`);
  expect(message).toContain(`acquirer account Stripe test (${accountId})`);
  expect(await stack.db.payment.count({ where: { merchantId: shop.merchantId } })).toBe(before);
});

it('credentials the acquirer refuses: 409 naming the account, never our own 401, and the key is not in the answer', async () => {
  const live = await openShop(stack, { mode: 'live' });
  await stack.db.terminal.update({ where: { id: live.terminalId }, data: { deviceId: READER } });
  const liveAdmin = await adminOf(stack, await stack.db.merchant.findUniqueOrThrow({ where: { id: live.merchantId } }));
  // stripe-mock takes test keys only: a live key is refused as Stripe refuses a revoked one.
  const id = (
    await liveAdmin.createAccount({ name: 'Revoked', acquirer: 'stripe', mode: 'live', merchantAccountId: 'acct_1Revoked', credentials: STRIPE_LIVE })
  ).body.id;
  await liveAdmin.saveRoutes({ mode: 'live', rules: [], defaultAccountId: id });
  const res = await createPayment(stack, { ...live, deviceId: READER }, { amount: 3 });
  expect(expectErrorShape(res, 409)).toMatch(new RegExp(`acquirer account Revoked \\(${id}\\).* was refused by its acquirer \\(401`));
  expect(JSON.stringify(res.body)).not.toContain(STRIPE_LIVE.apiKey);
  expect(await stack.db.payment.count({ where: { merchantId: live.merchantId } })).toBe(0);
});

it("a charge.dispute.created at the account's own path, signed with its webhookSecret, opens the dispute of its payment (Stripe read with the account's key)", async () => {
  // A reader of its own: the first test's bill may still hold READER.
  const till = await addTerminal(stack, shop);
  await stack.db.terminal.update({ where: { id: till.terminalId }, data: { deviceId: 'tmr_DisputeReader1' } });
  const created = await createPayment(stack, { ...till, deviceId: 'tmr_DisputeReader1' }, { amount: 21 });
  expect(created.status).toBe(201);
  const row = await eventually(() => stack.db.payment.findFirst({ where: { id: created.body.id, acquirerRef: { not: null } } }).then((p) => p ?? undefined));
  const DISPUTE = `dp_acct${row.id.replace(/-/g, '').slice(0, 16)}`;
  recorder.answer = (req, body) =>
    req.path === `/v1/disputes/${DISPUTE}`
      ? {
          ...body,
          id: DISPUTE,
          payment_intent: row.acquirerRef,
          amount: 2100,
          currency: 'eur',
          status: 'needs_response',
          reason: 'product_not_received',
          evidence_details: { ...body.evidence_details, due_by: Math.floor(Date.now() / 1000) + 86_400 },
        }
      : body;
  const payload = JSON.stringify({
    id: `evt_acct_dispute_${row.id}`,
    object: 'event',
    type: 'charge.dispute.created',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: { object: { ...examples.objects.dispute, id: DISPUTE, payment_intent: row.acquirerRef } },
  });
  const signature = new Stripe('sk_test_123').webhooks.generateTestHeaderString({ payload, secret: STRIPE_TEST.webhookSecret });
  const res = await call(stack.apiUrl, 'POST', `/internal/acquirer/${accountId}/notifications`, {
    rawBody: payload,
    headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature },
  });
  expect(res.status).toBe(200);
  const dispute = await eventually(() => stack.db.dispute.findFirst({ where: { acquirerDisputeId: DISPUTE } }).then((d) => d ?? undefined));
  expect(dispute).toMatchObject({ acquirerAccountId: accountId, status: 'NEEDS_RESPONSE', reason: 'NOT_RECEIVED' });
  // stripe-mock names every PaymentIntent alike: the dispute is of a payment of this account with that PaymentIntent.
  expect((await stack.db.payment.findUniqueOrThrow({ where: { id: dispute.paymentId } })).acquirerRef).toBe(row.acquirerRef);
  const read = recorder.requests.find((r) => r.method === 'GET' && r.path === `/v1/disputes/${DISPUTE}`);
  expect(read?.authorization).toBe(`Bearer ${STRIPE_TEST.apiKey}`);
});
