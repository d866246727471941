import { autoCloseScheduleId } from '../../src/settlement/autoClose';
import { addDays, businessDate } from '../../src/settlement/businessDate';
import { startTestStack, type TestStack } from '../support/stack';
import { eventually, openShop, type Shop } from '../payments/helpers';
import { capturedPayment } from './helpers';

/**
 * The daily close on the real stack (SETTLEMENT_AUTO_CLOSE, docs/settlement.md, "Closing a batch"): the worker creates its
 * Schedule; triggering it runs a cycle that closes the due store's batch (closedBy SYSTEM, the
 * business date that ended, an audit entry by SYSTEM), and no other store's: one created after its
 * last business day ended, and one the service already closed for that date. A second cycle closes
 * nothing again.
 */
let stack: TestStack;
beforeAll(async () => {
  // A long interval: the cycles of this test are the ones it triggers.
  stack = await startTestStack({ SETTLEMENT_AUTO_CLOSE: 'true', SETTLEMENT_AUTO_CLOSE_CHECK_SECONDS: '3600' });
});
afterAll(async () => {
  await stack?.client.schedule
    .getHandle(autoCloseScheduleId(stack.config))
    .delete()
    .catch(() => undefined);
  await stack?.stop();
});

const DAYS = 24 * 3600_000;

/** A store in `timezone` that has existed for a few days. */
async function olderShop(timezone: string): Promise<Shop> {
  const shop = await openShop(stack);
  await stack.db.store.update({ where: { id: shop.storeId }, data: { timezone, createdAt: new Date(Date.now() - 3 * DAYS) } });
  return shop;
}

/** Triggers the Schedule and waits for the cycle it started to finish; answers how many closes it started. */
async function runCycle(): Promise<number> {
  const schedule = stack.client.schedule.getHandle(autoCloseScheduleId(stack.config));
  const before = (await schedule.describe()).info.recentActions.length;
  await schedule.trigger();
  const action = await eventually(async () => {
    const recent = (await schedule.describe()).info.recentActions;
    return recent.length > before ? recent[recent.length - 1] : undefined;
  }, 60_000);
  const run = action.action.workflow;
  return (await stack.client.workflow.getHandle(run.workflowId, run.firstExecutionRunId).result()) as number;
}

it('closes the due store once, by SYSTEM, for the business date that ended; no other store', async () => {
  const cutoff = stack.config.SETTLEMENT_CUTOFF_HOUR;
  const due = await olderShop('Pacific/Kiritimati'); // UTC+14
  const alreadyClosed = await olderShop('Pacific/Pago_Pago'); // UTC-11
  const brandNew = await openShop(stack); // created after its last business day ended
  const duePayments = [await capturedPayment(stack, due, 11.11), await capturedPayment(stack, due, 22.22)];
  const closedPayment = await capturedPayment(stack, alreadyClosed, 5);
  const newPayment = await capturedPayment(stack, brandNew, 6);
  const closedDate = addDays(businessDate(new Date(), 'Pacific/Pago_Pago', cutoff), -1);
  await stack.db.settlementAutoClose.create({ data: { storeId: alreadyClosed.storeId, date: closedDate } });
  const dueDate = addDays(businessDate(new Date(), 'Pacific/Kiritimati', cutoff), -1);

  expect(await runCycle()).toBeGreaterThanOrEqual(1);
  const batch = await eventually(
    async () => (await stack.db.settlementBatch.findFirst({ where: { storeId: due.storeId, status: { in: ['SETTLED', 'DISCREPANCY'] } } })) ?? undefined,
    60_000,
    200,
  );
  expect(batch).toMatchObject({ closedBy: 'SYSTEM', date: dueDate, timezone: 'Pacific/Kiritimati', mode: 'live', status: 'SETTLED' });
  expect(batch.totals).toEqual([expect.objectContaining({ currency: 'EUR', paymentCount: 2, grossAmount: '33.33' })]);
  await eventually(
    async () => (await stack.db.settlementAutoClose.findUnique({ where: { storeId_date: { storeId: due.storeId, date: dueDate } } })) ?? undefined,
  );
  for (const p of duePayments) expect((await stack.db.payment.findUniqueOrThrow({ where: { id: p.id } })).status).toBe('SETTLED');
  const audited = await stack.db.auditLog.findMany({ where: { merchantId: due.merchantId, action: 'SETTLEMENT_CLOSED' } });
  expect(audited).toEqual([expect.objectContaining({ actorType: 'SYSTEM', targetId: batch.id })]);

  // no other store: the one closed already for its date, and the new one
  for (const [shop, payment] of [
    [alreadyClosed, closedPayment],
    [brandNew, newPayment],
  ] as const) {
    expect(await stack.db.settlementBatch.count({ where: { storeId: shop.storeId } })).toBe(0);
    expect((await stack.db.payment.findUniqueOrThrow({ where: { id: payment.id } })).status).toBe('CAPTURED');
  }

  // the next cycle finds the day closed: nothing again for these stores
  await runCycle();
  expect(await stack.db.settlementBatch.count({ where: { storeId: due.storeId } })).toBe(1);
  expect(await stack.db.settlementBatch.count({ where: { storeId: { in: [alreadyClosed.storeId, brandNew.storeId] } } })).toBe(0);
  expect(await stack.db.auditLog.count({ where: { merchantId: due.merchantId, action: 'SETTLEMENT_CLOSED' } })).toBe(1);
}, 240_000);
