import { ChildWorkers } from '../support/childWorkers';
import { startTestStack, type TestStack } from '../support/stack';
import { createPayment, eventually, history, openShop, paymentAction, sim, sleep } from './helpers';

/**
 * The worker dies mid-payment (kill -9) and comes back: the payment settles exactly once. The API
 * and the sandbox run in this process (SERVICES=api,sandbox); the worker is a child process
 * (SERVICES=worker) on the same task queue, database and Temporal, as in a split deployment.
 */
let stack: TestStack;
const workers = new ChildWorkers('crash', () => stack);

beforeAll(async () => {
  stack = await startTestStack({ SERVICES: 'api,sandbox', TEMPORAL_TASK_QUEUE: workers.queue });
});
afterAll(async () => {
  await workers.stopAll();
  await stack?.stop();
});

describe('a worker killed mid-payment', () => {
  it('settles the payment exactly once after a restart: one CAPTURED history entry, one webhook event', async () => {
    await workers.start();
    const shop = await openShop(stack);
    const created = await createPayment(stack, shop);
    expect(created.body.status).toBe('AWAITING_TERMINAL');

    // The customer pays while the worker dies (kill -9): it may be in the middle of reading, projecting or publishing.
    await Promise.all([sim(stack).customer(shop.deviceId, { action: 'pay' }), workers.killHard()]);
    // A cashier keeps polling while no worker runs; the call waits for the workflow.
    const polling = paymentAction(stack, shop, created.body.id, 'sync-status');
    await sleep(500);

    await workers.start();
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
