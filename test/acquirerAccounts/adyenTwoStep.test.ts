import { call } from '../support/http';
import { createPayment, history, paymentAction, type Shop, statusBecomes } from '../payments/helpers';
import { ADYEN_MID, adyenTill, readPayment, refundAs, withAdyenStack } from './adyenStack';

/**
 * Two-step payments at an adyen account (docs/payments.md, "Two-step completion"; docs/acquirers.md) through the real API, worker and
 * workflow against the stand-in: the bill is a pre-authorisation at the terminal, completed
 * (captured) or released (cancelled) through Adyen's Checkout modifications, every request
 * validated against Adyen's documents (TerminalAPI-v1.json, CheckoutService-v72.json).
 */
// A 12-second authorisation window, so that its expiry is seen in a test.
const s = withAdyenStack({ AUTHORIZATION_WINDOW_MINUTES: '0.2' });

const capture = (shop: Shop, id: string, body?: unknown) =>
  call(s.stack.apiUrl, 'POST', `/api/in-store/payments/${id}/capture`, { key: shop.key, ...(body === undefined ? {} : { body }) });

/** A payment on a two-step till that the customer paid: AUTHORIZED, a pre-authorisation at the stand-in. */
async function authorized(amount: number) {
  const { shop, poiid } = await adyenTill(s, { twoStep: true });
  const created = await createPayment(s.stack, shop, { amount });
  expect(created.body).toMatchObject({ status: 'AWAITING_TERMINAL', acquirerName: 'adyen' });
  const tx = s.standIn.customer(poiid, 'pay', { cardBrand: 'visa', last4: '4242' });
  await statusBecomes(s.stack, created.body.id, 'AUTHORIZED');
  expect(tx).toMatchObject({ preAuth: true, state: 'APPROVED' });
  return { shop, poiid, tx, id: created.body.id as string };
}

/** The Checkout requests the stand-in received for this pre-authorisation. */
const modificationRequests = (psp: string) => s.standIn.requests.filter((r) => r.paymentPspReference === psp);

it('authorised at the terminal: AUTHORIZED, with the card, and nothing captured', async () => {
  const { id } = await authorized(40);
  expect((await readPayment(s, id)).body).toMatchObject({ status: 'AUTHORIZED', cardBrand: 'VISA', last4: '4242', capturedAmount: null });
});

it('a capture of all of it: one Checkout capture with our reference as Idempotency-Key, CAPTURED with capturedAmount', async () => {
  const { shop, tx, id } = await authorized(40);
  const res = await capture(shop, id);
  expect([res.status, res.body]).toEqual([
    200,
    expect.objectContaining({ status: 'CAPTURED', amount: 40, capturedAmount: 40, cardBrand: 'VISA', last4: '4242' }),
  ]);
  const [sent] = modificationRequests(tx.pspReference);
  expect(sent).toMatchObject({ operation: 'captures', valid: true, outcome: 'answered', status: 201, merchantAccount: ADYEN_MID });
  expect(sent.body).toEqual({ merchantAccount: ADYEN_MID, amount: { value: 4000, currency: 'EUR' }, reference: sent.idempotencyKey });
  expect(sent.idempotencyKey).toMatch(/^CAPTURE-/);
  expect(tx.modifications.map((m) => [m.kind, m.amount])).toEqual([['capture', { value: 4000, currency: 'EUR' }]]);
  expect((await history(s.stack, id)).map((h) => h.status)).toEqual(['AWAITING_TERMINAL', 'AUTHORIZED', 'CAPTURED']);
  // Adyen's CAPTURE notification nudges a re-read, which still shows the pre-authorisation: the payment stays CAPTURED.
  await s.standIn.notificationsSettled();
  expect(s.standIn.notifications.some((n) => n.body.notificationItems?.[0]?.NotificationRequestItem?.eventCode === 'CAPTURE')).toBe(true);
  expect((await readPayment(s, id)).body).toMatchObject({ status: 'CAPTURED', capturedAmount: 40 });
});

