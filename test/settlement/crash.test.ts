import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ManagedChild } from '../../src/process/child';
import { tsxNodeArgs } from '../../src/process/tsx';
import { startTestStack, TEST_SECRETS_KEY, type TestStack } from '../support/stack';
import { eventually, openShop, sleep } from '../payments/helpers';
import { capturedPayment, closeBatch, userOf } from './helpers';

/**
 * A worker killed (kill -9) in the middle of a close: the API and the sandbox run in this process,
 * the worker is a child process on the same task queue. When a worker is back, the close completes
 * once: every payment in one batch, settled once, one PAYMENT_SETTLED each.
 */
const REPO = path.resolve(__dirname, '../..');
const queue = `settle-crash-${crypto.randomBytes(4).toString('hex')}`;
let stack: TestStack;
let worker: ManagedChild | undefined;
const killed: ManagedChild[] = [];

async function startWorker(): Promise<ManagedChild> {
  const dataDir = path.join(process.env.TEST_ROOT!, `settle-worker-${crypto.randomBytes(3).toString('hex')}`);
  fs.mkdirSync(dataDir, { recursive: true });
  const child = new ManagedChild('worker', process.execPath, tsxNodeArgs(path.join(REPO, 'src/main.ts')), {
    ...process.env,
    SERVICES: 'worker',
    DATABASE_URL: process.env.TEST_DATABASE_URL!,
    TEMPORAL_ADDRESS: process.env.TEMPORAL_ADDRESS ?? process.env.TEST_TEMPORAL_ADDRESS!,
    TEMPORAL_TASK_QUEUE: queue,
    SANDBOX_URL: stack.sandboxUrl,
    DATA_DIR: dataDir,
    SECRETS_KEY: TEST_SECRETS_KEY, // the key the run's shared database is sealed under
    LOG_LEVEL: 'warn',
    OTEL_ENABLED: 'false',
    SETTLEMENT_AUTO_CLOSE: 'false',
  });
  await child.waitForLine(/^ready /, 60_000);
  return child;
}

beforeAll(async () => {
  stack = await startTestStack({ SERVICES: 'api,sandbox', TEMPORAL_TASK_QUEUE: queue });
});
afterAll(async () => {
  await worker?.stop();
  for (const child of [...killed, ...(worker ? [worker] : [])]) child.process.stdin?.destroy();
  await stack?.stop();
});

it('a close interrupted by kill -9 of the worker completes once after a restart', async () => {
  worker = await startWorker();
  const shop = await openShop(stack);
  const finance = await userOf(stack, shop, ['FINANCE']);
  const payments = [];
  for (let i = 0; i < 12; i++) payments.push(await capturedPayment(stack, shop, 10 + i));

  const closing = closeBatch(stack, finance, shop.storeExternalId);
  // Kill the worker as soon as the close has begun: it may be claiming, reconciling or settling.
  await eventually(async () => ((await stack.db.settlementBatch.count({ where: { storeId: shop.storeId } })) > 0 ? true : undefined), 30_000, 20);
  worker.process.kill('SIGKILL');
  await new Promise<void>((resolve) => (worker!.running ? worker!.once('exit', () => resolve()) : resolve()));
  killed.push(worker);
  await sleep(500);
  worker = await startWorker();

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
