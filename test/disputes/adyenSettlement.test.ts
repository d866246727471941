import { createPayment, eventually, statusBecomes } from '../payments/helpers';
import { closeBatch, settlementsApi } from '../settlement/helpers';
import { call } from '../support/http';
import { adyenTill, complianceOf, paidAtAdyen, withAdyenStack } from '../acquirerAccounts/adyenStack';
import { answer, writeStatement } from './helpers';

/**
 * A dispute's money at an adyen account (docs/disputes.md, "Settlement: the dispute's money"), on the real
 * stack against the Adyen stand-in: its Payment accounting report books the chargeback when the bank
 * opens it (with Adyen's chargeback fee, 2.00 in the stand-in) and the credit back once the scheme
 * decides it won; the next close shows them as CHARGEBACK and CHARGEBACK_REVERSAL lines linked to
 * the payment and to our dispute, and the totals net them out.
 */
const s = withAdyenStack();
let compliance: string;
beforeAll(async () => {
  compliance = await complianceOf(s);
});

const paid = (amount: number) => paidAtAdyen(s, amount);

const disputeOf = (paymentId: string) => eventually(() => s.stack.db.dispute.findFirst({ where: { paymentId } }).then((d) => d ?? undefined), 15_000);
const becomes = (id: string, status: string) => eventually(() => s.stack.db.dispute.findFirst({ where: { id, status } }).then((d) => d ?? undefined), 15_000);
const linesOf = async (batchId: string) => (await settlementsApi(s.stack, s.finance).lines(batchId, '?size=50')).body.content as any[];
/** Adyen books in whole seconds, and a booking in the close's own second is the next close's. */
const nextSecond = () => new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 20));

async function defended(disputeId: string) {
  expect((await writeStatement(s.stack, compliance, disputeId, { text: 'Card present, chip & PIN.' })).status).toBe(200);
  expect((await answer(s.stack, compliance, disputeId, 'submit')).status).toBe(200);
}

/** The merchant defends, the scheme decides for them, and the store's next close: its answer. */
async function wonThenClosed(disputeId: string, chargebackPsp: string, storeExternalId: string) {
  await defended(disputeId);
  s.standIn.decideChargeback(chargebackPsp, 'WON');
  await becomes(disputeId, 'WON');
  await nextSecond();
  const closed = await closeBatch(s.stack, s.finance, storeExternalId);
  expect(closed.status).toBe(201);
  return closed;
}

it('a dispute opened and lost: the next close has its CHARGEBACK line with the fee, linked to the payment and our dispute', async () => {
  const p = await paid(40);
  const chargeback = s.standIn.openChargeback(p.poiid, p.tx.pspReference, { amount: 25.5 });
  const dispute = await disputeOf(p.id);
  await defended(dispute.id);
  s.standIn.decideChargeback(chargeback.pspReference, 'LOST');
  await becomes(dispute.id, 'LOST');
  await nextSecond();

  const closed = await closeBatch(s.stack, s.finance, p.storeExternalId);
  expect(closed.status).toBe(201);
  expect(closed.body.discrepancies).toEqual([]);
  // 40 settled (fee 0.62 by the stand-in's rule), 25.50 debited with a 2.00 fee: 40 - 2.62 - 25.50.
  expect(closed.body.totals).toEqual([
    expect.objectContaining({ currency: 'EUR', paymentCount: 1, grossAmount: 40, feeAmount: 2.62, chargebackAmount: 25.5, netAmount: 11.88 }),
  ]);
  const lines = await linesOf(closed.body.id);
  expect(lines.map((l) => l.type).sort()).toEqual(['CHARGEBACK', 'PAYMENT']);
  expect(lines.find((l) => l.type === 'CHARGEBACK')).toMatchObject({
    paymentId: p.id,
    amount: 25.5,
    feeAmount: 2,
    netAmount: -27.5,
    currency: 'EUR',
    acquirerAccountId: s.accountId,
    disputeId: dispute.id,
    acquirerDisputeId: chargeback.pspReference,
  });
  // The lines' nets add up to the batch's.
  expect(lines.reduce((sum, l) => sum + Math.round(l.netAmount * 100), 0)).toBe(1188);
}, 60_000);

it('a dispute won: debited at one close, credited back as CHARGEBACK_REVERSAL at the next, each once', async () => {
  const p = await paid(30);
  const chargeback = s.standIn.openChargeback(p.poiid, p.tx.pspReference);
  const dispute = await disputeOf(p.id);
  await nextSecond();
  const first = await closeBatch(s.stack, s.finance, p.storeExternalId);
  expect(first.status).toBe(201);
  expect(first.body.discrepancies).toEqual([]);
  // 30 settled (fee 0.49), 30 debited with a 2.00 fee.
  expect(first.body.totals).toEqual([expect.objectContaining({ grossAmount: 30, feeAmount: 2.49, chargebackAmount: 30, netAmount: -2.49 })]);

  const second = await wonThenClosed(dispute.id, chargeback.pspReference, p.storeExternalId);
  expect(second.body.totals).toEqual([expect.objectContaining({ paymentCount: 0, grossAmount: 0, feeAmount: 0, chargebackAmount: -30, netAmount: 30 })]);
  expect(await linesOf(second.body.id)).toEqual([
    expect.objectContaining({
      type: 'CHARGEBACK_REVERSAL',
      paymentId: p.id,
      amount: 30,
      feeAmount: 0,
      netAmount: 30,
      disputeId: dispute.id,
      acquirerDisputeId: chargeback.pspReference,
    }),
  ]);
  expect(await s.stack.db.settlementLine.count({ where: { disputeId: dispute.id } })).toBe(2);
}, 60_000);

