import { call } from '../support/http';
import { createPayment, type Shop, statusBecomes } from '../payments/helpers';
import { adyenTill, readPayment, refundAs, withAdyenStack } from '../acquirerAccounts/adyenStack';

/**
 * Tips at an adyen account (docs/tips.md, docs/acquirers.md "Tips") through the real API, worker
 * and workflow against the stand-in, every request validated against Adyen's Terminal API document
 * (its invalid list stays empty): the tender option AskGratuity with the store's options in
 * SaleToPOIData, the tip the POS knows in AmountsReq.TipAmount, and the tip read from
 * PaymentResult.AmountsResp.TipAmount inside AuthorizedAmount.
 */
const s = withAdyenStack();

const sentFor = (tx: { saleTransactionId: { TransactionID: string } }) =>
  s.standIn.requests.find((r) => r.body?.SaleToPOIRequest?.PaymentRequest?.SaleData?.SaleTransactionID?.TransactionID === tx.saleTransactionId.TransactionID)!
    .body.SaleToPOIRequest.PaymentRequest;
const decoded = (b64: string) => JSON.parse(Buffer.from(b64, 'base64').toString('utf8'));

async function tipping(shop: Shop) {
  const res = await call(s.stack.apiUrl, 'PUT', `/api/merchants/${shop.merchantExternalId}/stores/${shop.storeExternalId}`, {
    key: shop.key,
    body: { name: 'Café', country: 'DE', timezone: 'Europe/Berlin', tipping: { enabled: true, percentages: [10, 15, 20], allowCustom: true } },
  });
  expect(res.status).toBe(200);
}

it('asked: AskGratuity with the store options; the 6.00 tip of a 40.00 payment comes back inside the authorised 46.00; refunds bounded by it', async () => {
  const { shop, poiid } = await adyenTill(s);
  await tipping(shop);
  const created = await createPayment(s.stack, shop, { amount: 40, tip: 'ASK' });
  expect(created.status).toBe(201);
  const tx = s.standIn.customer(poiid, 'pay', { tip: 6 });
  const request = sentFor(tx);
  expect(decoded(request.SaleData.SaleToAcquirerData).tenderOption).toBe('AskGratuity');
  expect(decoded(request.SaleData.SaleToPOIData)).toEqual({
    Operation: [{ Type: 'Payment', TipOptions: { TipSuggestions: { Percentage1: 10, Percentage2: 15, Percentage3: 20, TipCustom: true } } }],
  });
  expect(tx.response.SaleToPOIResponse.PaymentResponse.PaymentResult.AmountsResp).toEqual({ AuthorizedAmount: 46, Currency: 'EUR', TipAmount: 6 });
  await statusBecomes(s.stack, created.body.id, 'CAPTURED');
  expect((await readPayment(s, created.body.id)).body).toMatchObject({ amount: 40, tipAmount: 6, totalAmount: 46, capturedAmount: 46 });
  expect((await refundAs(s, created.body.id, 46.01)).status).toBe(409);
  expect((await refundAs(s, created.body.id, 46)).body).toMatchObject({ amount: 46 });
  await statusBecomes(s.stack, created.body.id, 'REFUNDED');
});

it('a tip the POS knows goes in AmountsReq.TipAmount, no tender option; charged on top', async () => {
  const { shop, poiid } = await adyenTill(s);
  const created = await createPayment(s.stack, shop, { amount: 20, tipAmount: 2.5 });
  const tx = s.standIn.customer(poiid, 'pay');
  const request = sentFor(tx);
  expect(request.PaymentTransaction.AmountsReq).toEqual({ Currency: 'EUR', RequestedAmount: 20, TipAmount: 2.5 });
  expect(decoded(request.SaleData.SaleToAcquirerData).tenderOption).toBeUndefined();
  await statusBecomes(s.stack, created.body.id, 'CAPTURED');
  expect((await readPayment(s, created.body.id)).body).toMatchObject({ amount: 20, tipAmount: 2.5, totalAmount: 22.5, capturedAmount: 22.5 });
});
