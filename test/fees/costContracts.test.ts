import { adminOf, type Admin, withBackOffice, sandboxAccount } from '../acquirerAccounts/helpers';
import { createPayment, openShop, type Shop, sim, statusBecomes, storeWithTerminal } from '../payments/helpers';
import { capturedPayment, closeBatch, settlementsApi, userOf } from '../settlement/helpers';
import { call, expectErrorShape } from '../support/http';
import type { TestStack } from '../support/stack';

/**
 * Cost contracts (docs/payouts-and-fees.md) per account and currency (ADMIN writes, FINANCE reads, versioned),
 * the expected fee each captured payment is given, and the fee audit of settlement.
 */
let stack: TestStack;
let shop: Shop;
let admin: Admin;
let finance: string;

withBackOffice((o) => ({ stack, shop, admin, finance } = o));

const path = (accountId: string) => `/api/dashboard/acquirer-accounts/${accountId}/cost-contract`;
const putContract = (accountId: string, body: unknown, token = admin.token) => call(stack.apiUrl, 'PUT', path(accountId), { token, body });
const getContract = (accountId: string, currency: string, token = finance) => call(stack.apiUrl, 'GET', `${path(accountId)}?currency=${currency}`, { token });
/** A payment as FINANCE reads it: the expected fee is for the roles that read cost contracts. */
const readPayment = (id: string) => call(stack.apiUrl, 'GET', `/api/dashboard/payments/${id}`, { token: finance });
/** Routes every test payment of the business to the account from now on. */
const routeTo = async (accountId: string) => expect((await admin.saveRoutes({ mode: 'test', rules: [], defaultAccountId: accountId })).status).toBe(200);

const CONTRACT = {
  currency: 'eur',
  lines: [
    { paymentMode: 'CARD', percent: 1.4, fixed: 0.1 },
    { paymentMode: 'CARD', cardBrand: 'visa', percent: 1.2, fixed: 0.05 },
    { paymentMode: 'QR_CODE', percent: 0.9, fixed: 0 },
  ],
  disputeFee: 15,
};

