import { call, expectErrorShape } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';
import { addTerminal, createPayment, eventually, openShop, type Shop, sim, statusBecomes } from '../payments/helpers';
import { bills } from './helpers';

/**
 * Bills through the public API (docs/bills.md): created and found again by reference, split across
 * two terminals, cash at the till, an over-payment refused, given back on cancel and at expiry,
 * and BILL_* events once each.
 */
let stack: TestStack;
// A bill lasts a minute at least: the expiry case opens its bill first and is checked last, so the
// other cases run inside that minute instead of after it.
let expiring: Promise<{ shop: Shop; billId: string }>;
beforeAll(async () => {
  stack = await startTestStack({ VOID_WINDOW_MINUTES: '10', SWEEP_INTERVAL_SECONDS: '2' });
  expiring = openExpiringBill();
  expiring.catch(() => undefined); // awaited (and reported) by the expiry case
});
afterAll(() => stack?.stop());

const b = () => bills(stack);
const createBill = (shop: Shop, over: Record<string, unknown> = {}) => b().create(shop, over);
const readBill = (shop: Shop, id: string) => b().read(shop, id);
const billBecomes = (shop: Shop, id: string, status: string, timeoutMs = 20_000) => b().becomes(shop, id, status, timeoutMs);
const billEventsEndingWith = (id: string, last: string) => b().eventsEndingWith(id, last);
const pay = async (shop: Shop, paymentId: string) => {
  await sim(stack).customer(shop.deviceId, { action: 'pay' });
  await statusBecomes(stack, paymentId, 'CAPTURED');
};

it('create: 201 OPEN with expiresAt; the same reference again 200 with it; another amount 409; another business 404', async () => {
  const shop = await openShop(stack);
  const created = await createBill(shop, { reference: 'table-7', timeoutMinutes: 45 });
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({ reference: 'table-7', amount: 40, currency: 'EUR', paidAmount: 0, remainingAmount: 40, status: 'OPEN', tenders: [] });
  expect(Date.parse(created.body.expiresAt) - Date.parse(created.body.createdAt)).toBe(45 * 60_000);
  const again = await createBill(shop, { reference: 'table-7', timeoutMinutes: 45 });
  expect(again.status).toBe(200);
  expect(again.body.id).toBe(created.body.id);
  expectErrorShape(await createBill(shop, { reference: 'table-7', amount: 41 }), 409);
  const other = await openShop(stack);
  expect((await readBill(other, created.body.id)).status).toBe(404);
  const bad = await createBill(shop, { amount: 10.005 });
  expectErrorShape(bad, 400);
  expect(bad.body.message).toMatch(/amount/);
  expect((await createBill(shop, { timeoutMinutes: 0 })).body.message).toMatch(/timeoutMinutes/);
});

it('split across two terminals with cash: the remainder enforced, sequence numbers assigned, BILL_PAID once', async () => {
  const shop = await openShop(stack);
  const till2 = await addTerminal(stack, shop);
  const bill = (await createBill(shop, { amount: 40 })).body;
  const a = await createPayment(stack, shop, { amount: 15, billId: bill.id });
  expect(a.status).toBe(201);
  expect(a.body.sequenceNumber).toBe(1);
  // 25 remain, 15 held by the open tender on till 1: at most 25 less... what is left is 25.
  const over = await createPayment(stack, till2, { amount: 26, billId: bill.id });
  expectErrorShape(over, 400);
  expect(over.body.message).toMatch(/^amount: must be at most 25/);
  const b = await createPayment(stack, till2, { amount: 15, billId: bill.id });
  expect(b.body.sequenceNumber).toBe(2);
  expectErrorShape(await createPayment(stack, shop, { amount: 5, billId: bill.id, currency: 'USD' }), 400);
  await pay(shop, a.body.id);
  await pay(till2, b.body.id);
  await eventually(async () => ((await readBill(shop, bill.id)).body.paidAmount === 30 ? true : undefined));
  const cash = await call(stack.apiUrl, 'POST', `/api/in-store/bills/${bill.id}/tenders`, {
    key: shop.key,
    body: { method: 'CASH', amount: 10, reference: 'drawer 1' },
  });
  expect(cash.status).toBe(201);
  const paid = await billBecomes(shop, bill.id, 'PAID');
  expect(paid).toMatchObject({ paidAmount: 40, remainingAmount: 0 });
  expect(paid.tenders.map((t: { sequenceNumber: number; method: string; status: string }) => [t.sequenceNumber, t.method, t.status])).toEqual([
    [1, 'CARD', 'CAPTURED'],
    [2, 'CARD', 'CAPTURED'],
    [3, 'CASH', 'RECEIVED'],
  ]);
  const events = await billEventsEndingWith(bill.id, 'BILL_PAID');
  expect(events.map((e) => e.eventType)).toEqual(['BILL_PAID']);
  expect(events[0].data.bill).toMatchObject({ amount: '40.00', paidAmount: '40.00', status: 'PAID', toReturnAtTill: [] });
  expectErrorShape(await call(stack.apiUrl, 'POST', `/api/in-store/bills/${bill.id}/cancel`, { key: shop.key }), 409);
  // The till sends its cash again (its answer was lost): the same tender, not a second one; another amount under that reference: 409.
  const again = await call(stack.apiUrl, 'POST', `/api/in-store/bills/${bill.id}/tenders`, {
    key: shop.key,
    body: { method: 'CASH', amount: 10, reference: 'drawer 1' },
  });
  expect(again.status).toBe(201);
  expect(again.body).toMatchObject({ status: 'PAID', paidAmount: 40 });
  expect(again.body.tenders).toHaveLength(3);
  const other = await call(stack.apiUrl, 'POST', `/api/in-store/bills/${bill.id}/tenders`, {
    key: shop.key,
    body: { method: 'CASH', amount: 9, reference: 'drawer 1' },
  });
  expectErrorShape(other, 409);
  expect(other.body.message).toMatch(/^reference: tender drawer 1 of this bill was recorded with another method or amount/);
});

