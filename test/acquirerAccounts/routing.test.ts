import { generateApiKey } from '../../src/auth/apiKeys';
import type { Merchant } from '../../src/generated/prisma/client';
import { addTerminal, createPayment, openShop, paymentAction, type Shop, sim, statusBecomes, storeWithTerminal } from '../payments/helpers';
import { uniqueId } from '../support/fixtures';
import { call, expectErrorShape } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';
import { signedInUser } from '../users/helpers';
import { adminOf, type Admin, sandboxAccount } from './helpers';

/**
 * Acquirer routes (docs/acquirers.md, "Routes and the decision") on the real stack (API, worker, sandbox, database, Temporal): the routes pick each
 * new payment's account by store, currency, payment mode and amount, in order, then the default,
 * then the installation; the payment records its account and rule, and every later call goes to
 * that account whatever the routes or the account become meanwhile.
 */
let stack: TestStack;
let shop: Shop;
let merchant: Merchant;
let admin: Admin;
const accounts: Record<'a' | 'b' | 'c' | 'd', string> = { a: '', b: '', c: '', d: '' };

beforeAll(async () => {
  stack = await startTestStack();
  shop = await openShop(stack, { mode: 'test', device: { modes: ['CARD', 'QR_CODE'] } });
  merchant = await stack.db.merchant.findUniqueOrThrow({ where: { id: shop.merchantId } });
  admin = await adminOf(stack, merchant);
  for (const k of ['a', 'b', 'c', 'd'] as const) accounts[k] = await sandboxAccount(admin, 'test', `MID-${k.toUpperCase()}`, `Account ${k}`);
}, 60_000);
afterAll(async () => {
  await stack?.stop();
});

/** Creates a payment, reads where it went (and the MID on the device), and takes it off the device again. */
async function routed(over: Record<string, unknown> = {}, at: Shop = shop): Promise<{ accountId: string | null; rule: string; mid: unknown }> {
  const res = await createPayment(stack, at, over);
  expect(res.status).toBe(201);
  expect(res.body.status).toBe('AWAITING_TERMINAL');
  const bill = await sim(stack).device(at.deviceId);
  const mid = bill.body.currentBill?.merchantAccountId;
  expect((await paymentAction(stack, at, res.body.id, 'cancel')).status).toBe(200);
  await statusBecomes(stack, res.body.id, 'CANCELLED');
  return { accountId: res.body.acquirerAccountId, rule: res.body.routeRule, mid };
}

describe('the decision at creation', () => {
  it('without routes: the installation default, for every existing business', async () => {
    expect(await routed()).toEqual({ accountId: null, rule: 'installation', mid: 'SANDBOX' });
  });

  it('routes by store, currency, payment mode and amount, in order; then the default', async () => {
    const other = await stack.db.store.create({
      data: { merchantId: shop.merchantId, mode: 'test', externalId: uniqueId('store'), name: 'Harbour', country: 'SE', timezone: 'Europe/Stockholm' },
    });
    const harbour = { ...(await addTerminal(stack, shop)), storeExternalId: other.externalId };
    await stack.db.terminal.update({ where: { id: harbour.terminalId }, data: { storeId: other.id } });
    const saved = await admin.saveRoutes({
      mode: 'test',
      rules: [
        { name: 'harbour store', accountId: accounts.a, match: { storeExternalIds: [other.externalId] } },
        { name: 'krona', accountId: accounts.b, match: { currencies: ['SEK'] } },
        { name: 'qr codes', accountId: accounts.c, match: { paymentModes: ['QR_CODE'] } },
        { name: 'large', accountId: accounts.a, match: { minAmount: 1000 } },
      ],
      defaultAccountId: accounts.d,
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ mode: 'test', version: 1, defaultAccountId: accounts.d, updatedBy: expect.any(String) });

    expect(await routed({ amount: 5 }, harbour)).toEqual({ accountId: accounts.a, rule: 'harbour store', mid: 'MID-A' });
    expect(await routed({ currency: 'SEK', amount: 5 })).toEqual({ accountId: accounts.b, rule: 'krona', mid: 'MID-B' });
    // The rule order decides: SEK at the harbour store is the store's rule.
    expect((await routed({ currency: 'SEK', amount: 5 }, harbour)).rule).toBe('harbour store');
    expect(await routed({ requestedModes: ['QR_CODE'] })).toEqual({ accountId: accounts.c, rule: 'qr codes', mid: 'MID-C' });
    // A mode left open routes as CARD.
    expect((await routed({ requestedModes: ['CARD', 'QR_CODE'] })).rule).toBe('default');
    expect(await routed({ amount: 1000 })).toEqual({ accountId: accounts.a, rule: 'large', mid: 'MID-A' });
    expect(await routed({ amount: 999.99 })).toEqual({ accountId: accounts.d, rule: 'default', mid: 'MID-D' });

    // Every read shows where it went, API key and dashboard alike.
    const created = await createPayment(stack, shop, { amount: 7 });
    const read = await paymentAction(stack, shop, created.body.id, 'sync-status');
    expect(read.body).toMatchObject({ acquirerAccountId: accounts.d, acquirerName: 'sandbox', routeRule: 'default' });
    const { token } = await signedInUser(stack.db, stack.apiUrl, merchant, ['USER']);
    const dash = await call(stack.apiUrl, 'GET', `/api/dashboard/payments/${created.body.id}`, { token });
    expect(dash.body).toMatchObject({ acquirerAccountId: accounts.d, acquirerName: 'sandbox', routeRule: 'default' });
    await paymentAction(stack, shop, created.body.id, 'cancel');
    await statusBecomes(stack, created.body.id, 'CANCELLED');

    // No default: the installation again.
    await admin.saveRoutes({ mode: 'test', rules: [], defaultAccountId: null });
    expect(await routed()).toEqual({ accountId: null, rule: 'installation', mid: 'SANDBOX' });
  });

  it("a live key's payments never reach a test account", async () => {
    const { key, hash, prefix } = generateApiKey('live');
    await stack.db.apiKey.create({ data: { merchantId: shop.merchantId, name: 'live', mode: 'live', prefix, keyHash: hash, scopes: ['payments'] } });
    const live = await storeWithTerminal(stack, { ...shop, key }, { mode: 'live' });
    await admin.saveRoutes({ mode: 'test', rules: [{ name: 'all', accountId: accounts.a, match: {} }], defaultAccountId: accounts.b });
    expect(expectErrorShape(await admin.saveRoutes({ mode: 'live', rules: [], defaultAccountId: accounts.a }), 400)).toMatch(
      /^defaultAccountId: account acct_\w+ is a test account; live routes name live accounts only/,
    );
    expect(await routed({}, live)).toEqual({ accountId: null, rule: 'installation', mid: 'SANDBOX' });
    expect((await routed()).accountId).toBe(accounts.a);
    await admin.saveRoutes({ mode: 'test', rules: [], defaultAccountId: null });
  });
});

