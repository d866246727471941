import path from 'node:path';
import { readStateFiles } from '../../src/acquirer/sandbox/state';
import { ChildWorkers } from '../support/childWorkers';
import { call } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';
import { addTerminal, createPayment, eventually, history, openShop, type Shop, sim, sleep, statusBecomes } from '../payments/helpers';
import { bills } from './helpers';

/**
 * The worker dies (kill -9) in the middle of a bill's give-back, twice, and another comes back
 * (docs/bills.md, "Giving a bill back"): every card tender is given back exactly once, the bill
 * ends CANCELLED with one BILL_CANCELLED listing the cash. The API and the sandbox run in this
 * process; the worker is a child process on the same task queue. The sandbox confirms each void
 * only after a few seconds, so the kills land while a void is in flight.
 */
let stack: TestStack;
const workers = new ChildWorkers('bill-crash', () => stack);

beforeAll(async () => {
  stack = await startTestStack({ SERVICES: 'api,sandbox', TEMPORAL_TASK_QUEUE: workers.queue, SWEEP_INTERVAL_SECONDS: '2' });
});
afterAll(async () => {
  await workers.stopAll();
  await stack?.stop();
});

/** The sandbox acquirer's own books for a payment: its confirmed reversals and succeeded refunds. */
function givenBackAtAcquirer(paymentId: string): number {
  const state = readStateFiles(path.join(stack.config.DATA_DIR, 'sandbox'));
  const refs = Object.values(state?.bills ?? {})
    .filter((b) => b.paymentId === paymentId)
    .map((b) => b.acquirerRef);
  const voids = Object.values(state?.voids ?? {}).filter((v) => refs.includes(v.acquirerRef) && v.state === 'CONFIRMED').length;
  const refunds = Object.values(state?.refunds ?? {}).filter((r) => refs.includes(r.acquirerRef) && r.state === 'SUCCEEDED').length;
  return voids + refunds;
}

it('a worker killed twice during a give-back: each card voided once, CANCELLED, one BILL_CANCELLED with the cash', async () => {
  await workers.start();
  const b = bills(stack);
  const one = await openShop(stack, { device: { voidConfirmDelayMs: 3000 } });
  const two = await addTerminal(stack, one);
  await sim(stack).configure(two.deviceId, { voidConfirmDelayMs: 3000 });
  const bill = (await b.create(one, { amount: 50 })).body;
  const tender = async (till: Shop, amount: number) => {
    const p = await createPayment(stack, till, { amount, billId: bill.id });
    expect(p.status).toBe(201);
    await sim(stack).customer(till.deviceId, { action: 'pay' });
    await statusBecomes(stack, p.body.id, 'CAPTURED');
    return p.body.id as string;
  };
  const cards = [await tender(one, 20), await tender(two, 15)];
  const cash = await call(stack.apiUrl, 'POST', `/api/in-store/bills/${bill.id}/tenders`, {
    key: one.key,
    body: { method: 'CASH', amount: 5, reference: 'drawer 3' },
  });
  expect(cash.status).toBe(201);

  expect((await b.cancel(one, bill.id)).status).toBe(202);
  // First kill: the give-back has begun (the first void is in flight at the sandbox, unconfirmed).
  await sleep(500);
  await workers.killHard();
  await sleep(1000);
  await workers.start();
  // Second kill: once the first card is given back, while the second's void waits for its confirmation.
  await eventually(async () => (cards.some((id) => givenBackAtAcquirer(id) > 0) ? true : undefined), 60_000, 200);
  await workers.killHard();
  await sleep(1000);
  await workers.start();

  const cancelled = await b.becomes(one, bill.id, 'CANCELLED', 90_000);
  expect(cancelled.tenders.map((t: { status: string; method: string }) => [t.method, t.status])).toEqual([
    ['CARD', 'CANCELLED'],
    ['CARD', 'CANCELLED'],
    ['CASH', 'RECEIVED'],
  ]);
  for (const id of cards) expect(givenBackAtAcquirer(id)).toBe(1);
  // Each payment's own history: voided once (CAPTURED to CANCELLED, a single entry).
  for (const id of cards) expect((await history(stack, id)).filter((h) => h.status === 'CANCELLED').map((h) => h.previousStatus)).toEqual(['CAPTURED']);
  const events = await b.eventsEndingWith(bill.id, 'BILL_CANCELLED');
  expect(events.map((e) => e.eventType)).toEqual(['BILL_CANCELLED']);
  expect(events[0].data.bill.toReturnAtTill).toEqual([{ method: 'CASH', amount: '5.00', reference: 'drawer 3' }]);
}, 240_000);
