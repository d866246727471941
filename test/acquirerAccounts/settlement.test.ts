import { type Shop, statusBecomes } from '../payments/helpers';
import { closeBatch, capturedPayment, settlementsApi } from '../settlement/helpers';
import { call } from '../support/http';
import type { TestStack } from '../support/stack';
import { type Admin, withBackOffice, sandboxAccount } from './helpers';

/**
 * Settlement per account (docs/acquirers.md): a store's close asks every account that took its payments for its
 * report (the sandbox keeps books per MID) and reconciles each; each line carries the account.
 */
let stack: TestStack;
let shop: Shop;
let admin: Admin;
let finance: string;

withBackOffice((o) => ({ stack, shop, admin, finance } = o));

it("one close reconciles the installation's and each account's report; every line names its account", async () => {
  const a = await sandboxAccount(admin, 'test', 'MID-A');
  const b = await sandboxAccount(admin, 'test', 'MID-B');
  const viaInstallation = await capturedPayment(stack, shop, 10);
  await admin.saveRoutes({ mode: 'test', rules: [], defaultAccountId: a });
  const viaA = await capturedPayment(stack, shop, 20);
  await admin.saveRoutes({ mode: 'test', rules: [], defaultAccountId: b });
  const viaB = await capturedPayment(stack, shop, 30);
  expect([viaInstallation.acquirerAccountId, viaA.acquirerAccountId, viaB.acquirerAccountId]).toEqual([null, a, b]);
  // A refund goes to the payment's account, and is settled in its report.
  const refund = await call(stack.apiUrl, 'POST', `/api/dashboard/payments/${viaA.id}/refunds`, { token: finance, body: { amount: 5 } });
  expect(refund.status).toBe(201);
  await statusBecomes(stack, viaA.id, 'PARTIALLY_REFUNDED');
  // A payment taken on the device offline under MID-B appears in B's report only.
  const offline = await call(stack.sandboxUrl, 'POST', `/sim/devices/${shop.deviceId}/offline-payments`, {
    body: { amount: 7, currency: 'EUR', merchantAccountId: 'MID-B' },
  });
  expect(offline.status).toBeLessThan(300);

  const closed = await closeBatch(stack, finance, shop.storeExternalId);
  expect(closed.status).toBe(201);
  expect(closed.body.discrepancies).toEqual([expect.objectContaining({ type: 'NOT_IN_PLATFORM', reportedAmount: 7 })]);
  expect(closed.body.totals).toEqual([expect.objectContaining({ currency: 'EUR', paymentCount: 4, grossAmount: 67, refundCount: 1, refundAmount: 5 })]);
  const lines = (await settlementsApi(stack, finance).lines(closed.body.id, '?size=50')).body.content as {
    type: string;
    paymentId: string;
    amount: number;
    acquirerAccountId: string | null;
  }[];
  const byAmount = Object.fromEntries(lines.map((l) => [`${l.type} ${l.amount}`, l.acquirerAccountId]));
  expect(byAmount).toEqual({ 'PAYMENT 10': null, 'PAYMENT 20': a, 'PAYMENT 30': b, 'REFUND 5': a, 'PAYMENT 7': b });
  // The payment first seen in B's report is recorded as B's, in the store's mode.
  const reportOnly = await stack.db.payment.findFirstOrThrow({ where: { merchantId: shop.merchantId, origin: 'SETTLEMENT_REPORT' } });
  expect(reportOnly).toMatchObject({ acquirerAccountId: b, mode: 'test', status: 'SETTLED' });
  for (const p of [viaInstallation, viaA, viaB]) expect((await stack.db.payment.findUniqueOrThrow({ where: { id: p.id } })).settledAt).not.toBeNull();

  // Each report was its own: a second close finds nothing left to settle.
  expect((await closeBatch(stack, finance, shop.storeExternalId)).status).toBe(409);
});
