import { generateApiKey } from '../../src/auth/apiKeys';
import { API_KEY_SCOPES } from '../../src/auth/roles';
import { call, expectErrorShape } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';
import { createPayment, eventually, openShop, paymentBody, type Shop } from '../payments/helpers';

/** Issue 15 on the payment path: receipt fields reach the acquirer and the record (point 12). */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.stop();
});

describe('receipt fields (point 12)', () => {
  it('passes cashierId, customerMobile and customerEmail to the acquirer and shows them on the payment record', async () => {
    const shop = await openShop(stack);
    const receipt = { cashierId: 'cashier-7', customerMobile: '+49 170 1234567', customerEmail: 'anna@example.com' };
    const created = await createPayment(stack, shop, receipt);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject(receipt);
    const row = await eventually(async () => {
      const p = await stack.db.payment.findUnique({ where: { id: created.body.id } });
      return p?.acquirerRef ? p : undefined;
    });
    const bill = await call(stack.sandboxUrl, 'GET', `/sim/bills/${row.acquirerRef}`);
    expect(bill.status).toBe(200);
    expect(bill.body.receipt).toEqual(receipt);
    const tx = await call(stack.apiUrl, 'GET', `/api/transactions/${created.body.id}`, { key: shop.key });
    expect(tx.body).toMatchObject(receipt);
  });

  it('sends no receipt when none was given, and the record shows null', async () => {
    const shop = await openShop(stack);
    const created = await createPayment(stack, shop);
    expect(created.body).toMatchObject({ cashierId: null, customerMobile: null, customerEmail: null });
    const row = await eventually(async () => {
      const p = await stack.db.payment.findUnique({ where: { id: created.body.id } });
      return p?.acquirerRef ? p : undefined;
    });
    const bill = await call(stack.sandboxUrl, 'GET', `/sim/bills/${row.acquirerRef}`);
    expect(bill.body.receipt).toBeUndefined();
  });
});

/** A second key of the shop's business, in the other mode. */
async function otherModeKey(stack: TestStack, shop: Shop, mode: 'live' | 'test'): Promise<string> {
  const { key, hash, prefix } = generateApiKey(mode);
  await stack.db.apiKey.create({ data: { merchantId: shop.merchantId, name: `${mode} key`, mode, prefix, keyHash: hash, scopes: [...API_KEY_SCOPES] } });
  return key;
}

describe('test and live are separate worlds (point 5)', () => {
  it("a test key neither sees nor changes a live key's store or its terminals", async () => {
    const shop = await openShop(stack);
    const testKey = await otherModeKey(stack, shop, 'test');
    const base = `/api/merchants/${shop.merchantExternalId}/stores`;
    const made = await call(stack.apiUrl, 'POST', base, { key: shop.key, body: { name: 'Live store', country: 'DE', timezone: 'UTC' } });
    expect(made.status).toBe(201);
    const store = made.body.externalId as string;
    const storePath = `${base}/${store}`;
    const body = { name: 'Renamed by test', country: 'DE', timezone: 'UTC', status: 'INACTIVE' };
    expectErrorShape(await call(stack.apiUrl, 'GET', storePath, { key: testKey }), 404);
    expectErrorShape(await call(stack.apiUrl, 'PUT', storePath, { key: testKey, body }), 404);
    expectErrorShape(await call(stack.apiUrl, 'DELETE', `${storePath}?force=true`, { key: testKey }), 404);
    expectErrorShape(await call(stack.apiUrl, 'GET', `${storePath}/terminals`, { key: testKey }), 404);
    expectErrorShape(await call(stack.apiUrl, 'POST', `${storePath}/terminals`, { key: testKey, body: { label: 'x' } }), 404);
    expect((await call(stack.apiUrl, 'GET', base, { key: testKey })).body).toEqual([]);
    expect((await call(stack.apiUrl, 'GET', `${base}/search`, { key: testKey })).body.content ?? []).toEqual([]);
    const row = await stack.db.store.findFirstOrThrow({ where: { externalId: store } });
    expect(row).toMatchObject({ name: 'Live store', status: 'ACTIVE', mode: 'live' });
    // The test key's own stores are its own; the live key does not see them either.
    const testStore = await call(stack.apiUrl, 'POST', base, { key: testKey, body: { name: 'Test store', country: 'DE', timezone: 'UTC' } });
    expect(testStore.status).toBe(201);
    expect((await call(stack.apiUrl, 'GET', base, { key: shop.key })).body.map((s: { name: string }) => s.name)).toEqual(['Live store', 'Main street']);
    expect((await call(stack.apiUrl, 'GET', base, { key: testKey })).body.map((s: { name: string }) => s.name)).toEqual(['Test store']);
  });

  it("a test payment cannot reach a live terminal, so it can neither block nor see the live key's bill", async () => {
    const shop = await openShop(stack);
    const testKey = await otherModeKey(stack, shop, 'test');
    const refused = await call(stack.apiUrl, 'POST', '/api/in-store/payments', { key: testKey, body: paymentBody(shop, { reference: 'test-bill-secret' }) });
    expect(expectErrorShape(refused, 404)).not.toMatch(/test-bill-secret/);
    const live = await createPayment(stack, shop, { reference: 'live-bill' });
    expect(live.status).toBe(201);
    expect(live.body.status).toBe('AWAITING_TERMINAL');
    // and the other way round: a live key cannot pay on a test store's terminal
    const testShop = await openShop(stack, { mode: 'test' });
    const liveKey = await otherModeKey(stack, testShop, 'live');
    const cross = await call(stack.apiUrl, 'POST', '/api/in-store/payments', { key: liveKey, body: paymentBody(testShop) });
    expectErrorShape(cross, 404);
  });
});