it('a capture of part of it: CAPTURED for that part, and a second capture is refused (409) without reaching Adyen', async () => {
  const { shop, tx, id } = await authorized(50);
  const res = await capture(shop, id, { amount: 30.25 });
  expect(res.body).toMatchObject({ status: 'CAPTURED', amount: 50, capturedAmount: 30.25 });
  expect(tx.captured).toBe(30.25);
  expect((await capture(shop, id)).status).toBe(409);
  expect(modificationRequests(tx.pspReference).map((r) => r.body.amount)).toEqual([{ value: 3025, currency: 'EUR' }]);
});

it('cancel of an AUTHORIZED payment releases the hold through a Checkout cancel: CANCELLED, previousStatus AUTHORIZED', async () => {
  const { shop, tx, id } = await authorized(25);
  const res = await paymentAction(s.stack, shop, id, 'cancel');
  expect([res.status, res.body]).toEqual([200, expect.objectContaining({ status: 'CANCELLED', previousStatus: 'AUTHORIZED', capturedAmount: null })]);
  expect(modificationRequests(tx.pspReference).map((r) => [r.operation, r.status, r.idempotencyKey, r.body.reference])).toEqual([
    ['cancels', 201, `RELEASE-${id}`, `RELEASE-${id}`],
  ]);
  expect(tx.cancelled).toBe(true);
  expect((await capture(shop, id)).status).toBe(409);
});

it('an authorisation nobody completes is released by the service when the window passes: CANCELLED, AUTHORIZATION_EXPIRED', async () => {
  const { tx, id } = await authorized(12);
  const p = await statusBecomes(s.stack, id, 'CANCELLED', 45_000);
  expect(p).toMatchObject({ reason: 'AUTHORIZATION_EXPIRED', previousStatus: 'AUTHORIZED' });
  expect(tx.modifications.map((m) => [m.kind, m.reference])).toEqual([['cancel', `RELEASE-${id}`]]);
}, 60_000);

it('a capture whose answers are lost: kept (200 AUTHORIZED), completed later with the same key, captured once at Adyen', async () => {
  const { shop, tx, id } = await authorized(20);
  // Both of the API call's quick attempts reach Adyen and lose their answer; the workflow's follow-up gets one.
  s.standIn.loseNextModification('lost', 2);
  const res = await capture(shop, id, { amount: 15 });
  expect([res.status, res.body.status]).toEqual([200, 'AUTHORIZED']);
  const p = await statusBecomes(s.stack, id, 'CAPTURED', 45_000);
  expect(p.capturedAmount!.toFixed()).toBe('15');
  const sent = modificationRequests(tx.pspReference);
  expect(sent.map((r) => [r.outcome, r.repeated])).toEqual([
    ['lost', false],
    ['lost', true],
    ['answered', true],
  ]);
  expect(new Set(sent.map((r) => r.idempotencyKey)).size).toBe(1);
  expect(s.standIn.modifications().filter((m) => m.tx === tx)).toHaveLength(1);
}, 60_000);

it('a refund of a captured two-step payment: a referenced ReversalRequest, up to what was captured', async () => {
  const { shop, poiid, tx, id } = await authorized(40);
  expect((await capture(shop, id, { amount: 30 })).body.status).toBe('CAPTURED');
  const refund = await refundAs(s, id, 10);
  expect(refund.status).toBeLessThan(300);
  const refunded = await statusBecomes(s.stack, id, 'PARTIALLY_REFUNDED');
  expect(refunded.refundedAmount.toString()).toBe('10');
  expect(s.standIn.device(poiid).reversals.map((r) => [r.kind, r.amount, r.originalPsp])).toEqual([['refund', 10, tx.pspReference]]);
  // What remains of the capture (20), not of the authorisation (30), can still be refunded.
  expect((await refundAs(s, id, 20.01)).status).toBe(409);
  expect((await refundAs(s, id, 20)).status).toBeLessThan(300);
  await statusBecomes(s.stack, id, 'REFUNDED');
});
