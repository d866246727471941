/**
 * The read side of payments (docs/payments.md, "Reading payments"): one payment from the projection, its history newest first,
 * and the list with every filter and paging, isolated per business and per key mode. Rows are
 * written straight into the projection so every filter can be pinned down exactly.
 */
import { createMerchantWithKey, uniqueId } from '../support/fixtures';
import { call, expectErrorShape } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let live: Awaited<ReturnType<typeof createMerchantWithKey>>;
let other: Awaited<ReturnType<typeof createMerchantWithKey>>;

async function insertPayment(merchantId: string, fields: Record<string, unknown> = {}) {
  const id = crypto.randomUUID();
  return stack.db.payment.create({
    data: {
      id,
      merchantId,
      storeExternalId: 'store_a',
      terminalExternalId: uniqueId('term'),
      mode: 'live',
      pspReference: uniqueId('PSP'),
      status: 'CAPTURED',
      amount: '10.50',
      currency: 'EUR',
      reference: uniqueId('ref'),
      acquirerName: 'sandbox',
      terminalTimeoutMinutes: '5',
      workflowId: `payment-${id}`,
      expiresAt: new Date(),
      ...fields,
    },
  });
}

beforeAll(async () => {
  stack = await startTestStack();
  live = await createMerchantWithKey(stack.db);
  other = await createMerchantWithKey(stack.db);
});
afterAll(async () => {
  await stack?.stop();
});

describe('GET /api/transactions/{id}', () => {
  it('returns the documented payment record with an exact amount', async () => {
    const p = await insertPayment(live.merchant.id, {
      amount: '1234.56',
      cardBrand: 'VISA',
      last4: '4242',
      paymentMethod: 'CARD',
      capturedAt: new Date('2026-11-22T09:00:00Z'),
      capturedAmount: '1234.56',
      refundedAmount: '34.5',
    });
    const res = await call(stack.apiUrl, 'GET', `/api/transactions/${p.id}`, { key: live.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: p.id,
      pspReference: p.pspReference,
      status: 'CAPTURED',
      amount: 1234.56,
      requestedAmount: 1234.56,
      allowPartialAuthorisation: false,
      tipAmount: 0,
      totalAmount: 1234.56,
      tipAsked: false,
      currency: 'EUR',
      reference: p.reference,
      sequenceNumber: null,
      billId: null,
      storeExternalId: 'store_a',
      terminalExternalId: p.terminalExternalId,
      paymentMethod: 'CARD',
      cardBrand: 'VISA',
      last4: '4242',
      previousStatus: null,
      reason: null,
      refusalReason: null,
      createdAt: p.createdAt.toISOString(),
      updatedAt: p.updatedAt.toISOString(),
      capturedAt: '2026-11-22T09:00:00.000Z',
      capturedAmount: 1234.56,
      refundedAmount: 34.5,
      settledAt: null,
      mode: 'live',
      origin: 'PLATFORM',
      cashierId: null,
      customerMobile: null,
      customerEmail: null,
      acquirerAccountId: null,
      acquirerName: 'sandbox',
      routeRule: 'installation',
      disputeStatus: null,
      // expectedFee: for the roles that read cost contracts only, never for an API key (issue 37)
    });
  });

  it("is 404 for another business's payment, for the other key mode, and for an unknown id", async () => {
    const p = await insertPayment(live.merchant.id);
    expectErrorShape(await call(stack.apiUrl, 'GET', `/api/transactions/${p.id}`, { key: other.key }), 404);
    const testKey = await createMerchantWithKey(stack.db, { mode: 'test' });
    await stack.db.apiKey.update({ where: { id: testKey.apiKey.id }, data: { merchantId: live.merchant.id } });
    expectErrorShape(await call(stack.apiUrl, 'GET', `/api/transactions/${p.id}`, { key: testKey.key }), 404);
    expectErrorShape(await call(stack.apiUrl, 'GET', `/api/transactions/${crypto.randomUUID()}`, { key: live.key }), 404);
  });

  it('is 401 without a key', async () => {
    expectErrorShape(await call(stack.apiUrl, 'GET', `/api/transactions/${crypto.randomUUID()}`), 401);
  });
});

