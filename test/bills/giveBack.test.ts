import crypto from 'node:crypto';
import { billWorkflowId, openTenderUpdate } from '../../core/bill/messages';
import { call, expectErrorShape } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';
import { addTerminal, createPayment, openShop, type Shop, sim, statusBecomes } from '../payments/helpers';
import { bills } from './helpers';

/**
 * A bill's tenders at the edges (docs/bills.md): two tills racing on one bill never over-pay it;
 * given back after the void window (a refund in full by system:bill), a two-step authorisation
 * released, an acquirer that cannot be reached (CANCELLING until it can, nothing given back twice);
 * sequence numbers and the list.
 */
let stack: TestStack;
beforeAll(async () => {
  // A void window of 3 seconds: a capture older than that is refunded, not voided.
  stack = await startTestStack({ VOID_WINDOW_MINUTES: '0.05', SWEEP_INTERVAL_SECONDS: '1' });
});
afterAll(() => stack?.stop());

const b = () => bills(stack);
const createBill = (shop: Shop, over: Record<string, unknown> = {}) => b().create(shop, over);
const readBill = (shop: Shop, id: string) => b().read(shop, id);
const cancel = (shop: Shop, id: string) => b().cancel(shop, id);
const billBecomes = (shop: Shop, id: string, status: string, timeoutMs = 30_000) => b().becomes(shop, id, status, timeoutMs);

it('two tills tendering the whole bill at the same moment: one is held, the other refused naming amount', async () => {
  const shop = await openShop(stack);
  const tills = [shop, ...(await Promise.all([1, 2, 3].map(() => addTerminal(stack, shop))))];
  const bill = (await createBill(shop, { amount: 30 })).body;
  const answers = await Promise.all(tills.map((till) => createPayment(stack, till, { amount: 20, billId: bill.id })));
  expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
  for (const refused of answers.filter((a) => a.status !== 201)) {
    expectErrorShape(refused, 400);
    expect(refused.body.message).toMatch(/^amount: must be at most 10/);
  }
  const held = await readBill(shop, bill.id);
  expect(held.body.tenders).toHaveLength(1);
  expect(held.body.tenders[0]).toMatchObject({ sequenceNumber: 1, amount: 20 });
});

it('sequence numbers: a given one is kept, a taken one is 409; the list finds the bill by store and status', async () => {
  const shop = await openShop(stack);
  const till2 = await addTerminal(stack, shop);
  const bill = (await createBill(shop, { amount: 40 })).body;
  expect((await createPayment(stack, shop, { amount: 10, billId: bill.id, sequenceNumber: 4 })).body.sequenceNumber).toBe(4);
  expectErrorShape(await createPayment(stack, till2, { amount: 10, billId: bill.id, sequenceNumber: 4 }), 409);
  expect((await createPayment(stack, till2, { amount: 10, billId: bill.id })).body.sequenceNumber).toBe(5);
  const list = await call(stack.apiUrl, 'GET', `/api/in-store/bills?storeExternalId=${shop.storeExternalId}&status=OPEN`, { key: shop.key });
  expect(list.status).toBe(200);
  expect(list.body.content.map((b: { id: string }) => b.id)).toEqual([bill.id]);
  expectErrorShape(await call(stack.apiUrl, 'GET', '/api/in-store/bills?status=NOPE', { key: shop.key }), 400);
});

it('given back after the void window: the captured tender is refunded in full by system:bill, once', async () => {
  const shop = await openShop(stack);
  const bill = (await createBill(shop, { amount: 40 })).body;
  const a = await createPayment(stack, shop, { amount: 25, billId: bill.id });
  await sim(stack).customer(shop.deviceId, { action: 'pay' });
  await statusBecomes(stack, a.body.id, 'CAPTURED');
  await new Promise((r) => setTimeout(r, 4_000)); // past the 3 s void window
  expect((await cancel(shop, bill.id)).status).toBe(202);
  const done = await billBecomes(shop, bill.id, 'CANCELLED');
  expect(done.tenders[0].status).toBe('REFUNDED');
  const refunds = await stack.db.refund.findMany({ where: { paymentId: a.body.id } });
  expect(refunds.map((r) => [r.createdBy, r.amount.toNumber(), r.status])).toEqual([['system:bill', 25, 'SUCCEEDED']]);
});

it('a two-step authorisation is released; an acquirer that cannot be reached keeps the bill CANCELLING until it can', async () => {
  const shop = await openShop(stack, { twoStep: true, device: { twoStep: true } });
  const bill = (await createBill(shop, { amount: 50 })).body; // 40 authorised of 50: still OPEN
  const a = await createPayment(stack, shop, { amount: 40, billId: bill.id });
  await sim(stack).customer(shop.deviceId, { action: 'pay' });
  await statusBecomes(stack, a.body.id, 'AUTHORIZED');
  await sim(stack).configure(shop.deviceId, { reachable: false });
  expect((await cancel(shop, bill.id)).body.status).toBe('CANCELLING');
  await new Promise((r) => setTimeout(r, 3_000));
  expect((await readBill(shop, bill.id)).body.status).toBe('CANCELLING');
  expect((await stack.db.payment.findUniqueOrThrow({ where: { id: a.body.id } })).status).toBe('AUTHORIZED');
  await sim(stack).configure(shop.deviceId, { reachable: true });
  const done = await billBecomes(shop, bill.id, 'CANCELLED', 60_000);
  expect(done.tenders[0].status).toBe('CANCELLED');
  const history = await stack.db.paymentHistory.findMany({ where: { paymentId: a.body.id, status: 'CANCELLED' } });
  expect(history).toHaveLength(1);
}, 90_000);

it('a hold whose payment was never created (the creating process died in between) does not stop the give-back', async () => {
  const shop = await openShop(stack);
  const bill = (await createBill(shop, { amount: 20 })).body;
  // What an API process leaves behind when it dies after the bill held the tender and before the payment row.
  await stack.client.workflow.getHandle(billWorkflowId(bill.id)).executeUpdate(openTenderUpdate, { args: [{ paymentId: crypto.randomUUID(), amount: '10' }] });
  expect((await cancel(shop, bill.id)).status).toBe(202);
  const done = await billBecomes(shop, bill.id, 'CANCELLED');
  expect(done.tenders[0].status).toBe('FAILED');
});
