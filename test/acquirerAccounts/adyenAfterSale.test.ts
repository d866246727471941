import { createPayment, paymentAction, statusBecomes } from '../payments/helpers';
import { adyenTill, readPayment, refundAs, withAdyenStack } from './adyenStack';

/**
 * After the sale at an adyen account (docs/acquirers.md, "Adyen Terminal API (cloud)"): a void is a ReversalRequest of the whole
 * payment, a refund a referenced ReversalRequest with ReversedAmount, each once at the terminal,
 * through the real API and workflow against the stand-in.
 */
const s = withAdyenStack();

async function paid(amount: number) {
  const { shop, poiid } = await adyenTill(s);
  const created = await createPayment(s.stack, shop, { amount });
  expect(created.body.status).toBe('AWAITING_TERMINAL');
  s.standIn.customer(poiid, 'pay');
  await statusBecomes(s.stack, created.body.id, 'CAPTURED');
  return { shop, poiid, id: created.body.id as string };
}

it('a void: one ReversalRequest of the whole amount, the payment CANCELLED from CAPTURED', async () => {
  const { shop, poiid, id } = await paid(20);
  const voided = await paymentAction(s.stack, shop, id, 'void');
  expect(voided.status).toBe(200);
  await statusBecomes(s.stack, id, 'CANCELLED');
  expect((await readPayment(s, id)).body).toMatchObject({ status: 'CANCELLED', previousStatus: 'CAPTURED' });
  expect(s.standIn.device(poiid).reversals.map((r) => [r.kind, r.amount])).toEqual([['void', 20]]);
});

it('a partial refund: one referenced ReversalRequest with ReversedAmount and its currency (SaleToAcquirerData currency=EUR), the payment PARTIALLY_REFUNDED', async () => {
  const { poiid, id } = await paid(30);
  const refund = await refundAs(s, id, 12.5);
  expect(refund.status).toBeLessThan(300);
  const refunded = await statusBecomes(s.stack, id, 'PARTIALLY_REFUNDED');
  expect(refunded.refundedAmount.toString()).toBe('12.5');
  const reversals = s.standIn.device(poiid).reversals;
  expect(reversals.map((r) => [r.kind, r.amount])).toEqual([['refund', 12.5]]);
  const request = s.standIn.requests.find((r) => r.body?.SaleToPOIRequest?.ReversalRequest && r.deviceId === poiid);
  expect(request?.body.SaleToPOIRequest.ReversalRequest.ReversedAmount).toBe(12.5);
  // Adyen's partial referenced refund: the currency in SaleData.SaleToAcquirerData; the stand-in refuses a refund without it.
  expect(request?.body.SaleToPOIRequest.ReversalRequest.SaleData.SaleToAcquirerData).toBe('currency=EUR');
});