describe('GET /api/transactions/by-payment/{paymentId}', () => {
  it('lists one entry per status event, newest first', async () => {
    const p = await insertPayment(live.merchant.id, { status: 'CANCELLED', previousStatus: 'CAPTURED' });
    const at = (s: number) => new Date(Date.UTC(2026, 10, 22, 10, 0, s));
    await stack.db.paymentHistory.createMany({
      data: [
        { paymentId: p.id, sequence: 1, status: 'AWAITING_TERMINAL', previousStatus: null, actionReference: 'CREATE-1', source: 'API', occurredAt: at(1) },
        {
          paymentId: p.id,
          sequence: 2,
          status: 'CAPTURED',
          previousStatus: 'AWAITING_TERMINAL',
          actionReference: 'SYNC-2',
          source: 'TERMINAL',
          occurredAt: at(2),
        },
        { paymentId: p.id, sequence: 3, status: 'CANCELLED', previousStatus: 'CAPTURED', actionReference: 'VOID-abc', source: 'API', occurredAt: at(3) },
      ],
    });
    const res = await call(stack.apiUrl, 'GET', `/api/transactions/by-payment/${p.id}`, { key: live.key });
    expect(res.status).toBe(200);
    expect(res.body.map((e: any) => e.status)).toEqual(['CANCELLED', 'CAPTURED', 'AWAITING_TERMINAL']);
    expect(res.body[0]).toEqual({
      status: 'CANCELLED',
      previousStatus: 'CAPTURED',
      actionReference: 'VOID-abc',
      source: 'API',
      occurredAt: at(3).toISOString(),
    });
    expectErrorShape(await call(stack.apiUrl, 'GET', `/api/transactions/by-payment/${p.id}`, { key: other.key }), 404);
  });
});

describe('GET /api/transactions', () => {
  let m: Awaited<ReturnType<typeof createMerchantWithKey>>;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    m = await createMerchantWithKey(stack.db);
    const rows = [
      ['a', 'CAPTURED', '2026-11-01T10:00:00Z', 'sandbox'],
      ['b', 'REFUSED', '2026-11-02T10:00:00Z', 'sandbox'],
      ['c', 'CAPTURED', '2026-11-03T10:00:00Z', 'other-acquirer'],
      ['d', 'EXPIRED', '2026-11-04T10:00:00Z', 'sandbox'],
      ['e', 'CAPTURED', '2026-11-05T00:00:00Z', 'sandbox'],
    ] as const;
    for (const [name, status, createdAt, acquirerName] of rows) {
      const p = await insertPayment(m.merchant.id, { status, createdAt: new Date(createdAt), acquirerName, reference: `bill-${name}` });
      ids[name] = p.id;
    }
    await insertPayment(m.merchant.id, { mode: 'test', reference: 'bill-test-mode' });
    await insertPayment(other.merchant.id, { reference: 'bill-a' });
  });
  const list = async (query: string) => call(stack.apiUrl, 'GET', `/api/transactions${query}`, { key: m.key });
  const refs = (body: any) => body.content.map((p: any) => p.reference);

  it('lists the business’s own payments of the key’s mode, newest first', async () => {
    const res = await list('');
    expect(res.status).toBe(200);
    expect(refs(res.body)).toEqual(['bill-e', 'bill-d', 'bill-c', 'bill-b', 'bill-a']);
    expect(res.body).toMatchObject({ totalElements: 5, totalPages: 1, page: 0, size: 20 });
  });

  it('filters by status, acquirer, q and the from/to window', async () => {
    expect(refs((await list('?status=CAPTURED')).body)).toEqual(['bill-e', 'bill-c', 'bill-a']);
    expect(refs((await list('?acquirerName=other-acquirer')).body)).toEqual(['bill-c']);
    expect(refs((await list('?q=bill-b')).body)).toEqual(['bill-b']);
    expect(refs((await list(`?q=${ids.d}`)).body)).toEqual(['bill-d']);
    // from inclusive, to exclusive; a date means midnight UTC
    expect(refs((await list('?from=2026-11-02T10:00:00Z&to=2026-11-04T10:00:00Z')).body)).toEqual(['bill-c', 'bill-b']);
    expect(refs((await list('?from=2026-11-04&to=2026-11-05')).body)).toEqual(['bill-d']);
    expect(refs((await list(`?merchantExternalId=${m.merchant.externalId}&status=EXPIRED`)).body)).toEqual(['bill-d']);
  });

  it('pages with a 0-based page and a size of at most 100', async () => {
    const page1 = await list('?size=2&page=1');
    expect(refs(page1.body)).toEqual(['bill-c', 'bill-b']);
    expect(page1.body).toMatchObject({ totalElements: 5, totalPages: 3, page: 1, size: 2 });
    expect(refs((await list('?size=2&page=5')).body)).toEqual([]);
  });

  it.each([
    ['?size=101', /size: must be at most 100/],
    ['?size=0', /size: must be at least 1/],
    ['?page=-1', /page: must be 0 or more/],
    ['?page=x', /page: must be an integer/],
    ['?status=PAID', /status:/],
    ['?from=yesterday', /from: must be an ISO 8601 date or date-time/],
    ['?color=red', /color: unknown field/],
  ])('answers %s with 400 naming the field', async (query, message) => {
    expect(expectErrorShape(await list(query), 400)).toMatch(message);
  });

  it('is 404 when merchantExternalId names another business', async () => {
    expectErrorShape(await list(`?merchantExternalId=${other.merchant.externalId}`), 404);
  });
});
