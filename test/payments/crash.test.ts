import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ManagedChild } from '../../src/process/child';
import { tsxNodeArgs } from '../../src/process/tsx';
import { startTestStack, TEST_SECRETS_KEY, type TestStack } from '../support/stack';
import { createPayment, eventually, history, openShop, paymentAction, sim, sleep } from './helpers';

/**
 * The worker dies mid-payment (kill -9) and comes back: the payment settles exactly once. The API
 * and the sandbox run in this process (SERVICES=api,sandbox); the worker is a child process
 * (SERVICES=worker) on the same task queue, database and Temporal, as in a split deployment.
 */
const REPO = path.resolve(__dirname, '../..');
const queue = `crash-${crypto.randomBytes(4).toString('hex')}`;
let stack: TestStack;
let worker: ManagedChild | undefined;
const killed: ManagedChild[] = [];

async function startWorker(): Promise<ManagedChild> {
  const dataDir = path.join(process.env.TEST_ROOT!, `crash-worker-${crypto.randomBytes(3).toString('hex')}`);
  fs.mkdirSync(dataDir, { recursive: true });
  const child = new ManagedChild('worker', process.execPath, tsxNodeArgs(path.join(REPO, 'src/main.ts')), {
    ...process.env,
    SERVICES: 'worker',
    DATABASE_URL: process.env.TEST_DATABASE_URL!,
    TEMPORAL_ADDRESS: process.env.TEST_TEMPORAL_ADDRESS!,
    TEMPORAL_TASK_QUEUE: queue,
    SANDBOX_URL: stack.sandboxUrl,
    DATA_DIR: dataDir,
    SECRETS_KEY: TEST_SECRETS_KEY, // the key the run's shared database is sealed under
    LOG_LEVEL: 'warn',
    OTEL_ENABLED: 'false',
    SETTLEMENT_AUTO_CLOSE: 'false', // the daily close would walk every store of the shared test database
  });
  // main.ts resolves paths from the repository root.
  await child.waitForLine(/^ready /, 60_000);
  return child;
}

beforeAll(async () => {
  stack = await startTestStack({ SERVICES: 'api,sandbox', TEMPORAL_TASK_QUEUE: queue });
});
afterAll(async () => {
  await worker?.stop();
  // A child's stdin pipe outlives it and would keep jest waiting.
  for (const child of [...killed, ...(worker ? [worker] : [])]) child.process.stdin?.destroy();
  await stack?.stop();
});

describe('a worker killed mid-payment', () => {
  it('settles the payment exactly once after a restart: one CAPTURED history entry, one webhook event', async () => {
    worker = await startWorker();
    const shop = await openShop(stack);
    const created = await createPayment(stack, shop);
    expect(created.body.status).toBe('AWAITING_TERMINAL');

    // The customer pays while the worker dies (kill -9): it may be in the middle of reading, projecting or publishing.
    await Promise.all([sim(stack).customer(shop.deviceId, { action: 'pay' }), Promise.resolve(worker.process.kill('SIGKILL'))]);
    await new Promise<void>((resolve) => (worker!.running ? worker!.once('exit', () => resolve()) : resolve()));
    killed.push(worker);
    // A cashier keeps polling while no worker runs; the call waits for the workflow.
    const polling = paymentAction(stack, shop, created.body.id, 'sync-status');
    await sleep(500);

    worker = await startWorker();
    const synced = await polling;
    expect(synced.status).toBe(200);
    expect(synced.body.status).toBe('CAPTURED');
    await eventually(async () => ((await stack.db.webhookEvent.count({ where: { paymentId: created.body.id } })) >= 1 ? true : undefined), 30_000);
    await sleep(1000);

    const entries = await history(stack, created.body.id);
    expect(entries.map((h) => h.status)).toEqual(['AWAITING_TERMINAL', 'CAPTURED']);
    expect(await stack.db.webhookEvent.findMany({ where: { paymentId: created.body.id }, select: { eventType: true } })).toEqual([
      { eventType: 'PAYMENT_CAPTURED' },
    ]);
  }, 90_000);
});
