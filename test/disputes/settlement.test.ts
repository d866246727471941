import { startTestStack, type TestStack } from '../support/stack';
import { closeBatch, settlementsApi } from '../settlement/helpers';
import { adminOf, sandboxAccount } from '../acquirerAccounts/helpers';
import { answer, capturedPayment, desk, disputeBecomes, disputeOf, openAtSandbox, writeStatement } from './helpers';

/**
 * A dispute's money in settlement (docs/disputes.md, "Settlement: the dispute's money") on the real stack: the sandbox's close reports the
 * debit when the dispute opened and the credit back once it is WON, each once; the batch shows them
 * as CHARGEBACK and CHARGEBACK_REVERSAL lines, and its totals net them out.
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.stop();
});

it('debited at the next close after the dispute opened, credited back at the close after it was WON, each once', async () => {
  const d = await desk(stack);
  const p = await capturedPayment(stack, d, 40);
  const opened = await openAtSandbox(stack, p.pspReference, { amount: 25.5 });
  expect(opened.status).toBe(201);
  const dispute = await disputeOf(stack, d, p.id);

  const first = await closeBatch(stack, d.finance, d.shop.storeExternalId);
  expect(first.status).toBe(201);
  // 40 captured (fee 0.66 = 1.40 % + 0.10), 25.50 debited: 40 - 0.66 - 25.50
  expect(first.body.totals).toEqual([
    {
      currency: 'EUR',
      paymentCount: 1,
      grossAmount: 40,
      refundCount: 0,
      refundAmount: 0,
      feeAmount: 0.66,
      chargebackAmount: 25.5,
      expectedFeeAmount: 0.66,
      tipAmount: 0,
      netAmount: 13.84,
    },
  ]);
  expect(first.body.status).toBe('SETTLED');
  const api = settlementsApi(stack, d.finance);
  const firstLines = (await api.lines(first.body.id)).body.content;
  expect(firstLines).toHaveLength(2);
  expect(firstLines.find((l: any) => l.type === 'CHARGEBACK')).toEqual({
    type: 'CHARGEBACK',
    paymentId: p.id,
    pspReference: p.pspReference,
    reference: expect.any(String),
    amount: 25.5,
    feeAmount: 0,
    expectedFeeAmount: null,
    netAmount: -25.5,
    currency: 'EUR',
    occurredAt: opened.body.openedAt,
    acquirerAccountId: null,
    disputeId: dispute.id,
    acquirerDisputeId: opened.body.disputeId,
    tipAmount: 0,
  });
  // The sum of the lines' nets is the batch's net.
  expect(firstLines.reduce((s: number, l: any) => s + Math.round(l.netAmount * 100), 0)).toBe(1384);
  const csv = String((await api.csv(first.body.id)).body)
    .trim()
    .split('\r\n');
  expect(csv.find((r) => r.startsWith('CHARGEBACK,'))).toMatch(
    new RegExp(`^CHARGEBACK,${p.id},${p.pspReference},[^,]*,25\\.5,0,-25\\.5,EUR,.*,${dispute.id},${opened.body.disputeId},0$`),
  );

  // Answered and WON: the acquirer credits the amount back at the next close.
  expect((await writeStatement(stack, d.compliance, dispute.id, { text: 'The customer took the goods.' })).status).toBe(200);
  expect((await answer(stack, d.compliance, dispute.id, 'submit')).status).toBe(200);
  const won = await disputeBecomes(stack, d, dispute.id, 'WON');

  const second = await closeBatch(stack, d.finance, d.shop.storeExternalId);
  expect(second.status).toBe(201);
  expect(second.body.totals).toEqual([
    {
      currency: 'EUR',
      paymentCount: 0,
      grossAmount: 0,
      refundCount: 0,
      refundAmount: 0,
      feeAmount: 0,
      chargebackAmount: -25.5,
      expectedFeeAmount: 0,
      tipAmount: 0,
      netAmount: 25.5,
    },
  ]);
  const secondLines = (await api.lines(second.body.id)).body.content;
  expect(secondLines).toEqual([
    expect.objectContaining({
      type: 'CHARGEBACK_REVERSAL',
      paymentId: p.id,
      amount: 25.5,
      netAmount: 25.5,
      occurredAt: expect.stringMatching(/Z$/),
      disputeId: dispute.id,
      acquirerDisputeId: opened.body.disputeId,
      tipAmount: 0,
    }),
  ]);

  // When the scheme decided, at the acquirer: before the service heard of it.
  expect(Date.parse(secondLines[0].occurredAt)).toBeGreaterThanOrEqual(Date.parse(opened.body.openedAt));
  expect(Date.parse(secondLines[0].occurredAt)).toBeLessThanOrEqual(Date.parse(won.closedAt));

  // Reported once each: the next close finds nothing.
  const third = await closeBatch(stack, d.finance, d.shop.storeExternalId);
  expect(third.status).toBe(409);
  // Over both batches the dispute cost nothing: 13.84 + 25.50 = 40 - 0.66.
  expect(first.body.totals[0].netAmount + second.body.totals[0].netAmount).toBeCloseTo(39.34, 10);
});

it("an acquirer account's dispute is in its MID's report: the line names the account and the dispute", async () => {
  const d = await desk(stack);
  const mode = (await stack.db.store.findUniqueOrThrow({ where: { id: d.shop.storeId } })).mode as 'live' | 'test';
  const admin = await adminOf(stack, d.merchant);
  const account = await sandboxAccount(admin, mode, `MID-${d.shop.deviceId}`);
  expect((await admin.saveRoutes({ mode, rules: [], defaultAccountId: account })).status).toBe(200);
  const p = await capturedPayment(stack, d, 30);
  const opened = await openAtSandbox(stack, p.pspReference, { amount: 12 });
  expect(opened.status).toBe(201);
  const dispute = await disputeOf(stack, d, p.id);
  expect(dispute.acquirerAccountId).toBe(account);

  const closed = await closeBatch(stack, d.finance, d.shop.storeExternalId);
  expect(closed.status).toBe(201);
  // 30 - 0.52 (1.40 % + 0.10) - 12
  expect(closed.body.totals).toEqual([expect.objectContaining({ grossAmount: 30, chargebackAmount: 12, netAmount: 17.48 })]);
  const lines = (await settlementsApi(stack, d.finance).lines(closed.body.id)).body.content;
  expect(lines.find((l: any) => l.type === 'CHARGEBACK')).toMatchObject({
    paymentId: p.id,
    amount: 12,
    netAmount: -12,
    acquirerAccountId: account,
    disputeId: dispute.id,
    acquirerDisputeId: opened.body.disputeId,
    tipAmount: 0,
  });
});