describe('the cost contract', () => {
  it('ADMIN saves it (a new version each time, audited), FINANCE reads the one in force', async () => {
    const account = await sandboxAccount(admin, 'test', 'MID-FEES-1');
    const saved = await putContract(account, CONTRACT);
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({
      accountId: account,
      currency: 'EUR',
      lines: [
        { paymentMode: 'CARD', percent: 1.4, fixed: 0.1 },
        { paymentMode: 'CARD', cardBrand: 'VISA', percent: 1.2, fixed: 0.05 },
        { paymentMode: 'QR_CODE', percent: 0.9, fixed: 0 },
      ],
      disputeFee: 15,
      version: 1,
      validFrom: expect.any(String),
    });
    expect((await getContract(account, 'EUR')).body).toEqual(saved.body);
    const second = await putContract(account, { currency: 'EUR', lines: [{ paymentMode: 'CARD', percent: 1, fixed: 0 }] });
    expect(second.body).toMatchObject({ version: 2, disputeFee: null });
    expect((await getContract(account, 'EUR', admin.token)).body.version).toBe(2);
    const audited = await stack.db.auditLog.findMany({ where: { action: 'COST_CONTRACT_UPDATED', targetId: account }, orderBy: { id: 'asc' } });
    expect(audited.map((a) => (a.details as { version: number }).version)).toEqual([1, 2]);
    // None in another currency.
    expect(expectErrorShape(await getContract(account, 'USD'), 404)).toMatch(/cost contract in USD/);
  });

  it('FINANCE may not write it, other roles may not read it, another business does not see it, an API key is 401', async () => {
    const account = await sandboxAccount(admin, 'test', 'MID-FEES-2');
    expect((await putContract(account, CONTRACT)).status).toBe(200);
    expect((await putContract(account, CONTRACT, finance)).status).toBe(403);
    const operations = await userOf(stack, shop, ['OPERATIONS']);
    expect((await getContract(account, 'EUR', operations)).status).toBe(403);
    const other = await openShop(stack, { mode: 'test' });
    const otherFinance = await userOf(stack, other, ['FINANCE']);
    expect((await getContract(account, 'EUR', otherFinance)).status).toBe(404);
    const otherAdmin = await adminOf(stack, await stack.db.merchant.findUniqueOrThrow({ where: { id: other.merchantId } }));
    expect((await putContract(account, CONTRACT, otherAdmin.token)).status).toBe(404);
    expect((await call(stack.apiUrl, 'GET', `${path(account)}?currency=EUR`, { key: shop.key })).status).toBe(401);
  });

  it.each([
    ['a percent over 100', { lines: [{ paymentMode: 'CARD', percent: 100.5, fixed: 0 }] }, /lines\[0\]\.percent: must be at most 100/],
    ['a percent with 5 decimals', { lines: [{ paymentMode: 'CARD', percent: 1.23456, fixed: 0 }] }, /lines\[0\]\.percent: must have at most 4 decimal places/],
    [
      'a fixed part finer than the currency',
      { currency: 'JPY', lines: [{ paymentMode: 'CARD', percent: 1, fixed: 0.5 }] },
      /lines\[0\]\.fixed: must have at most 0 decimal places for JPY/,
    ],
    ['an unknown payment mode', { lines: [{ paymentMode: 'CASH', percent: 1, fixed: 0 }] }, /lines\[0\]\.paymentMode: must be CARD or QR_CODE/],
    ['a negative fixed part', { lines: [{ paymentMode: 'CARD', percent: 1, fixed: -0.1 }] }, /lines\[0\]\.fixed: must be 0 or more/],
    [
      'a mode and brand priced twice',
      {
        lines: [
          { paymentMode: 'CARD', cardBrand: 'VISA', percent: 1, fixed: 0 },
          { paymentMode: 'CARD', cardBrand: 'visa', percent: 2, fixed: 0 },
        ],
      },
      /lines\[1\]: prices CARD VISA a second time/,
    ],
    ['no lines', { lines: [] }, /lines: must have at least one line/],
    ['an unsupported currency', { currency: 'XXX' }, /currency: must be one of the supported currencies/],
    ['a dispute fee finer than the currency', { disputeFee: 1.234 }, /disputeFee: must have at most 2 decimal places for EUR/],
    ['a field the contract does not have', { rebate: 1 }, /rebate/],
  ])('%s: 400 naming the field, nothing saved', async (_what, over, message) => {
    const account = await sandboxAccount(admin, 'test', `MID-BAD-${Math.random().toString(36).slice(2, 8)}`);
    expect(expectErrorShape(await putContract(account, { ...CONTRACT, ...over }), 400)).toMatch(message);
    expect(await stack.db.costContract.count({ where: { accountId: account } })).toBe(0);
  });
});

