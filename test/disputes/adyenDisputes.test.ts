import { sleep } from '../payments/helpers';
import { complianceOf, disputeReads, paidAtAdyen, withAdyenStack } from '../acquirerAccounts/adyenStack';
import { answer, writeStatement } from './helpers';

/**
 * Disputes at an adyen account (docs/disputes.md, "Adyen"), through the real API, worker and
 * workflows against the Adyen stand-in: the bank's chargeback arrives as a signed notification at
 * the account's notification path and opens the dispute with its evidence; submit defends it
 * through the Disputes API (every call validated against DisputeService-v30.json); the scheme's
 * decision, notified, closes it; accept accepts; a forged notification changes nothing.
 */
const s = withAdyenStack();
let compliance: string;
beforeAll(async () => {
  compliance = await complianceOf(s);
});

/** A payment approved at a fresh terminal by cashier C-9. */
const paid = (amount: number) => paidAtAdyen(s, amount, { cashierId: 'C-9' });

const { disputeOfPayment, becomes } = disputeReads(s, () => compliance);
const disputeCalls = (psp: string) => s.standIn.disputes.get(psp)!.calls.map((c) => c.operation);

it('a chargeback opens the dispute with its evidence; submit defends it at Adyen; the decision WON closes it', async () => {
  const { id, poiid, tx } = await paid(40);
  const sent = Date.now();
  const chargeback = s.standIn.openChargeback(poiid, tx.pspReference, { reason: '10.4', respondWithinHours: 72 });
  await s.standIn.notificationsSettled();
  const answered = Date.now();
  expect(s.standIn.notifications.at(-1)).toMatchObject({ status: 200, answer: '[accepted]' });

  const dispute = await disputeOfPayment(id);
  expect(dispute).toMatchObject({
    paymentId: id,
    acquirerDisputeId: chargeback.pspReference,
    acquirerAccountId: s.accountId,
    status: 'NEEDS_RESPONSE',
    reason: 'FRAUD',
    amount: 40,
    currency: 'EUR',
  });
  // The item's defensePeriodEndsAt is not signed: due ADYEN_DEFENSE_PERIOD_DAYS (7) after it was received (docs/disputes.md, "Adyen").
  expect(Date.parse(dispute.dueBy)).toBeGreaterThanOrEqual(sent + 7 * 86_400_000);
  expect(Date.parse(dispute.dueBy)).toBeLessThanOrEqual(answered + 7 * 86_400_000);
  expect(dispute.evidence.transaction).toMatchObject({
    amount: '40',
    cardBrand: 'VISA',
    last4: '4242',
    terminalExternalId: expect.any(String),
    cashierId: 'C-9',
  });

  // The same notification again (Adyen retries until it reads [accepted]): one dispute.
  s.standIn.replayNotification();
  await s.standIn.notificationsSettled();
  await sleep(300);
  expect(await s.stack.db.dispute.count({ where: { paymentId: id } })).toBe(1);

  expect((await writeStatement(s.stack, compliance, dispute.id, { text: 'Card present, chip & PIN: <receipt attached>' })).status).toBe(200);
  const submitted = await answer(s.stack, compliance, dispute.id, 'submit');
  expect(submitted.status).toBe(200);
  expect(submitted.body.status).toBe('UNDER_REVIEW');
  expect(disputeCalls(chargeback.pspReference)).toEqual(['retrieveApplicableDefenseReasons', 'supplyDefenseDocument', 'defendDispute']);
  const defended = s.standIn.disputes.get(chargeback.pspReference)!;
  expect(defended.status).toBe('Pending');
  const [document] = Object.values(defended.documents);
  expect(Buffer.from(document!.content, 'base64').toString('utf8')).toContain('Card present, chip & PIN: <receipt attached>');

  s.standIn.decideChargeback(chargeback.pspReference, 'WON');
  expect(await becomes(dispute.id, 'WON')).toMatchObject({ closedAt: expect.any(String) });
});

it('the decision LOST closes it LOST', async () => {
  const { id, poiid, tx } = await paid(25);
  const chargeback = s.standIn.openChargeback(poiid, tx.pspReference, { reason: '13.1' });
  const dispute = await disputeOfPayment(id);
  expect(dispute.reason).toBe('NOT_RECEIVED');
  expect((await writeStatement(s.stack, compliance, dispute.id, { text: 'Handed over at the till.' })).status).toBe(200);
  expect((await answer(s.stack, compliance, dispute.id, 'submit')).status).toBe(200);
  s.standIn.decideChargeback(chargeback.pspReference, 'LOST');
  await becomes(dispute.id, 'LOST');
});

it('accept accepts the dispute at Adyen', async () => {
  const { id, poiid, tx } = await paid(15);
  const chargeback = s.standIn.openChargeback(poiid, tx.pspReference, { amount: 10 });
  const dispute = await disputeOfPayment(id);
  expect(dispute.amount).toBe(10);
  const accepted = await answer(s.stack, compliance, dispute.id, 'accept');
  expect(accepted.status).toBe(200);
  expect(accepted.body.status).toBe('ACCEPTED');
  expect(disputeCalls(chargeback.pspReference)).toEqual(['acceptDispute']);
  expect(s.standIn.disputes.get(chargeback.pspReference)!.status).toBe('Accepted');
});

it('a forged chargeback notification is refused (401) and opens nothing', async () => {
  const { id, poiid, tx } = await paid(12);
  s.standIn.forgeNextNotification();
  s.standIn.openChargeback(poiid, tx.pspReference);
  await s.standIn.notificationsSettled();
  expect(s.standIn.notifications.at(-1)).toMatchObject({ forged: true, status: 401 });
  await sleep(500);
  expect(await s.stack.db.dispute.count({ where: { paymentId: id } })).toBe(0);
  expect(await s.stack.db.adyenDisputeNotice.count({ where: { paymentPspReference: tx.pspReference } })).toBe(0);
});
