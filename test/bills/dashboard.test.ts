import crypto from 'node:crypto';
import { generateApiKey } from '../../src/auth/apiKeys';
import { API_KEY_SCOPES, ROLES } from '../../src/auth/roles';
import type { Merchant } from '../../src/generated/prisma/client';
import { call, expectErrorShape } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';
import { addTerminal, createPayment, eventually, openShop, type Shop, sim, statusBecomes, storeWithTerminal } from '../payments/helpers';
import { createUser, login, signedInUser } from '../users/helpers';
import { bills } from './helpers';

/**
 * The dashboard's bills (docs/dashboard.md, "Bills") through the session-token API: every role
 * that reads payments reads bills, of both modes, newest first and paged, filtered by store, status
 * and mode; nothing of another business (404); a split bill's page; a bill given back step by
 * step (voided, released, cancelled, cash to return at the till; the step still to take while an
 * acquirer is away); the tender's payment names its bill.
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ SWEEP_INTERVAL_SECONDS: '2' });
});
afterAll(() => stack?.stop());

const b = () => bills(stack);
const LIST = '/api/dashboard/bills';
const asUser = (token: string, path: string) => call(stack.apiUrl, 'GET', path, { token });
const merchantOf = (shop: Shop): Promise<Merchant> => stack.db.merchant.findUniqueOrThrow({ where: { id: shop.merchantId } });
const ids = (page: { content: { id: string }[] }) => page.content.map((x) => x.id);
const tillTender = (shop: Shop, billId: string, method: 'CASH' | 'OTHER', amount: number) =>
  call(stack.apiUrl, 'POST', `/api/in-store/bills/${billId}/tenders`, { key: shop.key, body: { method, amount } });

/** A test-mode key and store of the shop's own business: the same business's test bills. */
async function testModeShop(shop: Shop): Promise<Shop> {
  const { key, hash, prefix } = generateApiKey('test');
  await stack.db.apiKey.create({ data: { merchantId: shop.merchantId, name: 'test till', mode: 'test', prefix, keyHash: hash, scopes: [...API_KEY_SCOPES] } });
  return storeWithTerminal(stack, { merchantId: shop.merchantId, merchantExternalId: shop.merchantExternalId, key }, { mode: 'test' });
}

