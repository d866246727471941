import { call } from '../support/http';
import { createPayment, paymentAction, statusBecomes } from '../payments/helpers';
import { adyenTill, readPayment, refundAs, withAdyenStack } from './adyenStack';

/**
 * Partial authorisation at an adyen account (issue 42, point 3) through the real API, worker and
 * workflow against the stand-in, every request validated against Adyen's Terminal API document:
 * the tender option AllowPartialAuthorisation in SaleData.SaleToAcquirerData, and the approved
 * amount read from PaymentResult.AmountsResp.AuthorizedAmount.
 */
const s = withAdyenStack();

/** The tender options of the PaymentRequest the stand-in received for this payment (SaleToAcquirerData, base64 JSON). */
function tenderOptionOf(tx: { saleTransactionId: { TransactionID: string } }): unknown {
  const sent = s.standIn.requests.find(
    (r) => r.body?.SaleToPOIRequest?.PaymentRequest?.SaleData?.SaleTransactionID?.TransactionID === tx.saleTransactionId.TransactionID,
  );
  const data = sent?.body.SaleToPOIRequest.PaymentRequest.SaleData.SaleToAcquirerData as string;
  return JSON.parse(Buffer.from(data, 'base64').toString('utf8')).tenderOption;
}

it('allowed: the card with 25.00 of a 40.00 payment is approved for 25.00: CAPTURED, amount 25, requestedAmount 40', async () => {
  const { shop, poiid } = await adyenTill(s);
  const created = await createPayment(s.stack, shop, { amount: 40, allowPartialAuthorisation: true });
  expect(created.body).toMatchObject({ status: 'AWAITING_TERMINAL', acquirerName: 'adyen' });
  const tx = s.standIn.customer(poiid, 'pay', { cardBrand: 'visa', last4: '4242', balance: 25 });
  expect(tx).toMatchObject({ state: 'APPROVED', amount: 25, requestedAmount: 40, partialAllowed: true });
  // Adyen's answer to a partial approval: Result Partial ("partially approved"), the approved amount as AuthorizedAmount
  expect(tx.response.SaleToPOIResponse.PaymentResponse.Response.Result).toBe('Partial');
  expect(tx.response.SaleToPOIResponse.PaymentResponse.PaymentResult.AmountsResp).toEqual({ AuthorizedAmount: 25, Currency: 'EUR' });
  await statusBecomes(s.stack, created.body.id, 'CAPTURED');
  expect((await readPayment(s, created.body.id)).body).toMatchObject({ status: 'CAPTURED', amount: 25, requestedAmount: 40, capturedAmount: 25 });
  expect(tenderOptionOf(tx)).toBe('AllowPartialAuthorisation');

  // refunds are bounded by what was approved
  const beyond = await refundAs(s, created.body.id, 25.01);
  expect(beyond.status).toBe(409);
  expect(beyond.body.message).toContain('amount');
  expect((await refundAs(s, created.body.id, 25)).body).toMatchObject({ amount: 25 });
  await statusBecomes(s.stack, created.body.id, 'REFUNDED');
});

it('not allowed: the same card is declined as Adyen declines it (Not enough balance): REFUSED, and no tender option sent', async () => {
  const { shop, poiid } = await adyenTill(s);
  const created = await createPayment(s.stack, shop, { amount: 40 });
  const tx = s.standIn.customer(poiid, 'pay', { balance: 25 });
  expect(tx).toMatchObject({ state: 'DECLINED', amount: 40, partialAllowed: false });
  const refused = await statusBecomes(s.stack, created.body.id, 'REFUSED');
  expect(refused.refusalReason).toMatch(/Not enough balance/);
  expect((await readPayment(s, created.body.id)).body).toMatchObject({ amount: 40, requestedAmount: 40 });
  expect(tenderOptionOf(tx)).toBeUndefined();
});

it('not allowed, yet partially approved (Adyen says it does not happen): recorded as what Adyen approved, never REFUSED or ERROR, and voidable', async () => {
  const { shop, poiid } = await adyenTill(s);
  const created = await createPayment(s.stack, shop, { amount: 40 });
  const tx = s.standIn.customer(poiid, 'pay', { balance: 25, partialEvenIfNotAllowed: true });
  expect(tx).toMatchObject({ state: 'APPROVED', amount: 25, requestedAmount: 40, partialAllowed: false });
  expect(tenderOptionOf(tx)).toBeUndefined();
  await statusBecomes(s.stack, created.body.id, 'CAPTURED');
  // the payment says what was taken and what was asked, so the till sees 15.00 still unpaid
  expect((await readPayment(s, created.body.id)).body).toMatchObject({ status: 'CAPTURED', amount: 25, requestedAmount: 40, capturedAmount: 25 });
  // and the merchant, who did not want a partial payment, voids what was approved
  expect((await paymentAction(s.stack, shop, created.body.id, 'void')).status).toBe(200);
  await statusBecomes(s.stack, created.body.id, 'CANCELLED');
  expect(s.standIn.device(poiid).reversals.map((r) => [r.kind, r.amount])).toEqual([['void', 25]]);
});

it('two-step: the pre-authorisation approved for less is AUTHORIZED for it, and its capture takes the approved amount', async () => {
  const { shop, poiid } = await adyenTill(s, { twoStep: true });
  const created = await createPayment(s.stack, shop, { amount: 40, allowPartialAuthorisation: true });
  const tx = s.standIn.customer(poiid, 'pay', { balance: 25 });
  await statusBecomes(s.stack, created.body.id, 'AUTHORIZED');
  expect((await readPayment(s, created.body.id)).body).toMatchObject({ status: 'AUTHORIZED', amount: 25, requestedAmount: 40 });
  const over = await call(s.stack.apiUrl, 'POST', `/api/in-store/payments/${created.body.id}/capture`, { key: shop.key, body: { amount: 30 } });
  expect(over.status).toBe(400);
  const res = await call(s.stack.apiUrl, 'POST', `/api/in-store/payments/${created.body.id}/capture`, { key: shop.key });
  expect(res.body).toMatchObject({ status: 'CAPTURED', amount: 25, requestedAmount: 40, capturedAmount: 25 });
  expect(tx.modifications.map((m) => [m.kind, m.amount])).toEqual([['capture', { value: 2500, currency: 'EUR' }]]);
});
