import { startTestStack, type TestStack } from '../support/stack';
import { createPayment, openShop, sim, workflowHandle } from './helpers';

describe('debug', () => {
  let stack: TestStack;
  beforeAll(async () => { stack = await startTestStack({ PAYMENT_PLACEMENT_WAIT_SECONDS: '2' }); });
  afterAll(async () => stack?.stop());
  it('unreachable', async () => {
    const shop = await openShop(stack, { device: { reachable: false } });
    const { HttpAcquirer } = await import('../../src/acquirer/httpAdapter');
    const a = new HttpAcquirer(stack.sandboxUrl);
    for (let i = 0; i < 3; i++) {
      const t1 = Date.now();
      try { await a.sendBill({ deviceId: shop.deviceId, paymentId: 'p', pspReference: 'x', amount: '1', currency: 'EUR', modes: ['CARD'], timeoutSeconds: 10 }); } catch (e) { console.log((e as Error).message, Date.now() - t1); }
    }
    let t = Date.now();
    const first = await createPayment(stack, shop, { reference: 'r1' });
    console.log('first', first.status, Date.now() - t, JSON.stringify(first.body), JSON.stringify((await sim(stack).device(shop.deviceId)).body));
    const row = await stack.db.payment.findFirstOrThrow({ where: { merchantId: shop.merchantId } });
    await sim(stack).configure(shop.deviceId, { reachable: true });
    t = Date.now();
    const retry = await createPayment(stack, shop, { reference: 'r1' });
    console.log('retry', retry.status, Date.now() - t);
    const h = await workflowHandle(stack, row.id).fetchHistory();
    const t0 = Number(h.events![0]!.eventTime!.seconds) * 1000 + h.events![0]!.eventTime!.nanos! / 1e6;
    console.log(h.events!.map((e) => `${e.eventId} ${Math.round(Number(e.eventTime!.seconds) * 1000 + e.eventTime!.nanos! / 1e6 - t0)} ${e.eventType}`).join('\n'));
  });
});