describe('the expected fee', () => {
  it('each captured payment is priced by the version in force at its capture; a later version does not reprice it', async () => {
    const account = await sandboxAccount(admin, 'test', 'MID-EXPECT');
    await routeTo(account);
    await putContract(account, { currency: 'EUR', lines: [{ paymentMode: 'CARD', percent: 2, fixed: 0.3 }] });
    const first = await capturedPayment(stack, shop, 10.25); // 0.205 -> 0.21, + 0.30
    expect((await readPayment(first.id)).body).toMatchObject({ status: 'CAPTURED', expectedFee: 0.51 });
    await putContract(account, { currency: 'EUR', lines: [{ paymentMode: 'CARD', cardBrand: 'VISA', percent: 1, fixed: 0 }] });
    const second = await capturedPayment(stack, shop, 20); // the sandbox's card is a VISA
    expect((await readPayment(second.id)).body.expectedFee).toBe(0.2);
    expect((await readPayment(first.id)).body.expectedFee).toBe(0.51);
    // A QR payment the contract does not price, and a payment of the installation default: null.
    const qr = await capturedPayment(stack, shop, 5, 'QR_CODE');
    expect((await readPayment(qr.id)).body.expectedFee).toBeNull();
    const other = await openShop(stack, { mode: 'test' });
    const plain = await capturedPayment(stack, other, 5);
    const otherFinance = await userOf(stack, other, ['FINANCE']);
    expect((await call(stack.apiUrl, 'GET', `/api/dashboard/payments/${plain.id}`, { token: otherFinance })).body).toMatchObject({
      acquirerAccountId: null,
      expectedFee: null,
    });
  });

  it('is shown only to the roles that read cost contracts (ADMIN, FINANCE): absent for other roles and for API keys (issue 37)', async () => {
    const account = await sandboxAccount(admin, 'test', 'MID-EXPECT-WHO');
    await routeTo(account);
    await putContract(account, { currency: 'EUR', lines: [{ paymentMode: 'CARD', percent: 2, fixed: 0.3 }] });
    const paid = await capturedPayment(stack, shop, 10.25); // 0.21 + 0.30
    const inList = (body: { content: { id: string }[] }) => body.content.find((p) => p.id === paid.id);
    const reads = async (auth: { token: string } | { key: string }) => {
      const isKey = 'key' in auth;
      const one = await call(stack.apiUrl, 'GET', isKey ? `/api/transactions/${paid.id}` : `/api/dashboard/payments/${paid.id}`, auth);
      const list = await call(stack.apiUrl, 'GET', isKey ? `/api/transactions?q=${paid.id}` : `/api/dashboard/payments?q=${paid.id}`, auth);
      expect([one.status, list.status]).toEqual([200, 200]);
      expect(inList(list.body)).toMatchObject({ id: paid.id, status: 'CAPTURED' });
      return [one.body, inList(list.body)];
    };
    for (const token of [finance, admin.token]) {
      for (const read of await reads({ token })) expect(read).toMatchObject({ expectedFee: 0.51 });
    }
    for (const roles of [['USER'], ['OPERATIONS'], ['COMPLIANCE']] as const) {
      const token = await userOf(stack, shop, [...roles]);
      for (const read of await reads({ token })) expect(read).not.toHaveProperty('expectedFee');
    }
    for (const read of await reads({ key: shop.key })) expect(read).not.toHaveProperty('expectedFee');
    // Nor in the answer of an action taken with a key.
    const synced = await call(stack.apiUrl, 'POST', `/api/in-store/payments/${paid.id}/sync-status`, { key: shop.key });
    expect(synced.status).toBe(200);
    expect(synced.body).not.toHaveProperty('expectedFee');
    // The API description says so.
    const described = (await call(stack.apiUrl, 'GET', '/openapi.json')).body.components.schemas.Payment;
    expect(described.required).not.toContain('expectedFee');
    expect(described.properties.expectedFee.description).toMatch(/absent for other roles and for API keys/);
  });
});

