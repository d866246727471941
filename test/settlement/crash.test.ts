import { ChildWorkers } from '../support/childWorkers';
import { startTestStack, type TestStack } from '../support/stack';
import { eventually, openShop, sleep } from '../payments/helpers';
import { capturedPayment, closeBatch, userOf } from './helpers';

/**
 * A worker killed (kill -9) in the middle of a close: the API and the sandbox run in this process,
 * the worker is a child process on the same task queue. When a worker is back, the close completes
 * once: every payment in one batch, settled once, one PAYMENT_SETTLED each.
 */
let stack: TestStack;
const workers = new ChildWorkers('settle-crash', () => stack);

beforeAll(async () => {
  stack = await startTestStack({ SERVICES: 'api,sandbox', TEMPORAL_TASK_QUEUE: workers.queue });
});
afterAll(async () => {
  await workers.stopAll();
  await stack?.stop();
});

it('a close interrupted by kill -9 of the worker completes once after a restart', async () => {
  await workers.start();
  const shop = await openShop(stack);
  const finance = await userOf(stack, shop, ['FINANCE']);
  const payments = [];
  for (let i = 0; i < 12; i++) payments.push(await capturedPayment(stack, shop, 10 + i));

  const closing = closeBatch(stack, finance, shop.storeExternalId);
  // Kill the worker as soon as the close has begun: it may be claiming, reconciling or settling.
  await eventually(async () => ((await stack.db.settlementBatch.count({ where: { storeId: shop.storeId } })) > 0 ? true : undefined), 30_000, 20);
  await workers.killHard();
  await sleep(500);
  await workers.start();

  const res = await closing;
  expect(res.status).toBe(201);
  expect(res.body).toMatchObject({ status: 'SETTLED', totals: [{ currency: 'EUR', paymentCount: 12, grossAmount: 186 }] });

  const ids = payments.map((p) => p.id);
  expect(await stack.db.settlementLine.count({ where: { paymentId: { in: ids }, type: 'PAYMENT' } })).toBe(12);
  expect(await stack.db.settlementBatch.count({ where: { storeId: shop.storeId, status: { in: ['SETTLED', 'DISCREPANCY'] } } })).toBe(1);
  for (const id of ids) {
    expect((await stack.db.payment.findUniqueOrThrow({ where: { id } })).status).toBe('SETTLED');
    expect(await stack.db.paymentHistory.count({ where: { paymentId: id, actionReference: { startsWith: 'SETTLE-' } } })).toBe(1);
  }
  // every event recorded once, and none more after a while
  await eventually(
    async () => ((await stack.db.webhookEvent.count({ where: { paymentId: { in: ids }, eventType: 'PAYMENT_SETTLED' } })) === 12 ? true : undefined),
    30_000,
  );
  await sleep(1000);
  expect(await stack.db.webhookEvent.count({ where: { paymentId: { in: ids }, eventType: 'PAYMENT_SETTLED' } })).toBe(12);
  // nothing is left to settle
  expect((await closeBatch(stack, finance, shop.storeExternalId)).status).toBe(409);
}, 300_000);
