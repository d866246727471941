import crypto from 'node:crypto';
import { hmacValidator } from '../../src/acquirer/adyen/library';
import Stripe from 'stripe';
import { signSandboxBody } from '../../src/acquirer/sandbox/notify';
import type { Payment } from '../../src/generated/prisma/client';
import { addTerminal, createPayment, eventually, insertPaymentRow, openShop, type Shop, sleep, workflowHandle } from '../payments/helpers';
import { call, expectErrorShape } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';
import { type StripeMock, startStripeMock } from '../support/stripeMock';
import { adminOf, type Admin, sandboxAccount, STRIPE_TEST } from './helpers';

/**
 * Notifications per account (docs/acquirers.md): each account's notificationPath takes its acquirer's
 * notifications verified with that account's secret, and nudges only that account's payments.
 * Another secret (the installation's, another account's), none, or a forged one: 401 and nothing
 * changes. Unknown accounts: 404. An inactive or removed account still receives them.
 */
const INSTALLATION_SECRET = 'whsec_installationSecretOfTheTests';
const OTHER_STRIPE = { apiKey: 'sk_test_51OtherBusinessKeyAbCdEf', webhookSecret: 'whsec_otherBusinessAccountSecret9' };
const READER = 'tmr_FDOt2wlRZEdpd7'; // the reader stripe-mock knows

let mock: StripeMock;
let stack: TestStack;
let shop: Shop;
let otherShop: Shop;
let admin: Admin;
let otherAdmin: Admin;
const stripe = new Stripe('sk_test_123');

beforeAll(async () => {
  mock = await startStripeMock();
  stack = await startTestStack({ STRIPE_API_BASE: mock.url, STRIPE_WEBHOOK_SECRET: INSTALLATION_SECRET });
  shop = await openShop(stack, { mode: 'test' });
  admin = await adminOf(stack, await stack.db.merchant.findUniqueOrThrow({ where: { id: shop.merchantId } }));
  otherShop = await openShop(stack, { mode: 'test' });
  otherAdmin = await adminOf(stack, await stack.db.merchant.findUniqueOrThrow({ where: { id: otherShop.merchantId } }));
}, 900_000);
afterAll(async () => {
  await stack?.stop();
  await mock?.stop();
});

const pathOf = (accountId: string) => `/internal/acquirer/${accountId}/notifications`;
const post = (path: string, rawBody: string, headers: Record<string, string> = {}) =>
  call(stack.apiUrl, 'POST', path, { rawBody, headers: { 'Content-Type': 'application/json', ...headers } });
const nudges = (paymentId: string) => stack.db.paymentNudge.count({ where: { paymentId } });
const rowOf = (id: string) => stack.db.payment.findUniqueOrThrow({ where: { id } });

