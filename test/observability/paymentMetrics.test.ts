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

const statusCount = async (status: string): Promise<number> => {
  const text = await (await fetch(stack.metricsUrl!)).text();
  const m = new RegExp(`isp_payment_status_events_total\\{status="${status}"\\} (\\d+)`).exec(text);
  return m ? Number(m[1]) : 0;
};
const capturedCount = () => statusCount('CAPTURED');

it('counts a capture once, however often it is synced', async () => {
  const before = await capturedCount();
  const shop = await openShop(stack);
  const created = await createPayment(stack, shop);
  expect(created.body.status).toBe('AWAITING_TERMINAL');
  await sim(stack).customer(shop.deviceId, { action: 'pay' });
  for (let i = 0; i < 3; i++) expect((await paymentAction(stack, shop, created.body.id, 'sync-status')).body.status).toBe('CAPTURED');
  expect(await capturedCount()).toBe(before + 1);
});

it('counts a payment refused at creation, which no workflow projects', async () => {
  const before = await statusCount('REFUSED');
  const shop = await openShop(stack);
  await stack.db.terminal.update({ where: { id: shop.terminalId }, data: { status: 'INACTIVE' } });
  expect((await createPayment(stack, shop)).body.status).toBe('REFUSED');
  expect(await statusCount('REFUSED')).toBe(before + 1);
});
