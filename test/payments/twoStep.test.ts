import { createLogger } from '../../src/logger';
import { sweepOverduePayments } from '../../src/payments/sweep';
import { call } from '../support/http';
import { type TestStack, startTestStack } from '../support/stack';
import { createPayment, eventually, history, openShop, paymentAction, type Shop, sim, statusBecomes, workflowHandle } from './helpers';

/**
 * Two-step payments (docs/payments.md, "Two-step completion") on the real stack: completion (all or part), release by cancel
 * (also one the acquirer does not answer at first), expiry of an authorisation nobody completes, a
 * capture the acquirer cannot confirm at once (and what is refused while it is kept), and a
 * one-step terminal whose device authorises.
 */
let stack: TestStack;
beforeAll(async () => {
  // A 6-second authorisation window so that expiry is seen in a test.
  stack = await startTestStack({ AUTHORIZATION_WINDOW_MINUTES: '0.1' });
});
afterAll(async () => {
  await stack?.stop();
});

const capture = (shop: Shop, id: string, body?: unknown) =>
  call(stack.apiUrl, 'POST', `/api/in-store/payments/${id}/capture`, { key: shop.key, ...(body === undefined ? {} : { body }) });

/** A payment on a two-step terminal that the customer has paid: AUTHORIZED. */
async function authorized(shop: Shop, amount = 40): Promise<string> {
  const created = await createPayment(stack, shop, { amount });
  expect(created.status).toBe(201);
  await sim(stack).customer(shop.deviceId, { action: 'pay' });
  await statusBecomes(stack, created.body.id, 'AUTHORIZED');
  return created.body.id as string;
}

it('completes all of an authorisation: CAPTURED with capturedAmount and capturedAt; the void window runs from the capture', async () => {
  const shop = await openShop(stack, { twoStep: true, device: { twoStep: true } });
  const id = await authorized(shop);
  const before = await stack.db.payment.findUniqueOrThrow({ where: { id } });
  expect(before.authorizedAt).not.toBeNull();
  const res = await capture(shop, id);
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ status: 'CAPTURED', capturedAmount: 40, amount: 40, refundedAmount: 0 });
  expect(Date.parse(res.body.capturedAt)).toBeGreaterThanOrEqual(before.authorizedAt!.getTime());
  expect((await history(stack, id)).map((h) => h.status)).toEqual(['AWAITING_TERMINAL', 'AUTHORIZED', 'CAPTURED']);
  // a second capture: 409
  expect((await capture(shop, id)).status).toBe(409);
  // and it can be voided like any capture
  expect((await paymentAction(stack, shop, id, 'void')).body.status).toBe('CANCELLED');
});

it('completes part of an authorisation; more than authorised is 400 naming amount and changes nothing', async () => {
  const shop = await openShop(stack, { twoStep: true, device: { twoStep: true } });
  const id = await authorized(shop, 50);
  const over = await capture(shop, id, { amount: 50.01 });
  expect(over.status).toBe(400);
  expect(over.body.message).toContain('amount');
  const decimals = await capture(shop, id, { amount: 1.234 });
  expect(decimals.status).toBe(400);
  expect((await stack.db.payment.findUniqueOrThrow({ where: { id } })).status).toBe('AUTHORIZED');
  const res = await capture(shop, id, { amount: 30.25 });
  expect(res.body).toMatchObject({ status: 'CAPTURED', amount: 50, capturedAmount: 30.25 });
  expect((await sim(stack).device(shop.deviceId)).body.lastBill).toMatchObject({ status: 'CAPTURED', capturedAmount: '30.25' });
});

it('cancel of an AUTHORIZED payment releases the hold: CANCELLED, previousStatus AUTHORIZED', async () => {
  const shop = await openShop(stack, { twoStep: true, device: { twoStep: true } });
  const id = await authorized(shop);
  const res = await paymentAction(stack, shop, id, 'cancel');
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ status: 'CANCELLED', previousStatus: 'AUTHORIZED', capturedAmount: null });
  expect((await sim(stack).device(shop.deviceId)).body.lastBill.status).toBe('RELEASED');
  expect((await capture(shop, id)).status).toBe(409);
});

it('an authorisation nobody completes is released by the service when the window passes: CANCELLED, AUTHORIZATION_EXPIRED', async () => {
  const shop = await openShop(stack, { twoStep: true, device: { twoStep: true } });
  const id = await authorized(shop);
  const p = await statusBecomes(stack, id, 'CANCELLED', 30_000);
  expect(p).toMatchObject({ reason: 'AUTHORIZATION_EXPIRED', previousStatus: 'AUTHORIZED' });
  expect((await sim(stack).device(shop.deviceId)).body.lastBill.status).toBe('RELEASED');
  // the reference is free again: a new bill with it is a new payment
  const again = await createPayment(stack, shop, { reference: p.reference });
  expect(again.body.id).not.toBe(id);
});