describe('the fee audit of settlement', () => {
  it('a fee as contracted passes; one the acquirer charged otherwise is a FEE_MISMATCH with both amounts; totals and lines show expected against charged', async () => {
    const mid = 'MID-AUDIT';
    const account = await sandboxAccount(admin, 'test', mid);
    await routeTo(account);
    // The sandbox's default terms for this MID: 1.40 % + 0.10 on cards, as the contract says.
    await putContract(account, { currency: 'EUR', lines: [{ paymentMode: 'CARD', percent: 1.4, fixed: 0.1 }] });
    const store = await storeWithTerminal(stack, shop, { mode: 'test' });
    const fair = await capturedPayment(stack, store, 10); // 0.14 + 0.10
    const closed = await closeBatch(stack, finance, store.storeExternalId);
    expect(closed.status).toBe(201);
    expect(closed.body.discrepancies).toEqual([]);
    expect(closed.body.totals).toEqual([expect.objectContaining({ feeAmount: 0.24, expectedFeeAmount: 0.24 })]);

    // The acquirer raises its card rate without telling: 1.50 % + 0.10.
    expect((await call(stack.sandboxUrl, 'PUT', `/sim/accounts/${mid}`, { body: { cardPercent: 1.5 } })).body).toMatchObject({
      merchantAccountId: mid,
      cardPercent: '1.5',
      cardFixed: '0.10',
    });
    const overcharged = await capturedPayment(stack, store, 40); // expected 0.56 + 0.10, charged 0.60 + 0.10
    const next = await closeBatch(stack, finance, store.storeExternalId);
    expect(next.status).toBe(201);
    expect(next.body.status).toBe('DISCREPANCY');
    expect(next.body.discrepancies).toEqual([
      { type: 'FEE_MISMATCH', paymentId: overcharged.id, acquirerRef: overcharged.acquirerRef, currency: 'EUR', expectedAmount: 0.66, reportedAmount: 0.7 },
    ]);
    expect(next.body.totals).toEqual([expect.objectContaining({ grossAmount: 40, feeAmount: 0.7, expectedFeeAmount: 0.66, netAmount: 39.3 })]);
    const lines = (await settlementsApi(stack, finance).lines(next.body.id)).body.content;
    expect(lines).toEqual([expect.objectContaining({ paymentId: overcharged.id, feeAmount: 0.7, expectedFeeAmount: 0.66 })]);
    const csv = String((await settlementsApi(stack, finance).csv(next.body.id)).body)
      .trim()
      .split(/\r?\n/);
    expect(csv[0]).toMatch(/,expectedFeeAmount,disputeId,acquirerDisputeId,tipAmount$/);
    expect(csv[1]).toMatch(/,0\.66,,,0$/);
    expect(fair.id).not.toBe(overcharged.id);

    // Over the period (both batches of the store): charged 0.94 against 0.90, 0.04 to claim back.
    const audit = (query: string, token = finance) => call(stack.apiUrl, 'GET', `/api/dashboard/settlements/fee-audit?${query}`, { token });
    const period = await audit(`storeExternalId=${store.storeExternalId}&from=${closed.body.date}`);
    expect(period.status).toBe(200);
    expect(period.body).toEqual({ totals: [{ currency: 'EUR', batchCount: 2, feeAmount: 0.94, expectedFeeAmount: 0.9, overContractAmount: 0.04 }] });
    // A period with no batch: nothing; a bad date: 400 naming it; a role without finance: 403.
    expect((await audit(`storeExternalId=${store.storeExternalId}&to=2000-01-01`)).body).toEqual({ totals: [] });
    expect(expectErrorShape(await audit('from=yesterday'), 400)).toContain('from');
    expect((await audit('', await userOf(stack, shop, ['OPERATIONS']))).status).toBe(403);
  });
});

describe('tips (docs/tips.md)', () => {
  it("a tipped payment's expected fee prices the total charged, tip included, as the acquirer's fee does", async () => {
    const account = await sandboxAccount(admin, 'test', 'MID-TIPS');
    await routeTo(account);
    await putContract(account, { currency: 'EUR', lines: [{ paymentMode: 'CARD', percent: 2, fixed: 0.3 }] });
    const created = await createPayment(stack, shop, { amount: 40, tipAmount: 6 });
    expect(created.status).toBe(201);
    await sim(stack).customer(shop.deviceId, { action: 'pay' });
    await statusBecomes(stack, created.body.id, 'CAPTURED');
    // 2 % of 46.00 = 0.92, + 0.30 (on the 40.00 alone it would be 1.10)
    expect((await readPayment(created.body.id)).body).toMatchObject({ totalAmount: 46, capturedAmount: 46, expectedFee: 1.22 });
  });
});