describe('the list', () => {
  let shop: Shop;
  let testShop: Shop;
  let token: string;
  let older: string;
  let newer: string;
  let testBill: string;
  let foreign: string;

  beforeAll(async () => {
    shop = await openShop(stack);
    testShop = await testModeShop(shop);
    token = (await signedInUser(stack.db, stack.apiUrl, await merchantOf(shop), ['USER'])).token;
    older = (await b().create(shop, { amount: 10 })).body.id;
    newer = (await b().create(shop, { amount: 20 })).body.id;
    testBill = (await b().create(testShop, { amount: 30 })).body.id;
    foreign = (await b().create(await openShop(stack))).body.id;
  });

  it("lists the business's live and test bills, newest first, in pages; never another business's", async () => {
    const first = await asUser(token, `${LIST}?size=2`);
    expect(first.status).toBe(200);
    expect(ids(first.body)).toEqual([testBill, newer]);
    expect(first.body).toMatchObject({ totalElements: 3, totalPages: 2, page: 0, size: 2 });
    expect(first.body.content[0]).toMatchObject({
      id: testBill,
      mode: 'test',
      storeExternalId: testShop.storeExternalId,
      amount: 30,
      currency: 'EUR',
      paidAmount: 0,
      remainingAmount: 30,
      status: 'OPEN',
      tenders: [],
    });
    expect(first.body.content[1]).toMatchObject({ id: newer, mode: 'live', amount: 20 });
    const second = await asUser(token, `${LIST}?size=2&page=1`);
    expect(ids(second.body)).toEqual([older]);
    const all = await asUser(token, `${LIST}?size=100`);
    expect(ids(all.body)).not.toContain(foreign);
  });

  it('narrows by mode, store and status; a bad filter is 400 naming it', async () => {
    expect(ids((await asUser(token, `${LIST}?mode=live`)).body)).toEqual([newer, older]);
    expect(ids((await asUser(token, `${LIST}?mode=test`)).body)).toEqual([testBill]);
    expect(ids((await asUser(token, `${LIST}?storeExternalId=${testShop.storeExternalId}`)).body)).toEqual([testBill]);
    expect((await b().cancel(shop, older)).status).toBe(202);
    await b().becomes(shop, older, 'CANCELLED');
    expect(ids((await asUser(token, `${LIST}?status=CANCELLED`)).body)).toEqual([older]);
    expect(ids((await asUser(token, `${LIST}?status=OPEN`)).body)).toEqual([testBill, newer]);
    for (const [query, field] of [
      ['status=NOPE', 'status'],
      ['mode=sandbox', 'mode'],
      ['size=101', 'size'],
      ['colour=red', 'colour'],
    ]) {
      const bad = await asUser(token, `${LIST}?${query}`);
      expectErrorShape(bad, 400);
      expect(bad.body.message).toContain(field);
    }
  });

  it("every role that reads payments reads bills; a user without that area 403; an API key 401; another business's bill 404", async () => {
    const merchant = await merchantOf(shop);
    for (const role of ROLES) {
      const roleToken = (await signedInUser(stack.db, stack.apiUrl, merchant, [role])).token;
      expect([role, (await asUser(roleToken, LIST)).status]).toEqual([role, 200]);
      const one = await asUser(roleToken, `${LIST}/${newer}`);
      expect([role, one.status]).toEqual([role, 200]);
      expect(one.body).toMatchObject({ id: newer, mode: 'live', amount: 20, remainingAmount: 20, status: 'OPEN' });
    }
    const noRole = await login(stack.apiUrl, (await createUser(stack.db, merchant, [])).username);
    expectErrorShape(await asUser(noRole, LIST), 403);
    expectErrorShape(await asUser(noRole, `${LIST}/${newer}`), 403);
    expectErrorShape(await call(stack.apiUrl, 'GET', LIST, { key: shop.key }), 401);
    expectErrorShape(await call(stack.apiUrl, 'GET', `${LIST}/${newer}`, { key: shop.key }), 401);
    expectErrorShape(await asUser(token, `${LIST}/${foreign}`), 404);
    expectErrorShape(await asUser(token, `${LIST}/${crypto.randomUUID()}`), 404);
    expectErrorShape(await asUser(token, `${LIST}/not-a-bill`), 400);
    // ...and the API-key read keeps its own mode: the test key does not see the live bill.
    expectErrorShape(await call(stack.apiUrl, 'GET', `/api/in-store/bills/${newer}`, { key: testShop.key }), 404);
  });
});

it("a split bill's page: a card and cash, paid and remaining, tenders in order, nothing given back; the card's payment names its bill", async () => {
  const shop = await openShop(stack);
  const token = (await signedInUser(stack.db, stack.apiUrl, await merchantOf(shop), ['USER'])).token;
  const bill = (await b().create(shop, { amount: 40 })).body;
  const card = await createPayment(stack, shop, { amount: 25, billId: bill.id });
  await sim(stack).customer(shop.deviceId, { action: 'pay' });
  await statusBecomes(stack, card.body.id, 'CAPTURED');
  await eventually(async () => ((await b().read(shop, bill.id)).body.paidAmount === 25 ? true : undefined));
  const half = await asUser(token, `${LIST}/${bill.id}`);
  expect(half.body).toMatchObject({ status: 'OPEN', paidAmount: 25, remainingAmount: 15 });
  expect((await tillTender(shop, bill.id, 'CASH', 15)).status).toBe(201);
  await b().becomes(shop, bill.id, 'PAID');

  const page = await asUser(token, `${LIST}/${bill.id}`);
  expect(page.status).toBe(200);
  expect(page.body).toMatchObject({ id: bill.id, reference: bill.reference, status: 'PAID', amount: 40, paidAmount: 40, remainingAmount: 0, mode: 'live' });
  expect(page.body.tenders).toEqual([
    {
      paymentId: card.body.id,
      sequenceNumber: 1,
      status: 'CAPTURED',
      method: 'CARD',
      amount: 25,
      requestedAmount: 25,
      tipAmount: 0,
      givenBack: null,
      giveBackStep: null,
    },
    {
      paymentId: null,
      sequenceNumber: 2,
      status: 'RECEIVED',
      method: 'CASH',
      amount: 15,
      requestedAmount: 15,
      tipAmount: 0,
      givenBack: null,
      giveBackStep: null,
    },
  ]);

  const payment = await asUser(token, `/api/dashboard/payments/${card.body.id}`);
  expect(payment.body).toMatchObject({ id: card.body.id, billId: bill.id, sequenceNumber: 1 });
  const own = await createPayment(stack, shop, { amount: 5 });
  expect((await asUser(token, `/api/dashboard/payments/${own.body.id}`)).body.billId).toBeNull();
});

