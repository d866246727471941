import { call } from '../support/http';
import { type TestStack, startTestStack } from '../support/stack';
import { signedInUser } from '../users/helpers';
import { createPayment, eventually, history, openShop, paymentAction, type Shop, sim, statusBecomes } from './helpers';

/**
 * Partial authorisation (issue 42, point 3) on the real stack with the sandbox acquirer: a card that
 * approves less than asked (the customer's `pay` with `approvedAmount`). Allowed: CAPTURED (or
 * AUTHORIZED on a two-step terminal) for the approved amount, with requestedAmount the amount
 * asked, in every read and event; not allowed: REFUSED for insufficient funds. Refunds, capture and
 * void work on the approved amount.
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.stop();
});

const read = (shop: Shop, id: string) => call(stack.apiUrl, 'GET', `/api/transactions/${id}`, { key: shop.key });
const events = (paymentId: string) => stack.db.webhookEvent.findMany({ where: { paymentId }, orderBy: { createdAt: 'asc' } });
const capture = (shop: Shop, id: string, body?: unknown) =>
  call(stack.apiUrl, 'POST', `/api/in-store/payments/${id}/capture`, { key: shop.key, ...(body === undefined ? {} : { body }) });

async function financeOf(shop: Shop): Promise<string> {
  const merchant = await stack.db.merchant.findUniqueOrThrow({ where: { id: shop.merchantId } });
  return (await signedInUser(stack.db, stack.apiUrl, merchant, ['FINANCE'])).token;
}
const refund = (token: string, paymentId: string, body?: unknown) =>
  call(stack.apiUrl, 'POST', `/api/dashboard/payments/${paymentId}/refunds`, { token, ...(body === undefined ? {} : { body }) });

it('allowed: a 40.00 payment the card approves for 25.00 is CAPTURED for 25.00, requestedAmount 40.00, in every read and its event', async () => {
  const shop = await openShop(stack);
  const created = await createPayment(stack, shop, { amount: 40, allowPartialAuthorisation: true });
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({ status: 'AWAITING_TERMINAL', amount: 40, requestedAmount: 40, allowPartialAuthorisation: true });
  const paid = await sim(stack).customer(shop.deviceId, { action: 'pay', approvedAmount: 25 });
  expect(paid.status).toBe(200);
  await statusBecomes(stack, created.body.id, 'CAPTURED');

  const one = await read(shop, created.body.id);
  expect(one.body).toMatchObject({ status: 'CAPTURED', amount: 25, requestedAmount: 40, capturedAmount: 25, refundedAmount: 0 });
  const list = await call(stack.apiUrl, 'GET', `/api/transactions?storeExternalId=${shop.storeExternalId}`, { key: shop.key });
  expect(list.status).toBe(200);
  expect(list.body.content.find((p: { id: string }) => p.id === created.body.id)).toMatchObject({ amount: 25, requestedAmount: 40 });
  const token = await financeOf(shop);
  const dash = await call(stack.apiUrl, 'GET', `/api/dashboard/payments/${created.body.id}`, { token });
  expect(dash.body).toMatchObject({ amount: 25, requestedAmount: 40 });
  const dashList = await call(stack.apiUrl, 'GET', '/api/dashboard/payments', { token });
  expect(dashList.body.content.find((p: { id: string }) => p.id === created.body.id)).toMatchObject({ amount: 25, requestedAmount: 40 });

  // The webhook event carries both amounts as exact decimal text.
  const [event] = await eventually(async () => {
    const found = await events(created.body.id);
    return found.length > 0 ? found : undefined;
  });
  expect(event.eventType).toBe('PAYMENT_CAPTURED');
  expect((event.payload as { data: unknown }).data).toMatchObject({ amount: '25.00', requestedAmount: '40.00', status: 'CAPTURED' });
  expect(JSON.parse(event.body!).data).toMatchObject({ amount: '25.00', requestedAmount: '40.00' });
  // The sandbox was told with the bill (over its HTTP API), and captured what it approved.
  expect((await sim(stack).device(shop.deviceId)).body.lastBill).toMatchObject({
    status: 'CAPTURED',
    amount: '40',
    allowPartialAuthorisation: true,
    authorizedAmount: '25',
    capturedAmount: '25',
  });
});

it('a payment paid in full reads requestedAmount equal to amount, and its event carries both', async () => {
  const shop = await openShop(stack);
  const created = await createPayment(stack, shop, { amount: 12.5 });
  expect(created.body).toMatchObject({ amount: 12.5, requestedAmount: 12.5, allowPartialAuthorisation: false });
  await sim(stack).customer(shop.deviceId, { action: 'pay' });
  await statusBecomes(stack, created.body.id, 'CAPTURED');
  expect((await read(shop, created.body.id)).body).toMatchObject({ amount: 12.5, requestedAmount: 12.5, capturedAmount: 12.5 });
  const [event] = await eventually(async () => {
    const found = await events(created.body.id);
    return found.length > 0 ? found : undefined;
  });
  expect(JSON.parse(event.body!).data).toMatchObject({ amount: '12.50', requestedAmount: '12.50' });
});

it('not allowed (the default): the card with a smaller balance is REFUSED for insufficient funds', async () => {
  const shop = await openShop(stack);
  const created = await createPayment(stack, shop, { amount: 40 });
  expect(created.body.allowPartialAuthorisation).toBe(false);
  await sim(stack).customer(shop.deviceId, { action: 'pay', approvedAmount: 25 });
  await statusBecomes(stack, created.body.id, 'REFUSED');
  expect((await read(shop, created.body.id)).body).toMatchObject({
    status: 'REFUSED',
    amount: 40,
    requestedAmount: 40,
    capturedAmount: null,
    refusalReason: 'declined at the terminal: insufficient funds',
  });
  const lastBill = (await sim(stack).device(shop.deviceId)).body.lastBill;
  expect(lastBill).toMatchObject({ status: 'DECLINED', errorMessage: 'insufficient funds' });
  expect(lastBill).not.toHaveProperty('allowPartialAuthorisation');
  // false said out loud is the same
  const shop2 = await openShop(stack);
  const refused = await createPayment(stack, shop2, { amount: 40, allowPartialAuthorisation: false });
  await sim(stack).customer(shop2.deviceId, { action: 'pay', approvedAmount: 39.99 });
  expect((await statusBecomes(stack, refused.body.id, 'REFUSED')).refusalReason).toBe('declined at the terminal: insufficient funds');
});

it('two-step: AUTHORIZED for the approved amount, then the capture takes at most it (all of it by default)', async () => {
  const shop = await openShop(stack, { twoStep: true, device: { twoStep: true } });
  const created = await createPayment(stack, shop, { amount: 40, allowPartialAuthorisation: true });
  await sim(stack).customer(shop.deviceId, { action: 'pay', approvedAmount: 25 });
  await statusBecomes(stack, created.body.id, 'AUTHORIZED');
  expect((await read(shop, created.body.id)).body).toMatchObject({ status: 'AUTHORIZED', amount: 25, requestedAmount: 40, capturedAmount: null });
  const over = await capture(shop, created.body.id, { amount: 25.01 });
  expect(over.status).toBe(400);
  expect(over.body.message).toContain('amount');
  const res = await capture(shop, created.body.id);
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ status: 'CAPTURED', amount: 25, requestedAmount: 40, capturedAmount: 25 });
  expect((await history(stack, created.body.id)).map((h) => h.status)).toEqual(['AWAITING_TERMINAL', 'AUTHORIZED', 'CAPTURED']);
});

it('one-step terminal, two-step device: the authorisation is completed for the approved amount', async () => {
  const shop = await openShop(stack, { device: { twoStep: true } });
  const created = await createPayment(stack, shop, { amount: 40, allowPartialAuthorisation: true });
  await sim(stack).customer(shop.deviceId, { action: 'pay', approvedAmount: 25 });
  await statusBecomes(stack, created.body.id, 'CAPTURED');
  expect((await read(shop, created.body.id)).body).toMatchObject({ amount: 25, requestedAmount: 40, capturedAmount: 25 });
  expect((await sim(stack).device(shop.deviceId)).body.lastBill).toMatchObject({ status: 'CAPTURED', capturedAmount: '25' });
});

it('refunds are bounded by the approved amount: refunded in full is 25.00, and more is refused', async () => {
  const shop = await openShop(stack);
  const created = await createPayment(stack, shop, { amount: 40, allowPartialAuthorisation: true });
  await sim(stack).customer(shop.deviceId, { action: 'pay', approvedAmount: 25 });
  await statusBecomes(stack, created.body.id, 'CAPTURED');
  const token = await financeOf(shop);
  const beyond = await refund(token, created.body.id, { amount: 25.01 });
  expect(beyond.status).toBe(409);
  expect(beyond.body.message).toContain('amount');
  const all = await refund(token, created.body.id); // all that is left
  expect([200, 201]).toContain(all.status);
  expect(all.body).toMatchObject({ amount: 25 });
  await statusBecomes(stack, created.body.id, 'REFUNDED');
  expect((await read(shop, created.body.id)).body).toMatchObject({ status: 'REFUNDED', amount: 25, requestedAmount: 40, refundedAmount: 25 });
  expect((await refund(token, created.body.id, { amount: 1 })).status).toBe(409);
});

it('bad input: allowPartialAuthorisation not a boolean is 400 naming it; approvedAmount out of bounds is 400 naming it', async () => {
  const shop = await openShop(stack);
  const bad = await createPayment(stack, shop, { allowPartialAuthorisation: 'yes' });
  expect(bad.status).toBe(400);
  expect(bad.body.message).toContain('allowPartialAuthorisation');
  expect(await stack.db.payment.count({ where: { merchantId: shop.merchantId } })).toBe(0);

  const created = await createPayment(stack, shop, { amount: 40, allowPartialAuthorisation: true });
  for (const approvedAmount of [0, -5, 40, 41, 25.001, 'lots']) {
    const res = await sim(stack).customer(shop.deviceId, { action: 'pay', approvedAmount });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('approvedAmount');
  }
  // nothing happened: the bill still waits
  expect((await read(shop, created.body.id)).body.status).toBe('AWAITING_TERMINAL');
});

it('settlement reports and settles the approved amount: no discrepancy, gross 25 for a 40.00 payment approved for 25.00', async () => {
  const shop = await openShop(stack);
  const created = await createPayment(stack, shop, { amount: 40, allowPartialAuthorisation: true });
  await sim(stack).customer(shop.deviceId, { action: 'pay', approvedAmount: 25 });
  await statusBecomes(stack, created.body.id, 'CAPTURED');
  const token = await financeOf(shop);
  const closed = await call(stack.apiUrl, 'POST', '/api/dashboard/settlements', { token, body: { storeExternalId: shop.storeExternalId } });
  expect(closed.status).toBe(201);
  expect(closed.body.discrepancies).toEqual([]);
  expect(closed.body.totals).toEqual([expect.objectContaining({ currency: 'EUR', paymentCount: 1, grossAmount: 25 })]);
  await statusBecomes(stack, created.body.id, 'SETTLED');
  expect((await read(shop, created.body.id)).body).toMatchObject({ status: 'SETTLED', amount: 25, requestedAmount: 40 });
});

it('a void reverses the partly approved capture: CANCELLED, previousStatus CAPTURED, the amounts unchanged', async () => {
  const shop = await openShop(stack);
  const created = await createPayment(stack, shop, { amount: 40, allowPartialAuthorisation: true });
  await sim(stack).customer(shop.deviceId, { action: 'pay', approvedAmount: 25 });
  await statusBecomes(stack, created.body.id, 'CAPTURED');
  const voided = await paymentAction(stack, shop, created.body.id, 'void');
  expect(voided.status).toBe(200);
  expect(voided.body).toMatchObject({ status: 'CANCELLED', previousStatus: 'CAPTURED', amount: 25, requestedAmount: 40, capturedAmount: 25 });
  expect((await sim(stack).device(shop.deviceId)).body.lastBill).toMatchObject({ voided: true, capturedAmount: '25' });
});
