import { call } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';
import { history, openShop } from '../payments/helpers';
import { capturedPayment, closeBatch, settlementsApi, userOf } from './helpers';

/**
 * Refunds made through the real refund flow (POST refunds, the payment's workflow, the sandbox)
 * and then a close (docs/refunds.md, docs/settlement.md): a refunded payment keeps its refund status and gains
 * settledAt, its refunds are lines of the batch, netAmount = gross - refunds - fees, exact.
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.stop();
});

const refund = (token: string, paymentId: string, body: Record<string, unknown>) =>
  call(stack.apiUrl, 'POST', `/api/dashboard/payments/${paymentId}/refunds`, { token, body });

it('a partly and a fully refunded payment keep PARTIALLY_REFUNDED and REFUNDED with settledAt; refunds are in the batch and its net', async () => {
  const shop = await openShop(stack);
  const finance = await userOf(stack, shop, ['FINANCE']);
  const partly = await capturedPayment(stack, shop, 100, 'CARD');
  const fully = await capturedPayment(stack, shop, 40, 'CARD');
  const plain = await capturedPayment(stack, shop, 25, 'QR_CODE');

  const part = await refund(finance, partly.id, { amount: 30.25, reason: 'one item back' });
  expect(part.status).toBe(201);
  expect(part.body).toMatchObject({ status: 'SUCCEEDED', amount: 30.25 });
  const all = await refund(finance, fully.id, {});
  expect(all.status).toBe(201);
  expect(all.body).toMatchObject({ status: 'SUCCEEDED', amount: 40 });
  expect((await stack.db.payment.findUniqueOrThrow({ where: { id: partly.id } })).status).toBe('PARTIALLY_REFUNDED');
  expect((await stack.db.payment.findUniqueOrThrow({ where: { id: fully.id } })).status).toBe('REFUNDED');

  const closed = await closeBatch(stack, finance, shop.storeExternalId);
  expect(closed.status).toBe(201);
  // fees: 100 CARD 1.40 + 0.10 = 1.50; 40 CARD 0.56 + 0.10 = 0.66; 25 QR 0.225 -> 0.23 (half up); none on refunds
  // net = 165 - 70.25 - 2.39 = 92.36
  expect(closed.body).toMatchObject({
    status: 'SETTLED',
    discrepancies: [],
    totals: [{ currency: 'EUR', paymentCount: 3, grossAmount: 165, refundCount: 2, refundAmount: 70.25, feeAmount: 2.39, netAmount: 92.36 }],
  });

  const kept = { [partly.id]: 'PARTIALLY_REFUNDED', [fully.id]: 'REFUNDED', [plain.id]: 'SETTLED' };
  for (const [id, status] of Object.entries(kept)) {
    const row = await stack.db.payment.findUniqueOrThrow({ where: { id } });
    expect(row.status).toBe(status);
    expect(row.settledAt).toBeInstanceOf(Date);
    const settle = (await history(stack, id)).filter((h) => h.actionReference === `SETTLE-${closed.body.id}`);
    expect(settle).toEqual([expect.objectContaining({ status, source: 'WORKFLOW' })]);
    const events = await stack.db.webhookEvent.findMany({ where: { paymentId: id, eventType: 'PAYMENT_SETTLED' } });
    expect(events).toHaveLength(1);
    expect((events[0]!.payload as any).data.status).toBe(status);
  }
  const partlyEvent = await stack.db.webhookEvent.findFirstOrThrow({ where: { paymentId: partly.id, eventType: 'PAYMENT_SETTLED' } });
  expect((partlyEvent.payload as any).data.settlement).toEqual({ batchId: closed.body.id, date: closed.body.date, feeAmount: '1.50', netAmount: '98.50' });

  const lines = (await settlementsApi(stack, finance).lines(closed.body.id)).body.content;
  expect(lines).toHaveLength(5);
  expect(lines).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ type: 'PAYMENT', paymentId: partly.id, amount: 100, feeAmount: 1.5, netAmount: 98.5 }),
      expect.objectContaining({ type: 'PAYMENT', paymentId: fully.id, amount: 40, feeAmount: 0.66, netAmount: 39.34 }),
      expect.objectContaining({ type: 'PAYMENT', paymentId: plain.id, amount: 25, feeAmount: 0.23, netAmount: 24.77 }),
      expect.objectContaining({ type: 'REFUND', paymentId: partly.id, amount: 30.25, feeAmount: 0, netAmount: -30.25 }),
      expect.objectContaining({ type: 'REFUND', paymentId: fully.id, amount: 40, feeAmount: 0, netAmount: -40 }),
    ]),
  );
  const csv = (await settlementsApi(stack, finance).csv(closed.body.id)).body as string;
  expect(csv).toContain(',30.25,0,-30.25,EUR,');

  // a settled payment can still be refunded; that refund is in the next batch alone, and the payment is not settled again
  const settledAt = (await stack.db.payment.findUniqueOrThrow({ where: { id: plain.id } })).settledAt;
  const later = await refund(finance, plain.id, { amount: 10.1 });
  expect(later.status).toBe(201);
  expect(later.body.status).toBe('SUCCEEDED');
  expect((await stack.db.payment.findUniqueOrThrow({ where: { id: plain.id } })).status).toBe('PARTIALLY_REFUNDED');
  const next = await closeBatch(stack, finance, shop.storeExternalId);
  expect(next.status).toBe(201);
  expect(next.body.totals).toEqual([
    {
      currency: 'EUR',
      paymentCount: 0,
      grossAmount: 0,
      refundCount: 1,
      refundAmount: 10.1,
      feeAmount: 0,
      chargebackAmount: 0,
      expectedFeeAmount: 0,
      tipAmount: 0,
      netAmount: -10.1,
    },
  ]);
  const after = await stack.db.payment.findUniqueOrThrow({ where: { id: plain.id } });
  expect(after).toMatchObject({ status: 'PARTIALLY_REFUNDED', settledAt });
  expect(await stack.db.webhookEvent.count({ where: { paymentId: plain.id, eventType: 'PAYMENT_SETTLED' } })).toBe(1);
}, 180_000);
