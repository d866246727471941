import { signSandboxBody } from '../../src/acquirer/sandbox/notify';
import { type Admin, withBackOffice, sandboxAccount } from '../acquirerAccounts/helpers';
import { eventually, openShop, type Shop, storeWithTerminal } from '../payments/helpers';
import { capturedPayment, closeBatch, userOf } from '../settlement/helpers';
import { call, expectErrorShape } from '../support/http';
import type { TestStack } from '../support/stack';

/**
 * Payouts and balances (docs/payouts-and-fees.md): the sandbox pays each new report's net out (IN_TRANSIT,
 * then PAID or FAILED as the MID's terms say); the service records each payout once through its
 * workflow, reconciles it with the batch it pays, announces PAYOUT_PAID or PAYOUT_FAILED once,
 * and answers the business's balances.
 */
let stack: TestStack;
let shop: Shop;
let admin: Admin;
let finance: string;

withBackOffice((o) => ({ stack, shop, admin, finance } = o));

const api = (path: string, token = finance) => call(stack.apiUrl, 'GET', path, { token });
const terms = (mid: string, body: Record<string, unknown>) => call(stack.sandboxUrl, 'PUT', `/sim/accounts/${mid}`, { body });
const payoutsOf = async (accountId: string) => (await api(`/api/dashboard/payouts?acquirerAccountId=${accountId}`)).body.content as any[];
const eventsOf = (type: string, payoutId: string) =>
  stack.db.webhookEvent.count({ where: { eventType: type, payload: { path: ['data', 'payout', 'id'], equals: payoutId } } });
const balanceOf = async (accountId: string) => ((await api('/api/dashboard/balances')).body as any[]).find((b) => b.acquirerAccountId === accountId);

/** A fresh store whose payments go to a new sandbox account with this MID (routed as the business's default). */
async function accountStore(mid: string): Promise<{ accountId: string; store: Shop }> {
  const accountId = await sandboxAccount(admin, 'test', mid);
  expect((await admin.saveRoutes({ mode: 'test', rules: [], defaultAccountId: accountId })).status).toBe(200);
  return { accountId, store: await storeWithTerminal(stack, shop, { mode: 'test' }) };
}

it('a close is paid out: recorded, reconciled with its batch, PAYOUT_PAID once, and in the balances', async () => {
  const { accountId, store } = await accountStore('MID-PAYOUT-1');
  await capturedPayment(stack, store, 10); // fee 0.14 + 0.10
  await capturedPayment(stack, store, 20); // fee 0.28 + 0.10
  const closed = await closeBatch(stack, finance, store.storeExternalId);
  expect(closed.status).toBe(201);
  expect(closed.body.totals[0].netAmount).toBe(29.38);
  const [payout] = await eventually(async () => {
    const list = await payoutsOf(accountId);
    return list.length === 1 && list[0].status === 'PAID' && list[0].expectedAmount !== null ? list : undefined;
  });
  expect(payout).toMatchObject({
    acquirerAccountId: accountId,
    acquirerPayoutId: expect.stringMatching(/^po_/),
    status: 'PAID',
    amount: 29.38,
    currency: 'EUR',
    arrivalDate: expect.stringMatching(/^\d{4}-\d\d-\d\d$/),
    batchIds: [closed.body.id],
    expectedAmount: 29.38,
    reconciled: true,
    discrepancy: null,
    failureReason: null,
  });
  expect((await api(`/api/dashboard/payouts/${payout.id}`)).body).toEqual(payout);
  await eventually(async () => ((await eventsOf('PAYOUT_PAID', payout.id)) === 1 ? true : undefined));
  expect(await balanceOf(accountId)).toEqual({ acquirerAccountId: accountId, currency: 'EUR', settledNotPaidOut: 0, inTransit: 0, paidOutLast30Days: 29.38 });
});

it('in transit until the bank decides; a failed payout shows what the bank said, returns to the balance, PAYOUT_FAILED once', async () => {
  const mid = 'MID-PAYOUT-FAIL';
  const { accountId, store } = await accountStore(mid);
  expect((await terms(mid, { payoutOutcome: 'FAILED', payoutDelayMs: 4000 })).status).toBe(200);
  await capturedPayment(stack, store, 15); // fee 0.21 + 0.10
  expect((await closeBatch(stack, finance, store.storeExternalId)).status).toBe(201);
  const [inTransit] = await eventually(async () => {
    const list = await payoutsOf(accountId);
    return list[0]?.expectedAmount !== null && list[0]?.status === 'IN_TRANSIT' ? list : undefined;
  });
  expect(inTransit).toMatchObject({ amount: 14.69, reconciled: true });
  expect(await balanceOf(accountId)).toMatchObject({ settledNotPaidOut: 0, inTransit: 14.69, paidOutLast30Days: 0 });
  const [failed] = await eventually(async () => {
    const list = await payoutsOf(accountId);
    return list[0]?.status === 'FAILED' ? list : undefined;
  }, 30_000);
  expect(failed.failureReason).toMatch(/R03/);
  expect(await balanceOf(accountId)).toMatchObject({ settledNotPaidOut: 14.69, inTransit: 0, paidOutLast30Days: 0 });
  await eventually(async () => ((await eventsOf('PAYOUT_FAILED', failed.id)) === 1 ? true : undefined));
  expect(await eventsOf('PAYOUT_PAID', failed.id)).toBe(0);
});

