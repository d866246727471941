import crypto from 'node:crypto';
import { createApiKey } from '../../src/operator';
import { call, expectErrorShape } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';
import { insertPaymentRow, openShop, type Shop } from '../payments/helpers';
import { capturedPayment, closeBatch, settlementsApi, userOf } from './helpers';

/**
 * Who reaches settlements (ADMIN and FINANCE, docs/settlement.md) on every endpoint, the close's audit entry, and the
 * two modes: a test store's close never touches live payments, and the other way round.
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.stop();
});

const BASE = '/api/dashboard/settlements';

/** A test-mode store of the shop's business, with its own terminal and device and a test key. */
async function testModeShop(shop: Shop): Promise<Shop> {
  const merchant = await stack.db.merchant.findUniqueOrThrow({ where: { id: shop.merchantId } });
  const { key } = await createApiKey(stack.db, { merchantExternalId: merchant.externalId, name: 'sandbox key', mode: 'test' });
  const tag = crypto.randomBytes(4).toString('hex');
  const store = await stack.db.store.create({
    data: { merchantId: shop.merchantId, mode: 'test', externalId: `store-test-${tag}`, name: 'Test street', country: 'DE', timezone: 'Europe/Berlin' },
  });
  const deviceId = `dev-test-${tag}`;
  const terminal = await stack.db.terminal.create({
    data: { merchantId: shop.merchantId, storeId: store.id, externalId: `term-test-${tag}`, label: 'Test till', deviceId, linkedAt: new Date() },
  });
  return { ...shop, key, storeExternalId: store.externalId, storeId: store.id, terminalExternalId: terminal.externalId, terminalId: terminal.id, deviceId };
}

describe('who may settle, on every endpoint', () => {
  it('USER and OPERATIONS 403, an API key 401, another business 404; ADMIN and FINANCE read', async () => {
    const shop = await openShop(stack);
    await capturedPayment(stack, shop, 12);
    const admin = await userOf(stack, shop, ['ADMIN']);
    const closed = await closeBatch(stack, admin, shop.storeExternalId);
    expect(closed.status).toBe(201);
    const id = closed.body.id as string;
    const endpoints: [string, string, Record<string, unknown>?][] = [
      ['POST', BASE, { storeExternalId: shop.storeExternalId }],
      ['GET', BASE],
      ['GET', `${BASE}/${id}`],
      ['GET', `${BASE}/${id}/lines`],
      ['GET', `${BASE}/${id}/lines.csv`],
    ];
    for (const roles of [['USER'], ['OPERATIONS']] as const) {
      const token = await userOf(stack, shop, [...roles]);
      for (const [method, path, body] of endpoints) expectErrorShape(await call(stack.apiUrl, method, path, { token, ...(body ? { body } : {}) }), 403);
    }
    for (const [method, path, body] of endpoints) expectErrorShape(await call(stack.apiUrl, method, path, { key: shop.key, ...(body ? { body } : {}) }), 401);
    // another business: the batch and the store do not exist for it; its list is empty
    const other = await openShop(stack);
    const otherFinance = await userOf(stack, other, ['FINANCE']);
    for (const [method, path, body] of endpoints.filter(([m, p]) => !(m === 'GET' && p === BASE))) {
      expectErrorShape(await call(stack.apiUrl, method, path, { token: otherFinance, ...(body ? { body } : {}) }), 404);
    }
    expect((await settlementsApi(stack, otherFinance).list()).body.totalElements).toBe(0);
    // the business's own FINANCE and ADMIN read every one
    const finance = await userOf(stack, shop, ['FINANCE']);
    for (const token of [finance, admin]) {
      const api = settlementsApi(stack, token);
      expect((await api.list()).body.content.map((b: any) => b.id)).toEqual([id]);
      expect((await api.read(id)).status).toBe(200);
      expect((await api.lines(id)).status).toBe(200);
      expect((await api.csv(id)).status).toBe(200);
    }
  });
});

