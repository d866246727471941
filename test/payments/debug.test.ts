import { startTestStack, type TestStack } from '../support/stack';
import { createPayment, openShop, paymentAction, sim, workflowHandle } from './helpers';

describe('debug', () => {
  let stack: TestStack;
  beforeAll(async () => { stack = await startTestStack(); });
  afterAll(async () => stack?.stop());
  it('latency', async () => {
    const shops = await Promise.all(Array.from({ length: 8 }, () => openShop(stack)));
    for (const shop of shops) {
      let t = performance.now();
      const r = await createPayment(stack, shop);
      const c = performance.now() - t;
      await sim(stack).customer(shop.deviceId, { action: 'pay' });
      t = performance.now();
      await paymentAction(stack, shop, r.body.id, 'sync-status');
      const s = performance.now() - t;
      const h = await workflowHandle(stack, r.body.id).fetchHistory();
      const ts = (e: any) => Number(e.eventTime.seconds) * 1000 + e.eventTime.nanos / 1e6;
      const t0 = ts(h.events![0]);
      console.log(`create ${c.toFixed(0)} sync ${s.toFixed(0)}\n` + h.events!.slice(0, 14).map((e) => `${e.eventId} +${(ts(e) - t0).toFixed(0)} ${e.eventType}`).join('\n'));
    }
  });
});