it('an authorisation whose run was lost is released by the sweep once its window has passed: CANCELLED, AUTHORIZATION_EXPIRED, source SWEEP', async () => {
  const shop = await openShop(stack, { twoStep: true, device: { twoStep: true } });
  const id = await authorized(shop);
  await workflowHandle(stack, id).terminate('test: the workflow is gone');
  const sweep = () =>
    sweepOverduePayments({ config: stack.config, db: stack.db, temporal: stack.client, logger: createLogger('silent') }, { paymentIds: [id] });
  // within its window it is left alone
  await stack.db.payment.update({ where: { id }, data: { authorizedAt: new Date() } });
  expect(await sweep()).toMatchObject({ considered: 0 });
  await stack.db.payment.update({ where: { id }, data: { authorizedAt: new Date(Date.now() - 3_600_000) } });
  expect(await sweep()).toMatchObject({ considered: 1, restarted: 1 });
  const p = await statusBecomes(stack, id, 'CANCELLED', 30_000);
  expect(p).toMatchObject({ reason: 'AUTHORIZATION_EXPIRED', previousStatus: 'AUTHORIZED' });
  expect((await sim(stack).device(shop.deviceId)).body.lastBill.status).toBe('RELEASED');
  expect((await history(stack, id)).at(-1)).toMatchObject({ status: 'CANCELLED', source: 'SWEEP' });
});

it('a capture the acquirer cannot confirm is kept (200 AUTHORIZED) and completed later, even after the window', async () => {
  const shop = await openShop(stack, { twoStep: true, device: { twoStep: true } });
  const id = await authorized(shop);
  await sim(stack).configure(shop.deviceId, { reachable: false });
  const res = await capture(shop, id, { amount: 25 });
  expect(res.status).toBe(200);
  expect(res.body.status).toBe('AUTHORIZED');
  await new Promise((r) => setTimeout(r, 7000)); // the 6-second window passes while the acquirer is away
  expect((await stack.db.payment.findUniqueOrThrow({ where: { id } })).status).toBe('AUTHORIZED');
  await sim(stack).configure(shop.deviceId, { reachable: true });
  const p = await statusBecomes(stack, id, 'CAPTURED', 90_000);
  expect(p.capturedAmount!.toFixed()).toBe('25');
});

it('a terminal not linked two-step never ends AUTHORIZED: the service completes what its device authorised', async () => {
  const shop = await openShop(stack, { twoStep: false, device: { twoStep: true } });
  const created = await createPayment(stack, shop, { amount: 15 });
  await sim(stack).customer(shop.deviceId, { action: 'pay' });
  const p = await statusBecomes(stack, created.body.id, 'CAPTURED');
  expect(p.capturedAmount!.toFixed()).toBe('15');
  expect((await history(stack, created.body.id)).map((h) => h.status)).toEqual(['AWAITING_TERMINAL', 'CAPTURED']);
});

it('a one-step capture has capturedAmount equal to amount', async () => {
  const shop = await openShop(stack);
  const created = await createPayment(stack, shop, { amount: 9.99 });
  await sim(stack).customer(shop.deviceId, { action: 'pay' });
  await statusBecomes(stack, created.body.id, 'CAPTURED');
  const read = await eventually(async () => {
    const r = await call(stack.apiUrl, 'GET', `/api/transactions/${created.body.id}`, { key: shop.key });
    return r.body.capturedAmount === 9.99 ? r : undefined;
  });
  expect(read.body).toMatchObject({ capturedAmount: 9.99, refundedAmount: 0, settledAt: null, mode: 'live', origin: 'PLATFORM' });
});

it('cancel of an AUTHORIZED payment the acquirer does not answer: 200 still AUTHORIZED; a cancel later releases it', async () => {
  const shop = await openShop(stack, { twoStep: true, device: { twoStep: true } });
  const id = await authorized(shop);
  await sim(stack).configure(shop.deviceId, { reachable: false });
  const unanswered = await paymentAction(stack, shop, id, 'cancel');
  expect(unanswered.status).toBe(200);
  expect(unanswered.body.status).toBe('AUTHORIZED');
  await sim(stack).configure(shop.deviceId, { reachable: true });
  expect((await sim(stack).device(shop.deviceId)).body.lastBill.status).toBe('AUTHORIZED');
  const res = await paymentAction(stack, shop, id, 'cancel');
  expect(res.body).toMatchObject({ status: 'CANCELLED', previousStatus: 'AUTHORIZED' });
  expect((await history(stack, id)).map((h) => h.actionReference).at(-1)).toMatch(/^RELEASE-/);
});

it('while a kept capture is being completed, a cancel and a second capture are 409 and release nothing', async () => {
  const shop = await openShop(stack, { twoStep: true, device: { twoStep: true } });
  const id = await authorized(shop);
  await sim(stack).configure(shop.deviceId, { reachable: false });
  expect((await capture(shop, id)).body.status).toBe('AUTHORIZED');
  const cancel = await paymentAction(stack, shop, id, 'cancel');
  expect(cancel.status).toBe(409);
  expect(cancel.body.message).toContain('capture');
  expect((await capture(shop, id, { amount: 1 })).status).toBe(409);
  await sim(stack).configure(shop.deviceId, { reachable: true });
  const p = await statusBecomes(stack, id, 'CAPTURED', 90_000);
  expect(p.capturedAmount!.toFixed()).toBe('40');
  expect((await sim(stack).device(shop.deviceId)).body.lastBill.status).toBe('CAPTURED');
}, 120_000);