describe('the audit log', () => {
  it('records each close once, by the user who closed it, visible in GET /api/audit-logs', async () => {
    const shop = await openShop(stack);
    const finance = await userOf(stack, shop, ['FINANCE']);
    await capturedPayment(stack, shop, 33.3);
    const closed = await closeBatch(stack, finance, shop.storeExternalId);
    expect(closed.status).toBe(201);
    const financeUser = await stack.db.user.findUniqueOrThrow({ where: { username: closed.body.closedBy } });
    // nothing left: a refused close is not a close
    expect((await closeBatch(stack, finance, shop.storeExternalId)).status).toBe(409);

    const admin = await userOf(stack, shop, ['ADMIN']);
    const log = await call(stack.apiUrl, 'GET', '/api/audit-logs?action=SETTLEMENT_CLOSED', { token: admin });
    expect(log.status).toBe(200);
    expect(log.body.content).toEqual([
      expect.objectContaining({
        action: 'SETTLEMENT_CLOSED',
        actorType: 'USER',
        actorId: String(financeUser.id),
        targetType: 'SETTLEMENT',
        targetId: closed.body.id,
        details: expect.objectContaining({
          storeExternalId: shop.storeExternalId,
          date: closed.body.date,
          mode: 'live',
          status: 'SETTLED',
          closedBy: closed.body.closedBy,
          discrepancies: 0,
          totals: [expect.objectContaining({ currency: 'EUR', paymentCount: 1, grossAmount: '33.3' })],
        }),
      }),
    ]);
  });
});

describe('modes', () => {
  it("a test store's close takes only test payments, a live store's only live ones; each batch says its mode", async () => {
    const live = await openShop(stack);
    const test = await testModeShop(live);
    const finance = await userOf(stack, live, ['FINANCE']);
    const livePayment = await capturedPayment(stack, live, 70);
    const testPayment = await capturedPayment(stack, test, 7);
    expect(testPayment.mode).toBe('test');
    // a test-mode row in the live store (as a report-only payment of the sandbox is): never the live batch's
    const stray = await insertPaymentRow(stack, live, {
      mode: 'test',
      status: 'CAPTURED',
      capturedAt: new Date(Date.now() - 60_000),
      capturedAmount: '5',
      acquirerRef: `stray-${crypto.randomUUID()}`,
    });

    const testClose = await closeBatch(stack, finance, test.storeExternalId);
    expect(testClose.status).toBe(201);
    expect(testClose.body).toMatchObject({ mode: 'test', status: 'SETTLED', totals: [expect.objectContaining({ paymentCount: 1, grossAmount: 7 })] });
    expect((await stack.db.payment.findUniqueOrThrow({ where: { id: testPayment.id } })).status).toBe('SETTLED');
    expect(await stack.db.payment.findUniqueOrThrow({ where: { id: livePayment.id } })).toMatchObject({ status: 'CAPTURED', settledAt: null });

    const liveClose = await closeBatch(stack, finance, live.storeExternalId);
    expect(liveClose.status).toBe(201);
    expect(liveClose.body).toMatchObject({
      mode: 'live',
      status: 'SETTLED',
      discrepancies: [],
      totals: [expect.objectContaining({ paymentCount: 1, grossAmount: 70 })],
    });
    expect((await stack.db.payment.findUniqueOrThrow({ where: { id: livePayment.id } })).status).toBe('SETTLED');
    expect(await stack.db.payment.findUniqueOrThrow({ where: { id: stray.id } })).toMatchObject({ status: 'CAPTURED', settledAt: null });
    expect(await stack.db.settlementLine.count({ where: { paymentId: stray.id } })).toBe(0);

    const api = settlementsApi(stack, finance);
    expect((await api.list('?mode=test')).body.content.map((b: any) => b.id)).toEqual([testClose.body.id]);
    expect((await api.list('?mode=live')).body.content.map((b: any) => b.id)).toEqual([liveClose.body.id]);
    expect((await api.list()).body.totalElements).toBe(2);
    expect(expectErrorShape(await api.list('?mode=sandbox'), 400)).toContain('mode');
  });
});