it("a completed pre-authorisation's chargeback: the report names the payment by our id, and the line is linked to it", async () => {
  const { shop, poiid } = await adyenTill(s, { twoStep: true });
  const created = await createPayment(s.stack, shop, { amount: 20 });
  const tx = s.standIn.customer(poiid, 'pay', { cardBrand: 'visa', last4: '4242' });
  await statusBecomes(s.stack, created.body.id, 'AUTHORIZED');
  const captured = await call(s.stack.apiUrl, 'POST', `/api/in-store/payments/${created.body.id}/capture`, { key: shop.key });
  expect(captured.body).toMatchObject({ status: 'CAPTURED', capturedAmount: 20 });
  const chargeback = s.standIn.openChargeback(poiid, tx.pspReference);
  const dispute = await disputeOf(created.body.id);
  await nextSecond();

  const closed = await closeBatch(s.stack, s.finance, shop.storeExternalId);
  expect(closed.status).toBe(201);
  // The bill's reference here is the pre-authorisation's (`<id>:preauth`); Adyen's line names the payment by its Merchant Reference.
  expect((await linesOf(closed.body.id)).find((l) => l.type === 'CHARGEBACK')).toMatchObject({
    paymentId: created.body.id,
    amount: 20,
    feeAmount: 2,
    disputeId: dispute.id,
    acquirerDisputeId: chargeback.pspReference,
  });
}, 60_000);

it('a won dispute charged back again: Chargeback, ChargebackReversed and SecondChargeback are three lines at three closes; the same bookings read again add none', async () => {
  const p = await paid(50);
  // The payment's Settled booking in a second before the dispute's, so a report read again from the dispute's booking holds only the dispute's money.
  await nextSecond();
  const chargeback = s.standIn.openChargeback(p.poiid, p.tx.pspReference, { amount: 20 });
  const dispute = await disputeOf(p.id);
  await nextSecond();
  const first = await closeBatch(s.stack, s.finance, p.storeExternalId);
  expect(first.status).toBe(201);
  // 50 settled (fee 0.75), 20 debited with a 2.00 fee: 50 - 2.75 - 20.
  expect(first.body.totals).toEqual([expect.objectContaining({ grossAmount: 50, feeAmount: 2.75, chargebackAmount: 20, netAmount: 27.25 })]);

  const second = await wonThenClosed(dispute.id, chargeback.pspReference, p.storeExternalId);
  expect(second.body.totals).toEqual([expect.objectContaining({ grossAmount: 0, feeAmount: 0, chargebackAmount: -20, netAmount: 20 })]);

  // The issuer pursues it: Adyen debits the same dispute again, with its chargeback fee.
  s.standIn.secondChargeback(chargeback.pspReference);
  await nextSecond();
  const third = await closeBatch(s.stack, s.finance, p.storeExternalId);
  expect(third.status).toBe(201);
  expect(third.body.totals).toEqual([expect.objectContaining({ grossAmount: 0, feeAmount: 2, chargebackAmount: 20, netAmount: -22 })]);
  expect(await linesOf(third.body.id)).toEqual([
    expect.objectContaining({
      type: 'CHARGEBACK',
      paymentId: p.id,
      amount: 20,
      feeAmount: 2,
      netAmount: -22,
      disputeId: dispute.id,
      acquirerDisputeId: chargeback.pspReference,
    }),
  ]);
  const lines = await s.stack.db.settlementLine.findMany({ where: { disputeId: dispute.id }, orderBy: { occurredAt: 'asc' } });
  expect(lines.map((l) => [l.type, l.batchId, l.netAmount?.toFixed()])).toEqual([
    ['CHARGEBACK', first.body.id, '-22'],
    ['CHARGEBACK_REVERSAL', second.body.id, '20'],
    ['CHARGEBACK', third.body.id, '-22'],
  ]);
  expect(lines.map((l) => l.bookingRef!.split(':')[0])).toEqual(['Chargeback', 'ChargebackReversed', 'SecondChargeback']);

  // Read again: the earlier closes' ends moved back to the chargeback's booking (as a shorter
  // ADYEN_REPORT_LAG_HOURS would: an overlap), so the next close reads the dispute's three bookings again.
  await s.stack.db.settlementBatch.updateMany({
    where: { id: { in: [first.body.id, second.body.id, third.body.id] } },
    data: { until: new Date(Math.floor(Date.parse(chargeback.openedAt) / 1000) * 1000) },
  });
  await nextSecond();
  const again = await closeBatch(s.stack, s.finance, p.storeExternalId);
  expect(again.status).toBe(201);
  expect(await linesOf(again.body.id)).toEqual([]);
  expect(await s.stack.db.settlementLine.count({ where: { disputeId: dispute.id } })).toBe(3);
}, 90_000);