it('a card approving less than asked: the tender counts what it approved, the rest stays owed', async () => {
  const shop = await openShop(stack);
  const bill = (await createBill(shop, { amount: 40 })).body;
  const a = await createPayment(stack, shop, { amount: 40, billId: bill.id });
  expect(a.body.allowPartialAuthorisation).toBe(true);
  await sim(stack).customer(shop.deviceId, { action: 'pay', approvedAmount: 25 });
  await statusBecomes(stack, a.body.id, 'CAPTURED');
  const after = await eventually(async () => {
    const r = await readBill(shop, bill.id);
    return r.body.paidAmount === 25 ? r.body : undefined;
  });
  expect(after).toMatchObject({ status: 'OPEN', remainingAmount: 15 });
  expect(after.tenders[0]).toMatchObject({ status: 'CAPTURED', amount: 25, requestedAmount: 40 });
});

it('cancel: a captured tender voided, an open one cancelled, cash listed to hand back; CANCELLED and BILL_CANCELLED once', async () => {
  const shop = await openShop(stack);
  const till2 = await addTerminal(stack, shop);
  const bill = (await createBill(shop, { amount: 50 })).body;
  const a = await createPayment(stack, shop, { amount: 20, billId: bill.id });
  await pay(shop, a.body.id);
  const b = await createPayment(stack, till2, { amount: 20, billId: bill.id });
  expect(b.body.status).toBe('AWAITING_TERMINAL');
  await call(stack.apiUrl, 'POST', `/api/in-store/bills/${bill.id}/tenders`, { key: shop.key, body: { method: 'CASH', amount: 10 } });
  const cancelling = await call(stack.apiUrl, 'POST', `/api/in-store/bills/${bill.id}/cancel`, { key: shop.key });
  expect(cancelling.status).toBe(202);
  expect(cancelling.body.status).toBe('CANCELLING');
  const done = await billBecomes(shop, bill.id, 'CANCELLED', 30_000);
  expect(done.tenders.map((t: { status: string }) => t.status)).toEqual(['CANCELLED', 'CANCELLED', 'RECEIVED']);
  await statusBecomes(stack, a.body.id, 'CANCELLED');
  const events = await billEventsEndingWith(bill.id, 'BILL_CANCELLED');
  expect(events.map((e) => e.eventType)).toEqual(['BILL_CANCELLED']);
  expect(events[0].data.bill.toReturnAtTill).toEqual([{ method: 'CASH', amount: '10.00', reference: null }]);
  expectErrorShape(await call(stack.apiUrl, 'POST', `/api/in-store/bills/${bill.id}/cancel`, { key: shop.key }), 409);
});

async function openExpiringBill(): Promise<{ shop: Shop; billId: string }> {
  const shop = await openShop(stack);
  const bill = (await createBill(shop, { amount: 30, timeoutMinutes: 1 })).body;
  const a = await createPayment(stack, shop, { amount: 10, billId: bill.id });
  await pay(shop, a.body.id);
  return { shop, billId: bill.id };
}

it('expiry: a bill still OPEN at expiresAt is given back by the service, then EXPIRED and BILL_EXPIRED', async () => {
  const { shop, billId } = await expiring;
  expect((await readBill(shop, billId)).body.status).not.toBe('PAID');
  const expired = await billBecomes(shop, billId, 'EXPIRED', 90_000);
  expect(expired.tenders[0].status).toBe('CANCELLED');
  expect((await billEventsEndingWith(billId, 'BILL_EXPIRED')).map((e) => e.eventType)).toEqual(['BILL_EXPIRED']);
}, 120_000);
