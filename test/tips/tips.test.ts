import { bills } from '../bills/helpers';
import { call, expectErrorShape } from '../support/http';
import { type TestStack, startTestStack } from '../support/stack';
import { closeBatch, settlementsApi, userOf } from '../settlement/helpers';
import { createPayment, eventually, openShop, paymentAction, type Shop, sim, statusBecomes } from '../payments/helpers';

/**
 * Tips (docs/tips.md) through the public API on the real stack with the sandbox acquirer: the
 * store's settings, asking on the terminal or sending a known tip, the total charged in every read
 * and event, refunds, void and two-step capture on the total, a bill counting only the amount, and
 * the reports (settlement lines, CSV and totals; the tips report in JSON and CSV, by role). The
 * decisions themselves are proven in test/tips/tips.unit.test.ts and the workflow lane.
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.stop();
});

const storePath = (shop: Shop) => `/api/merchants/${shop.merchantExternalId}/stores/${shop.storeExternalId}`;
const putStore = (shop: Shop, body: Record<string, unknown>) =>
  call(stack.apiUrl, 'PUT', storePath(shop), { key: shop.key, body: { name: 'Café', country: 'DE', timezone: 'Europe/Berlin', ...body } });
const read = (shop: Shop, id: string) => call(stack.apiUrl, 'GET', `/api/transactions/${id}`, { key: shop.key });
const eventsOf = (paymentId: string) => stack.db.webhookEvent.findMany({ where: { paymentId }, orderBy: { createdAt: 'asc' } });
const refund = (token: string, paymentId: string, body?: unknown) =>
  call(stack.apiUrl, 'POST', `/api/dashboard/payments/${paymentId}/refunds`, { token, ...(body === undefined ? {} : { body }) });
const tips = (token: string, query = '') => call(stack.apiUrl, 'GET', `/api/dashboard/tips${query}`, { token });

async function tippingShop(opts: Parameters<typeof openShop>[1] = {}, tipping: Record<string, unknown> = { enabled: true }): Promise<Shop> {
  const shop = await openShop(stack, opts);
  const res = await putStore(shop, { tipping });
  expect(res.status).toBe(200);
  return shop;
}

it('store settings: defaults on create, set and kept on update, each bad value a 400 naming the field that changes nothing', async () => {
  const shop = await openShop(stack);
  const created = await call(stack.apiUrl, 'POST', `/api/merchants/${shop.merchantExternalId}/stores`, {
    key: shop.key,
    body: { name: 'Salon', country: 'DE', timezone: 'Europe/Berlin' },
  });
  expect(created.status).toBe(201);
  expect(created.body.tipping).toEqual({ enabled: false, percentages: [10, 15, 20], allowCustom: true });

  const set = await putStore(shop, { tipping: { enabled: true, percentages: [5, 12], allowCustom: false } });
  expect(set.status).toBe(200);
  expect(set.body.tipping).toEqual({ enabled: true, percentages: [5, 12], allowCustom: false });
  // PUT without tipping keeps it
  expect((await putStore(shop, { city: 'Köln' })).body.tipping).toEqual({ enabled: true, percentages: [5, 12], allowCustom: false });

  for (const [tipping, field] of [
    [{ percentages: [10, 12.5] }, 'tipping.percentages[1]'],
    [{ percentages: [10, 15, 101] }, 'tipping.percentages[2]'],
    [{ percentages: [] }, 'tipping.percentages'],
    [{ percentages: [1, 2, 3, 4] }, 'tipping.percentages'],
    [{ enabled: 'yes' }, 'tipping.enabled'],
    [{ allowCustom: 1 }, 'tipping.allowCustom'],
  ] as const) {
    const res = await putStore(shop, { tipping });
    expectErrorShape(res, 400);
    expect(res.body.message).toContain(`${field}:`);
  }
  const after = await call(stack.apiUrl, 'GET', storePath(shop), { key: shop.key });
  expect(after.body.tipping).toEqual({ enabled: true, percentages: [5, 12], allowCustom: false });
});

it('asking: 400 naming tip where the store takes no tips, naming tipAmount out of bounds, and for both at once; nothing is created', async () => {
  const off = await openShop(stack);
  const before = await stack.db.payment.count({ where: { merchantId: off.merchantId } });
  const asked = await createPayment(stack, off, { amount: 40, tip: 'ASK' });
  expectErrorShape(asked, 400);
  expect(asked.body.message).toMatch(/^tip: .*tipping is off/);
  for (const [over, pattern] of [
    [{ tip: 'ASK', tipAmount: 2 }, /^tip: /],
    [{ tipAmount: 40.01 }, /^tipAmount: /],
    [{ tipAmount: -1 }, /^tipAmount: /],
    [{ tipAmount: 1.234 }, /^tipAmount: /],
    [{ tip: 'LATER' }, /^tip: /],
  ] as const) {
    const res = await createPayment(stack, off, { amount: 40, ...over });
    expectErrorShape(res, 400);
    expect(res.body.message).toMatch(pattern);
  }
  expect(await stack.db.payment.count({ where: { merchantId: off.merchantId } })).toBe(before);
});

it('asked on the terminal: a 40.00 bill, a 15 % tip; reads and the event carry the tip and the total, refunds are bounded by it, the settlement and the tips report show it', async () => {
  const shop = await tippingShop({}, { enabled: true, percentages: [10, 15, 20], allowCustom: false });
  const created = await createPayment(stack, shop, { amount: 40, tip: 'ASK', cashierId: 'ann' });
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({ amount: 40, tipAmount: 0, totalAmount: 40, tipAsked: true });
  // the device offers the store's options
  expect((await sim(stack).device(shop.deviceId)).body.currentBill).toMatchObject({ amount: '40', askTip: { percentages: [10, 15, 20], allowCustom: false } });
  // no custom amount here: 5.55 is not one of 4.00, 6.00, 8.00
  expect((await sim(stack).customer(shop.deviceId, { action: 'pay', tipAmount: 5.55 })).status).toBe(400);
  expect((await sim(stack).customer(shop.deviceId, { action: 'pay', tipAmount: 6 })).status).toBe(200);
  await statusBecomes(stack, created.body.id, 'CAPTURED');

  const one = await read(shop, created.body.id);
  expect(one.body).toMatchObject({ status: 'CAPTURED', amount: 40, tipAmount: 6, totalAmount: 46, capturedAmount: 46, refundedAmount: 0 });
  const token = await userOf(stack, shop, ['FINANCE']);
  expect((await call(stack.apiUrl, 'GET', `/api/dashboard/payments/${created.body.id}`, { token })).body).toMatchObject({ tipAmount: 6, totalAmount: 46 });
  // the card was charged the total
  expect((await sim(stack).device(shop.deviceId)).body.lastBill).toMatchObject({ status: 'CAPTURED', tipAmount: '6', capturedAmount: '46' });
  const [event] = await eventually(async () => {
    const found = await eventsOf(created.body.id);
    return found.length > 0 ? found : undefined;
  });
  expect(JSON.parse(event.body!).data).toMatchObject({ amount: '40.00', tipAmount: '6.00', totalAmount: '46.00', status: 'CAPTURED' });

  // a partial refund, then at most what is left of the total
  expect((await refund(token, created.body.id, { amount: 20 })).body).toMatchObject({ status: 'SUCCEEDED', amount: 20 });
  const over = await refund(token, created.body.id, { amount: 26.01 });
  expectErrorShape(over, 409);
  expect(over.body.message).toContain('amount');
  expect((await read(shop, created.body.id)).body).toMatchObject({ status: 'PARTIALLY_REFUNDED', refundedAmount: 20, totalAmount: 46 });

  // a payment of the same cashier without a tip counts too
  const plain = await createPayment(stack, shop, { amount: 10, cashierId: 'ann' });
  await sim(stack).customer(shop.deviceId, { action: 'pay' });
  await statusBecomes(stack, plain.body.id, 'CAPTURED');

  // settlement: the line and its CSV carry the tip; the totals hold it inside the gross; the fee is on the total
  const closed = await closeBatch(stack, token, shop.storeExternalId);
  expect(closed.status).toBe(201);
  expect(closed.body.totals).toEqual([expect.objectContaining({ currency: 'EUR', paymentCount: 2, grossAmount: 56, tipAmount: 6, refundAmount: 20 })]);
  const lines = await settlementsApi(stack, token).lines(closed.body.id);
  expect(lines.body.content.find((l: { paymentId: string; type: string }) => l.paymentId === created.body.id && l.type === 'PAYMENT')).toMatchObject({
    amount: 46,
    tipAmount: 6,
    feeAmount: 0.74, // 1.40 % of 46.00 = 0.644 -> 0.64, plus 0.10
  });
  const csv = await settlementsApi(stack, token).csv(closed.body.id);
  const [header, ...rows] = String(csv.body).trim().split('\r\n');
  expect(header.split(',')).toContain('tipAmount');
  const tipColumn = header.split(',').indexOf('tipAmount');
  expect(rows.map((r) => r.split(',')[tipColumn]).sort()).toEqual(['0', '0', '6']);

  // the tips report: per business date, store and cashier; the refund does not change it
  const report = await tips(token, `?storeExternalId=${shop.storeExternalId}`);
  expect(report.status).toBe(200);
  expect(report.body).toMatchObject({ totalElements: 1, page: 0, size: 20 });
  expect(report.body.content).toEqual([
    {
      businessDate: expect.stringMatching(/^\d{4}-\d\d-\d\d$/),
      storeExternalId: shop.storeExternalId,
      cashierId: 'ann',
      currency: 'EUR',
      count: 2,
      tipAmount: 6,
    },
  ]);
  const asCsv = await tips(token, `?storeExternalId=${shop.storeExternalId}&format=csv`);
  expect(asCsv.headers.get('content-type')).toContain('text/csv');
  expect(String(asCsv.body).split('\r\n').slice(0, 2)).toEqual([
    'businessDate,storeExternalId,cashierId,currency,count,tipAmount',
    `${report.body.content[0].businessDate},${shop.storeExternalId},ann,EUR,2,6`,
  ]);
  const date = report.body.content[0].businessDate as string;
  expect((await tips(token, `?storeExternalId=${shop.storeExternalId}&from=${date}&to=${date}`)).body.totalElements).toBe(0); // to is exclusive
  expect((await tips(token, `?storeExternalId=${shop.storeExternalId}&currency=USD`)).body.totalElements).toBe(0);
  expectErrorShape(await tips(token, '?from=yesterday'), 400);
  // roles: ADMIN reads it, others 403
  expect((await tips(await userOf(stack, shop, ['ADMIN']))).status).toBe(200);
  for (const role of ['OPERATIONS', 'COMPLIANCE', 'USER'] as const) expectErrorShape(await tips(await userOf(stack, shop, [role])), 403);
});

it('a tip the POS knows is charged on top; a void gives back the total', async () => {
  const shop = await openShop(stack); // no tipping needed to send a known tip
  const created = await createPayment(stack, shop, { amount: 10, tipAmount: 1.5 });
  expect(created.body).toMatchObject({ amount: 10, tipAmount: 1.5, totalAmount: 11.5, tipAsked: false });
  expect((await sim(stack).device(shop.deviceId)).body.currentBill).toMatchObject({ amount: '10', tipAmount: '1.5' });
  // a tip typed on the device is ignored: the payment did not ask
  await sim(stack).customer(shop.deviceId, { action: 'pay', tipAmount: 3 });
  await statusBecomes(stack, created.body.id, 'CAPTURED');
  expect((await read(shop, created.body.id)).body).toMatchObject({ tipAmount: 1.5, totalAmount: 11.5, capturedAmount: 11.5 });
  const voided = await paymentAction(stack, shop, created.body.id, 'void');
  expect(voided.body).toMatchObject({ status: 'CANCELLED', previousStatus: 'CAPTURED', totalAmount: 11.5 });
  expect((await sim(stack).device(shop.deviceId)).body.lastBill).toMatchObject({ capturedAmount: '11.5', voided: true });
});

it('two-step: AUTHORIZED with the tip; the capture takes the authorised total, at most it', async () => {
  const shop = await tippingShop({ twoStep: true, device: { twoStep: true } });
  const created = await createPayment(stack, shop, { amount: 20, tip: 'ASK' });
  await sim(stack).customer(shop.deviceId, { action: 'pay', tipAmount: 2.5 });
  await statusBecomes(stack, created.body.id, 'AUTHORIZED');
  expect((await read(shop, created.body.id)).body).toMatchObject({ amount: 20, tipAmount: 2.5, totalAmount: 22.5, capturedAmount: null });
  const capture = (body?: unknown) =>
    call(stack.apiUrl, 'POST', `/api/in-store/payments/${created.body.id}/capture`, { key: shop.key, ...(body === undefined ? {} : { body }) });
  expectErrorShape(await capture({ amount: 22.51 }), 400);
  expect((await capture()).body).toMatchObject({ status: 'CAPTURED', capturedAmount: 22.5, tipAmount: 2.5, totalAmount: 22.5 });
});

it("a bill's tender counts its amount toward the bill, never the tip", async () => {
  const shop = await tippingShop();
  const bill = (await bills(stack).create(shop, { amount: 40 })).body;
  const tender = await createPayment(stack, shop, { amount: 40, billId: bill.id, tip: 'ASK' });
  expect(tender.status).toBe(201);
  await sim(stack).customer(shop.deviceId, { action: 'pay', tipAmount: 4 });
  await statusBecomes(stack, tender.body.id, 'CAPTURED');
  const paid = await bills(stack).becomes(shop, bill.id, 'PAID');
  expect(paid).toMatchObject({ amount: 40, paidAmount: 40, remainingAmount: 0 });
  expect(paid.tenders).toEqual([expect.objectContaining({ paymentId: tender.body.id, amount: 40, tipAmount: 4 })]);
});
