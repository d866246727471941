import { startTestStack, type TestStack } from '../support/stack';
import { createPayment, history, openShop, paymentAction, sim, statusBecomes } from './helpers';

describe('smoke', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn' });
  });
  afterAll(async () => stack?.stop());

  it('creates, pays, syncs', async () => {
    const shop = await openShop(stack);
    const t0 = Date.now();
    const created = await createPayment(stack, shop);
    console.log('create ms', Date.now() - t0, created.status, created.body);
    expect(created.status).toBe(201);
    const dev = await sim(stack).device(shop.deviceId);
    console.log(dev.body.currentBill);
    await sim(stack).customer(shop.deviceId, { action: 'pay' });
    const p = await statusBecomes(stack, created.body.id, 'CAPTURED');
    const synced = await paymentAction(stack, shop, created.body.id, 'sync-status');
    console.log(synced.body, await history(stack, p.id));
  });
});
