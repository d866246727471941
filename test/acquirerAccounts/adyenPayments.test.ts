import { AdyenAcquirer } from '../../src/acquirer/adyen/adapter';
import { expectErrorShape } from '../support/http';
import { createPayment, paymentAction, statusBecomes } from '../payments/helpers';
import { ADYEN_MID, adyenTill, readPayment, withAdyenStack } from './adyenStack';

/**
 * An adyen account's payments through the real API, worker and workflow, against the Adyen
 * stand-in (docs/acquirers.md, "Adyen Terminal API (cloud)"): every request the adapter sends validates against Adyen's schemas.
 */
const s = withAdyenStack();

/** The stand-in's transactions for one of our payments (its SaleTransactionID). */
const transactionsOf = (poiid: string, paymentId: string) =>
  s.standIn.device(poiid).transactions.filter((t) => t.saleTransactionId.TransactionID === paymentId);

it('paid at the terminal: CAPTURED with the card brand and last 4, routed to the account', async () => {
  const { shop, poiid } = await adyenTill(s);
  const created = await createPayment(s.stack, shop, { amount: 12.5 });
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({ status: 'AWAITING_TERMINAL', acquirerAccountId: s.accountId, acquirerName: 'adyen', routeRule: 'default' });
  s.standIn.customer(poiid, 'pay', { cardBrand: 'visa', last4: '1111' });
  await statusBecomes(s.stack, created.body.id, 'CAPTURED');
  const read = await readPayment(s, created.body.id);
  expect(read.body).toMatchObject({ status: 'CAPTURED', cardBrand: 'VISA', last4: '1111', capturedAmount: 12.5 });
  expect(transactionsOf(poiid, created.body.id)).toHaveLength(1);
  expect(s.standIn.requests.filter((r) => r.deviceId === poiid).every((r) => r.merchantAccount === ADYEN_MID)).toBe(true);
});

it("a decline by the amount's last digits: REFUSED with Adyen's words", async () => {
  const { shop, poiid } = await adyenTill(s);
  const created = await createPayment(s.stack, shop, { amount: 1.24 });
  s.standIn.customer(poiid, 'pay');
  const refused = await statusBecomes(s.stack, created.body.id, 'REFUSED');
  expect(refused.refusalReason).toMatch(/Not enough balance/i);
});

it('cancelled while waiting: the AbortRequest withdraws it from the terminal', async () => {
  const { shop, poiid } = await adyenTill(s);
  const created = await createPayment(s.stack, shop, { amount: 7 });
  const cancelled = await paymentAction(s.stack, shop, created.body.id, 'cancel');
  expect([cancelled.status, cancelled.body]).toEqual([200, expect.objectContaining({ status: 'CANCELLED' })]);
  await statusBecomes(s.stack, created.body.id, 'CANCELLED');
  expect(transactionsOf(poiid, created.body.id).map((t) => t.state)).toEqual(['ABORTED']);
  expect(s.standIn.requests.some((r) => r.deviceId === poiid && r.body?.SaleToPOIRequest?.AbortRequest)).toBe(true);
});

it('a terminal busy with another sale system: the payment is REFUSED, nothing else happens on the terminal', async () => {
  const { shop, poiid } = await adyenTill(s);
  // Another till's sale system occupies the terminal first.
  const other = new AdyenAcquirer({ apiKey: 'AQEotherTill', environment: 'TEST', merchantAccountId: ADYEN_MID, apiBase: s.standIn.url });
  await other.sendBill({
    paymentId: 'pay_elsewhere',
    pspReference: 'ELSEWHERE1',
    deviceId: poiid,
    amount: '3.00',
    currency: 'EUR',
    modes: ['CARD'],
    timeoutSeconds: 60,
  });
  const created = await createPayment(s.stack, shop, { amount: 5 });
  expect(created.status).toBe(201);
  expect(created.body.status).toBe('REFUSED');
  expect(transactionsOf(poiid, created.body.id).map((t) => t.state)).toEqual(['BUSY']);
  // The terminal is not wedged: once the other sale is gone, the next payment goes through.
  s.standIn.customer(poiid, 'cancel');
  expect((await createPayment(s.stack, shop, { amount: 5 })).body.status).toBe('AWAITING_TERMINAL');
});

it('the answer to the PaymentRequest lost in transit: a status read finds it, nothing is paid twice', async () => {
  const { shop, poiid } = await adyenTill(s);
  s.standIn.loseNextAnswer(poiid, 'PaymentRequest');
  const created = await createPayment(s.stack, shop, { amount: 9 });
  const id = created.status === 201 ? created.body.id : (await s.stack.db.payment.findFirstOrThrow({ where: { terminalId: shop.terminalId } })).id;
  s.standIn.customer(poiid, 'pay');
  await statusBecomes(s.stack, id, 'CAPTURED');
  const lost = s.standIn.requests.filter((r) => r.deviceId === poiid && r.outcome === 'lost');
  expect(lost.map((r) => Object.keys(r.body.SaleToPOIRequest))).toEqual([['MessageHeader', 'PaymentRequest']]);
  expect(transactionsOf(poiid, id)).toHaveLength(1);
});

it('an unreachable terminal: 503 until it answers, then the same payment goes through once', async () => {
  const { shop, poiid } = await adyenTill(s);
  s.standIn.unreachable(poiid, true);
  const reference = `unreachable-${poiid}`;
  const first = await createPayment(s.stack, shop, { amount: 4, reference });
  expect(expectErrorShape(first, 503)).toMatch(/retry with the same reference/);
  s.standIn.unreachable(poiid, false);
  const retry = await createPayment(s.stack, shop, { amount: 4, reference });
  expect(retry.status).toBe(201);
  s.standIn.customer(poiid, 'pay');
  await statusBecomes(s.stack, retry.body.id, 'CAPTURED');
  expect(transactionsOf(poiid, retry.body.id)).toHaveLength(1);
});