async function created(body: Record<string, unknown>, by: Admin = admin): Promise<string> {
  const res = await by.createAccount(body);
  if (res.status !== 201) throw new Error(`account not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

describe('a stripe account', () => {
  const stripeSigned = (payload: string, secret: string) => ({ 'Stripe-Signature': stripe.webhooks.generateTestHeaderString({ payload, secret }) });
  const eventAbout = (payment: Payment) =>
    JSON.stringify({
      id: `evt_${crypto.randomUUID().replace(/-/g, '')}`,
      object: 'event',
      type: 'payment_intent.succeeded',
      api_version: '2026-08-26.dahlia',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      data: { object: { id: payment.acquirerRef, object: 'payment_intent', metadata: { isp_device_id: payment.deviceId } } },
    });
  const signals = async (paymentId: string) =>
    (await workflowHandle(stack, paymentId).fetchHistory()).events!.filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'acquirerNotified')
      .length;

  let account: string;
  let otherAccount: string;
  let payment: Payment;

  beforeAll(async () => {
    account = await created({ name: 'Stripe test', acquirer: 'stripe', mode: 'test', merchantAccountId: 'MID-STRIPE-1', credentials: STRIPE_TEST });
    otherAccount = await created(
      { name: 'Other Stripe', acquirer: 'stripe', mode: 'test', merchantAccountId: 'MID-OTHER', credentials: OTHER_STRIPE },
      otherAdmin,
    );
    expect((await admin.saveRoutes({ mode: 'test', rules: [], defaultAccountId: account })).status).toBe(200);
    await stack.db.terminal.update({ where: { id: shop.terminalId }, data: { deviceId: READER } });
    const res = await createPayment(stack, { ...shop, deviceId: READER });
    expect(res.status).toBe(201);
    payment = await rowOf(res.body.id);
    expect(payment).toMatchObject({ acquirerAccountId: account, acquirerName: 'stripe', acquirerRef: expect.stringMatching(/^pi_/) });
  });

  it('refuses the event signed with the installation secret, another account secret, or none: 401, and nothing changes', async () => {
    const before = await signals(payment.id);
    const rowBefore = await rowOf(payment.id);
    const payload = eventAbout(payment);
    expectErrorShape(await post(pathOf(account), payload), 401);
    expectErrorShape(await post(pathOf(account), payload, stripeSigned(payload, INSTALLATION_SECRET)), 401);
    expectErrorShape(await post(pathOf(account), payload, stripeSigned(payload, OTHER_STRIPE.webhookSecret)), 401);
    expectErrorShape(await post(pathOf(account), payload.replace('succeeded', 'canceled'), stripeSigned(payload, STRIPE_TEST.webhookSecret)), 401);
    await sleep(300);
    expect(await signals(payment.id)).toBe(before);
    expect(await rowOf(payment.id)).toEqual(rowBefore);
    expect(await nudges(payment.id)).toBe(0);
  });

  it("another path's genuine event never nudges this account's payment: not another account's, not the installation's", async () => {
    const before = await signals(payment.id);
    const viaOther = eventAbout(payment);
    expect((await post(pathOf(otherAccount), viaOther, stripeSigned(viaOther, OTHER_STRIPE.webhookSecret))).status).toBe(200);
    const viaInstallation = eventAbout(payment);
    expect((await post('/internal/acquirer/stripe/webhooks', viaInstallation, stripeSigned(viaInstallation, INSTALLATION_SECRET))).status).toBe(200);
    await sleep(500);
    expect(await signals(payment.id)).toBe(before);
  });

  it("accepts the event signed with the account's own webhookSecret (200) and nudges its payment", async () => {
    const before = await signals(payment.id);
    const payload = eventAbout(payment);
    const res = await post(pathOf(account), payload, stripeSigned(payload, STRIPE_TEST.webhookSecret));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true });
    await eventually(async () => ((await signals(payment.id)) === before + 1 ? true : undefined));
  });
});

describe('a sandbox account', () => {
  const sandboxSigned = (body: string, secret = stack.config.SANDBOX_NOTIFY_SECRET!) => ({ 'X-Sandbox-Signature': signSandboxBody(body, secret) });
  const about = (p: Payment) => JSON.stringify({ deviceId: p.deviceId, acquirerRef: p.acquirerRef, event: 'CAPTURED' });
  /** An open payment row of the account (null: the installation default) on a till of its own, with a bill the sandbox never saw: any re-read is news. */
  const openPayment = async (accountId: string | null, of: Shop = shop) =>
    insertPaymentRow(stack, await addTerminal(stack, of), {
      mode: 'test',
      status: 'AWAITING_TERMINAL',
      acquirerRef: `sbx_${crypto.randomUUID()}`,
      acquirerAccountId: accountId,
    });

  let account: string;
  beforeAll(async () => {
    account = await sandboxAccount(admin, 'test', 'MID-SANDBOX-1');
  });

  it('refuses a forged or missing signature: 401, and nothing changes', async () => {
    const payment = await openPayment(account);
    const body = about(payment);
    expectErrorShape(await post(pathOf(account), body), 401);
    expectErrorShape(await post(pathOf(account), body, sandboxSigned(body, 'not-the-installation-secret')), 401);
    expectErrorShape(await post(pathOf(account), body.replace('CAPTURED', 'DECLINED'), sandboxSigned(body)), 401);
    await sleep(300);
    expect(await nudges(payment.id)).toBe(0);
    expect(await rowOf(payment.id)).toEqual(payment);
  });

  it('accepts a notification signed by the sandbox (202) and nudges the payment of the account', async () => {
    const payment = await openPayment(account);
    const body = about(payment);
    const res = await post(pathOf(account), body, sandboxSigned(body));
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ accepted: true });
    expect(await nudges(payment.id)).toBe(1);
  });

  it("never nudges another account's payment, another business's, or the installation default's", async () => {
    const otherBusinessAccount = await sandboxAccount(otherAdmin, 'test', 'MID-SANDBOX-OTHER');
    const sameBusinessAccount = await sandboxAccount(admin, 'test', 'MID-SANDBOX-2');
    const others = [await openPayment(sameBusinessAccount), await openPayment(otherBusinessAccount, otherShop), await openPayment(null)];
    for (const p of others) {
      const body = about(p);
      expect((await post(pathOf(account), body, sandboxSigned(body))).status).toBe(202);
    }
    for (const p of others) expect(await nudges(p.id)).toBe(0);
  });

  it('an inactive account still receives them: its open payments must finish', async () => {
    const inactive = await sandboxAccount(admin, 'test', 'MID-SANDBOX-3');
    const payment = await openPayment(inactive);
    expect((await admin.updateAccount(inactive, { status: 'INACTIVE' })).status).toBe(200);
    const body = about(payment);
    expect((await post(pathOf(inactive), body, sandboxSigned(body))).status).toBe(202);
    expect(await nudges(payment.id)).toBe(1);
  });
});

describe('accounts without a notification path', () => {
  const body = JSON.stringify({ deviceId: 'd', acquirerRef: 'r', event: 'CAPTURED' });
  const signed = () => ({ 'X-Sandbox-Signature': signSandboxBody(body, stack.config.SANDBOX_NOTIFY_SECRET!) });

  it('an unknown account -> 404 in the error shape', async () => {
    expect(expectErrorShape(await post(pathOf('acct_doesNotExist0000000'), body, signed()), 404)).toMatch(/acquirer account not found/);
  });

  it("a removed account still receives (its payments' refunds may still be decided); forged is still 401", async () => {
    const removed = await sandboxAccount(admin, 'test', 'MID-REMOVED');
    expect((await admin.deleteAccount(removed)).status).toBe(204);
    expect((await post(pathOf(removed), body, signed())).status).toBe(202);
    expectErrorShape(await post(pathOf(removed), body, { 'X-Sandbox-Signature': 'forged' }), 401);
  });

  it("an adyen account: items signed with its hmacKey [accepted], another key's (the sandbox's signature too) 401", async () => {
    const hmacKey = '44782DEF547AAA06C910C43932B1EB0C';
    const adyen = await created({
      name: 'Adyen',
      acquirer: 'adyen',
      mode: 'test',
      merchantAccountId: 'Shop_POS',
      credentials: { apiKey: 'AQEyhmfxK4PdvW0acomD', hmacKey, environment: 'TEST' },
    });
    // More on Adyen's notifications: test/acquirerAccounts/adyenNotifications.test.ts.
    const item = {
      eventCode: 'AUTHORISATION',
      merchantAccountCode: 'Shop_POS',
      merchantReference: 'nothing-of-ours',
      pspReference: 'QFQTPCQ8HXSKGK82',
      success: 'true',
      amount: { currency: 'EUR', value: 100 },
    };
    const signedWith = (key: string) =>
      JSON.stringify({
        live: 'false',
        notificationItems: [{ NotificationRequestItem: { ...item, additionalData: { hmacSignature: new hmacValidator().calculateHmac(item as never, key) } } }],
      });
    const ok = await post(pathOf(adyen), signedWith(hmacKey));
    expect([ok.status, ok.body]).toEqual([200, '[accepted]']);
    expectErrorShape(await post(pathOf(adyen), signedWith('AB'.repeat(16))), 401);
    expectErrorShape(await post(pathOf(adyen), body, signed()), 401);
  });
});