describe('a payment stays with its account', () => {
  it('through a route change, a deactivation and a credential rotation while it is open, and its refund', async () => {
    await admin.saveRoutes({ mode: 'test', rules: [], defaultAccountId: accounts.a });
    const created = await createPayment(stack, shop, { amount: 20 });
    expect(created.body.acquirerAccountId).toBe(accounts.a);
    // The routes move on, the account is deactivated and its credentials rotated: the open payment keeps it.
    await admin.saveRoutes({ mode: 'test', rules: [], defaultAccountId: accounts.b });
    expect(expectErrorShape(await admin.deleteAccount(accounts.a), 409)).toMatch(/used by 1 open payment/);
    expect((await admin.updateAccount(accounts.a, { status: 'INACTIVE', credentials: {} })).status).toBe(200);
    expect((await sim(stack).customer(shop.deviceId, { action: 'pay' })).status).toBe(200);
    await statusBecomes(stack, created.body.id, 'CAPTURED');
    const finance = (await signedInUser(stack.db, stack.apiUrl, merchant, ['FINANCE'])).token;
    const refund = await call(stack.apiUrl, 'POST', `/api/dashboard/payments/${created.body.id}/refunds`, { token: finance, body: { amount: 5 } });
    expect(refund.status).toBe(201);
    await statusBecomes(stack, created.body.id, 'PARTIALLY_REFUNDED');
    const row = await stack.db.payment.findUniqueOrThrow({ where: { id: created.body.id } });
    expect(row).toMatchObject({ acquirerAccountId: accounts.a, routeRule: 'default' });
    // The next payment follows the new routes.
    expect((await routed()).accountId).toBe(accounts.b);
    await admin.saveRoutes({ mode: 'test', rules: [], defaultAccountId: null });
    await admin.updateAccount(accounts.a, { status: 'ACTIVE' });
  });
});