it('a bill given back, step by step: voided, released, cancelled, cash to return at the till; the step still to take while the acquirer is away', async () => {
  const shop = await openShop(stack);
  const token = (await signedInUser(stack.db, stack.apiUrl, await merchantOf(shop), ['USER'])).token;
  const twoStep = await addTerminal(stack, shop, { twoStep: true });
  const twoStepDevice = twoStep.deviceId;
  const till3 = await addTerminal(stack, shop);

  const bill = (await b().create(shop, { amount: 60 })).body;
  const captured = await createPayment(stack, shop, { amount: 20, billId: bill.id });
  await sim(stack).customer(shop.deviceId, { action: 'pay' });
  await statusBecomes(stack, captured.body.id, 'CAPTURED');
  const authorised = await createPayment(stack, twoStep, { amount: 15, billId: bill.id });
  await sim(stack).customer(twoStepDevice, { action: 'pay' });
  await statusBecomes(stack, authorised.body.id, 'AUTHORIZED');
  const waiting = await createPayment(stack, till3, { amount: 10, billId: bill.id });
  expect(waiting.body.status).toBe('AWAITING_TERMINAL');
  expect((await tillTender(shop, bill.id, 'CASH', 5)).status).toBe(201);

  // Before: an open bill has no give-back.
  const open = await asUser(token, `${LIST}/${bill.id}`);
  expect(open.body.tenders.map((t: { givenBack: unknown; giveBackStep: unknown }) => [t.givenBack, t.giveBackStep])).toEqual([
    [null, null],
    [null, null],
    [null, null],
    [null, null],
  ]);

  // The two-step terminal's acquirer cannot be reached: its release waits, the rest is given back.
  await sim(stack).configure(twoStepDevice, { reachable: false });
  expect((await b().cancel(shop, bill.id)).status).toBe(202);
  const pending = await eventually(async () => {
    const r = await asUser(token, `${LIST}/${bill.id}`);
    const steps = r.body.tenders.map((t: { givenBack: string | null; giveBackStep: string | null }) => t.givenBack ?? `pending ${t.giveBackStep}`);
    return steps[0] === 'VOIDED' && steps[2] === 'CANCELLED' ? { status: r.body.status, steps } : undefined;
  }, 30_000);
  expect(pending).toEqual({ status: 'CANCELLING', steps: ['VOIDED', 'pending RELEASE', 'CANCELLED', 'TO_RETURN_AT_TILL'] });

  await sim(stack).configure(twoStepDevice, { reachable: true });
  await b().becomes(shop, bill.id, 'CANCELLED', 60_000);
  const done = await asUser(token, `${LIST}/${bill.id}`);
  expect(done.body).toMatchObject({ status: 'CANCELLED', paidAmount: 5, remainingAmount: 55 });
  expect(
    done.body.tenders.map((t: { sequenceNumber: number; method: string; status: string; givenBack: string | null; giveBackStep: string | null }) => [
      t.sequenceNumber,
      t.method,
      t.status,
      t.givenBack,
      t.giveBackStep,
    ]),
  ).toEqual([
    [1, 'CARD', 'CANCELLED', 'VOIDED', null],
    [2, 'CARD', 'CANCELLED', 'RELEASED', null],
    [3, 'CARD', 'CANCELLED', 'CANCELLED', null],
    [4, 'CASH', 'RECEIVED', 'TO_RETURN_AT_TILL', null],
  ]);
}, 120_000);
