/** Payment outcomes are counted in GET /metrics, once per status event. */
import { createPayment, openShop, paymentAction, sim } from '../payments/helpers';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.stop();
});

const capturedCount = async (): Promise<number> => {
  const text = await (await fetch(`${stack.apiUrl}/metrics`)).text();
  const m = /isp_payment_status_events_total\{status="CAPTURED"\} (\d+)/.exec(text);
  return m ? Number(m[1]) : 0;
};

it('counts a capture once, however often it is synced', async () => {
  const before = await capturedCount();
  const shop = await openShop(stack);
  const created = await createPayment(stack, shop);
  expect(created.body.status).toBe('AWAITING_TERMINAL');
  await sim(stack).customer(shop.deviceId, { action: 'pay' });
  for (let i = 0; i < 3; i++) expect((await paymentAction(stack, shop, created.body.id, 'sync-status')).body.status).toBe('CAPTURED');
  expect(await capturedCount()).toBe(before + 1);
});
