import { createPayment, statusBecomes } from '../payments/helpers';
import { closeBatch, settlementsApi } from '../settlement/helpers';
import { ADYEN_MID, adyenTill, refundAs, withAdyenStack } from './adyenStack';

/**
 * An adyen account's settlement through the real close (docs/acquirers.md, "Adyen: settlement"): each terminal's
 * report is its lines of Adyen's daily Payment accounting report, served by the stand-in from its
 * own transactions with its fee rule (test/support/adyenStandIn/reports.ts).
 */
const s = withAdyenStack();

interface Line {
  type: string;
  paymentId: string;
  amount: number;
  feeAmount: number | null;
  netAmount: number | null;
  acquirerAccountId: string | null;
}

async function paidOn(till: Awaited<ReturnType<typeof adyenTill>>, amount: number, cardBrand: string) {
  const created = await createPayment(s.stack, till.shop, { amount });
  expect(created.status).toBe(201);
  s.standIn.customer(till.poiid, 'pay', { cardBrand, last4: '4242' });
  return statusBecomes(s.stack, created.body.id, 'CAPTURED');
}

const linesOf = async (batchId: string) =>
  (await settlementsApi(s.stack, s.finance).lines(batchId, '?size=50')).body.content.map((l: Line) => ({
    type: l.type,
    paymentId: l.paymentId,
    amount: l.amount,
    feeAmount: l.feeAmount,
    netAmount: l.netAmount,
    acquirerAccountId: l.acquirerAccountId,
  })) as Line[];

/** Adyen books in whole seconds, and a booking in the close's own second is the next close's: closes here start in a later second. */
const nextSecond = () => new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 20));

const sorted = (lines: Line[]) => [...lines].sort((a, b) => `${a.type}${a.amount}`.localeCompare(`${b.type}${b.amount}`));

it("payments on two terminals and a refund settle with Adyen's fees and the net; a second close reports none of them again", async () => {
  const a = await adyenTill(s);
  const b = await adyenTill(s);
  const onA = await paidOn(a, 10, 'visa');
  const onB = await paidOn(b, 20, 'mc');
  expect((await refundAs(s, onA.id, 4)).status).toBe(201);
  await statusBecomes(s.stack, onA.id, 'PARTIALLY_REFUNDED');
  await nextSecond();

  const closed = await closeBatch(s.stack, s.finance, a.shop.storeExternalId);
  expect(closed.status).toBe(201);
  // Each line once, matched to its terminal's report: lines of the two terminals mixed would be reported twice (a discrepancy).
  expect(closed.body.discrepancies).toEqual([]);
  // Fees by the stand-in's rule: 10.00 -> 0.08 + 0.02 + 0.03 + 0.10; 20.00 -> 0.16 + 0.04 + 0.06 + 0.10.
  expect(closed.body.totals).toEqual([
    expect.objectContaining({ currency: 'EUR', paymentCount: 2, grossAmount: 30, refundCount: 1, refundAmount: 4, feeAmount: 0.59, netAmount: 25.41 }),
  ]);
  expect(sorted(await linesOf(closed.body.id))).toEqual([
    { type: 'PAYMENT', paymentId: onA.id, amount: 10, feeAmount: 0.23, netAmount: 9.77, acquirerAccountId: s.accountId },
    { type: 'PAYMENT', paymentId: onB.id, amount: 20, feeAmount: 0.36, netAmount: 19.64, acquirerAccountId: s.accountId },
    { type: 'REFUND', paymentId: onA.id, amount: 4, feeAmount: 0, netAmount: -4, acquirerAccountId: s.accountId },
  ]);
  for (const p of [onA, onB]) expect((await s.stack.db.payment.findUniqueOrThrow({ where: { id: p.id } })).settledAt).not.toBeNull();
  // Both terminals' reports were read from the account's daily files, with its API key.
  const downloads = s.standIn.requests.filter((r) => r.operation === 'reportDownload');
  expect(downloads.length).toBeGreaterThan(0);
  expect(downloads.every((r) => r.merchantAccount === ADYEN_MID && /\/payments_accounting_report_\d{4}_\d\d_\d\d\.csv$/.test(r.path))).toBe(true);

  // The next close starts where this one ended: only the new payment, nothing reported again.
  const later = await paidOn(a, 5, 'visa');
  await nextSecond();
  const next = await closeBatch(s.stack, s.finance, a.shop.storeExternalId);
  expect(next.status).toBe(201);
  expect(next.body.discrepancies).toEqual([]);
  expect(await linesOf(next.body.id)).toEqual([
    { type: 'PAYMENT', paymentId: later.id, amount: 5, feeAmount: 0.17, netAmount: 4.83, acquirerAccountId: s.accountId },
  ]);
});

it('Adyen unreachable when the close asks for the report: retried, and the close completes once', async () => {
  const a = await adyenTill(s);
  const paid = await paidOn(a, 12, 'visa');
  await nextSecond();
  s.standIn.reportsUnreachable(true);
  const asked = s.standIn.requests.length;
  const closing = closeBatch(s.stack, s.finance, a.shop.storeExternalId);
  // The close tries, gets no answer, and tries again.
  for (let i = 0; i < 200 && s.standIn.requests.slice(asked).filter((r) => r.outcome === 'dropped').length < 2; i++)
    await new Promise((r) => setTimeout(r, 50));
  expect(s.standIn.requests.slice(asked).filter((r) => r.operation === 'reportDownload' && r.outcome === 'dropped').length).toBeGreaterThanOrEqual(2);
  s.standIn.reportsUnreachable(false);

  const closed = await closing;
  expect(closed.status).toBe(201);
  expect(closed.body.discrepancies).toEqual([]);
  expect(await linesOf(closed.body.id)).toEqual([
    { type: 'PAYMENT', paymentId: paid.id, amount: 12, feeAmount: 0.26, netAmount: 11.74, acquirerAccountId: s.accountId },
  ]);
  expect(await s.stack.db.settlementLine.count({ where: { paymentId: paid.id } })).toBe(1);
  expect((await s.stack.db.payment.findUniqueOrThrow({ where: { id: paid.id } })).status).toBe('SETTLED');
}, 60_000);