describe('saving routes', () => {
  const save = (body: Record<string, unknown>) => admin.saveRoutes({ mode: 'test', defaultAccountId: null, ...body });

  it.each([
    [
      'an unknown store',
      () => ({ rules: [{ name: 'x', accountId: accounts.a, match: { storeExternalIds: ['store_nope'] } }] }),
      /^rules\[0\]\.match\.storeExternalIds\[0\]: no test store store_nope/,
    ],
    [
      'minAmount above maxAmount',
      () => ({ rules: [{ name: 'x', accountId: accounts.a, match: { minAmount: 10, maxAmount: 5 } }] }),
      /^rules\[0\]\.match\.minAmount: must be at most maxAmount/,
    ],
    [
      'two rules of one name',
      () => ({
        rules: [
          { name: 'x', accountId: accounts.a },
          { name: 'x', accountId: accounts.b },
        ],
      }),
      /^rules\[1\]\.name: "x" is already the name of rules\[0\]/,
    ],
    [
      'a rule named installation (reserved: issue 37)',
      () => ({ rules: [{ name: 'installation', accountId: accounts.a }] }),
      /^rules\[0\]\.name: "default" and "installation" are reserved/,
    ],
    [
      'a rule named Default, whatever the case (reserved)',
      () => ({
        rules: [
          { name: 'x', accountId: accounts.a },
          { name: ' Default ', accountId: accounts.b },
        ],
      }),
      /^rules\[1\]\.name: "default" and "installation" are reserved/,
    ],
    ['an unknown account', () => ({ rules: [{ name: 'x', accountId: 'acct_nope' }] }), /^rules\[0\]\.accountId: no acquirer account acct_nope/],
    ['an unknown default', () => ({ rules: [], defaultAccountId: 'acct_nope' }), /^defaultAccountId: no acquirer account/],
    [
      'an unknown currency',
      () => ({ rules: [{ name: 'x', accountId: accounts.a, match: { currencies: ['XXX'] } }] }),
      /^rules\[0\]\.match\.currencies\[0\]: must be one of the supported currencies/,
    ],
    [
      'an unknown payment mode',
      () => ({ rules: [{ name: 'x', accountId: accounts.a, match: { paymentModes: ['CASH'] } }] }),
      /^rules\[0\]\.match\.paymentModes\[0\]: must be CARD or QR_CODE/,
    ],
    [
      'an empty condition list',
      () => ({ rules: [{ name: 'x', accountId: accounts.a, match: { currencies: [] } }] }),
      /^rules\[0\]\.match\.currencies: must name at least one value/,
    ],
    [
      'an unknown condition',
      () => ({ rules: [{ name: 'x', accountId: accounts.a, match: { country: ['DE'] } }] }),
      /^rules\[0\]\.match\.country: unknown field/,
    ],
    ['101 rules', () => ({ rules: Array.from({ length: 101 }, (_, i) => ({ name: `r${i}`, accountId: accounts.a })) }), /^rules: must have at most 100 rules/],
    ['no mode', () => ({ mode: undefined, rules: [] }), /^mode: must be live or test/],
  ])('refuses %s with 400 naming the field, and keeps the saved routes', async (_what, body, message) => {
    const before = (await admin.routes('test')).body;
    expect(expectErrorShape(await save(body()), 400)).toMatch(message);
    expect((await admin.routes('test')).body).toEqual(before);
  });

  it('refuses an inactive account', async () => {
    const id = await sandboxAccount(admin, 'test', 'MID-OFF');
    await admin.updateAccount(id, { status: 'INACTIVE' });
    expect(expectErrorShape(await save({ rules: [{ name: 'x', accountId: id }] }), 400)).toMatch(/^rules\[0\]\.accountId: account acct_\w+ is inactive/);
  });

  it('counts versions up, and audits each save', async () => {
    const first = (await admin.routes('live')).body;
    expect(first).toEqual({ mode: 'live', rules: [], defaultAccountId: null, version: 0, updatedAt: null, updatedBy: null });
    const v1 = await admin.saveRoutes({ mode: 'live', rules: [], defaultAccountId: null });
    const v2 = await admin.saveRoutes({ mode: 'live', rules: [], defaultAccountId: null });
    expect([v1.body.version, v2.body.version]).toEqual([1, 2]);
    expect((await admin.routes('live')).body.version).toBe(2);
    const audit = await stack.db.auditLog.findMany({
      where: { merchantId: shop.merchantId, action: 'ACQUIRER_ROUTES_UPDATED', targetId: 'live' },
      orderBy: { id: 'asc' },
    });
    expect(audit.map((a) => (a.details as { version: number }).version)).toEqual([1, 2]);
  });

  it('validates 100 rules of 100 stores each in well under a second', async () => {
    const stores = Array.from({ length: 100 }, () => uniqueId('store'));
    await stack.db.store.createMany({
      data: stores.map((externalId) => ({ merchantId: shop.merchantId, mode: 'test', externalId, name: externalId, country: 'DE', timezone: 'Europe/Berlin' })),
    });
    const rules = Array.from({ length: 100 }, (_, i) => ({
      name: `rule ${i}`,
      accountId: accounts[(['a', 'b', 'c', 'd'] as const)[i % 4]],
      match: { storeExternalIds: stores },
    }));
    const started = performance.now();
    const res = await save({ rules });
    const ms = performance.now() - started;
    expect(res.status).toBe(200);
    expect(res.body.rules).toHaveLength(100);
    console.log(`100 rules of 100 stores saved in ${ms.toFixed(0)} ms`);
    // The target (well under a second) is measured in docs/acquirers.md; this only catches a pathological slowdown.
    expect(ms).toBeLessThan(5000);
    await save({ rules: [] });
  });
});