it('a payout short of the net of the batch it pays: PAYOUT_MISMATCH on the payout', async () => {
  const mid = 'MID-PAYOUT-SHORT';
  const { accountId, store } = await accountStore(mid);
  expect((await terms(mid, { payoutWithheld: '1.00' })).status).toBe(200);
  await capturedPayment(stack, store, 10);
  expect((await closeBatch(stack, finance, store.storeExternalId)).status).toBe(201);
  const [payout] = await eventually(async () => {
    const list = await payoutsOf(accountId);
    return list[0]?.status === 'PAID' && list[0]?.expectedAmount !== null ? list : undefined;
  });
  expect(payout).toMatchObject({
    amount: 8.76,
    expectedAmount: 9.76,
    reconciled: false,
    discrepancy: { type: 'PAYOUT_MISMATCH', expectedAmount: 9.76, amount: 8.76 },
  });
  expect((await api('/api/dashboard/payouts?status=PAID')).body.content.map((p: any) => p.id)).toContain(payout.id);
});

it('a notification that arrives twice (or again later) records one payout and announces it once', async () => {
  const { accountId, store } = await accountStore('MID-PAYOUT-TWICE');
  await capturedPayment(stack, store, 12);
  expect((await closeBatch(stack, finance, store.storeExternalId)).status).toBe(201);
  const [payout] = await eventually(async () => {
    const list = await payoutsOf(accountId);
    return list[0]?.status === 'PAID' && list[0]?.expectedAmount !== null ? list : undefined;
  });
  await eventually(async () => ((await eventsOf('PAYOUT_PAID', payout.id)) === 1 ? true : undefined));
  const body = JSON.stringify({
    deviceId: store.deviceId,
    acquirerRef: payout.acquirerPayoutId,
    event: 'PAYOUT_PAID',
    payoutId: payout.acquirerPayoutId,
    batchReference: `${payout.batchIds[0]}:${accountId}`,
  });
  for (let i = 0; i < 2; i++) {
    const res = await call(stack.apiUrl, 'POST', '/internal/acquirer/notifications', {
      rawBody: body,
      headers: { 'Content-Type': 'application/json', 'X-Sandbox-Signature': signSandboxBody(body, stack.config.SANDBOX_NOTIFY_SECRET!) },
    });
    expect(res.status).toBe(202);
  }
  await new Promise((r) => setTimeout(r, 1000));
  expect(await stack.db.payout.count({ where: { acquirerPayoutId: payout.acquirerPayoutId } })).toBe(1);
  expect(await eventsOf('PAYOUT_PAID', payout.id)).toBe(1);
});

it('ADMIN and FINANCE read payouts and balances; other roles 403, an API key 401, another business 404, a bad filter 400', async () => {
  const [any] = (await api('/api/dashboard/payouts')).body.content;
  expect(any).toBeDefined();
  expect((await api(`/api/dashboard/payouts/${any.id}`, admin.token)).status).toBe(200);
  expect((await api('/api/dashboard/balances', admin.token)).status).toBe(200);
  for (const role of ['OPERATIONS', 'COMPLIANCE', 'USER'] as const) {
    const token = await userOf(stack, shop, [role]);
    expect((await api('/api/dashboard/payouts', token)).status).toBe(403);
    expect((await api('/api/dashboard/balances', token)).status).toBe(403);
  }
  expect((await call(stack.apiUrl, 'GET', '/api/dashboard/payouts', { key: shop.key })).status).toBe(401);
  const other = await openShop(stack, { mode: 'test' });
  const otherFinance = await userOf(stack, other, ['FINANCE']);
  expect((await api(`/api/dashboard/payouts/${any.id}`, otherFinance)).status).toBe(404);
  expect((await api('/api/dashboard/balances', otherFinance)).body).toEqual([]);
  expect(expectErrorShape(await api('/api/dashboard/payouts?status=LOST'), 400)).toMatch(/status/);
});
