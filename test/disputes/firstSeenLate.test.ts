import { signSandboxBody } from '../../src/acquirer/sandbox/notify';
import { call } from '../support/http';
import { withStack } from '../support/suite';
import type { TestStack } from '../support/stack';
import { eventually, sleep } from '../payments/helpers';
import { capturedPayment, desk, disputeBecomes, disputeEventsEndingWith, openAtSandbox } from './helpers';

/**
 * A dispute whose opening notification was lost, first heard of once it had moved on
 * (docs/disputes.md): the merchant answered at the acquirer, or the acquirer had already decided. It is recorded
 * all the same, with the evidence, and follows the acquirer to where it stands: nothing of the
 * acquirer's books is missing from ours. The sandbox opens it without notifying (`notify: false`).
 */
let stack: TestStack;
withStack({}, {}, (s) => void (stack = s));

const atAcquirer = (deviceId: string, disputeId: string, what: 'evidence' | 'accept', body?: unknown) =>
  call(stack.sandboxUrl, 'POST', `/acquirer/v1/devices/${deviceId}/disputes/${disputeId}/${what}`, body === undefined ? {} : { body });
const notify = (body: Record<string, unknown>) => {
  const raw = JSON.stringify(body);
  return call(stack.apiUrl, 'POST', '/internal/acquirer/notifications', {
    rawBody: raw,
    headers: { 'Content-Type': 'application/json', 'X-Sandbox-Signature': signSandboxBody(raw, stack.config.SANDBOX_NOTIFY_SECRET!) },
  });
};
const disputeRowOf = (paymentId: string) => eventually(async () => (await stack.db.dispute.findFirst({ where: { paymentId } })) ?? undefined, 15_000);

it('answered at the acquirer and decided there: its decision notification opens it, and it ends WON as the acquirer says', async () => {
  const d = await desk(stack, { disputeOutcome: 'WON', disputeDecisionDelayMs: 0 });
  const p = await capturedPayment(stack, d);
  const opened = await openAtSandbox(stack, p.pspReference, { notify: false });
  expect(opened.status).toBe(201);
  await sleep(500);
  expect(await stack.db.dispute.count({ where: { paymentId: p.id } })).toBe(0); // nobody told us

  // The merchant answered in the acquirer's own portal; the scheme decides and the sandbox notifies.
  const answered = await atAcquirer(d.shop.deviceId, opened.body.disputeId, 'evidence', { text: 'Signed receipt.', transaction: {} });
  expect(answered.status).toBe(200);
  const row = await disputeRowOf(p.id);
  const won = await disputeBecomes(stack, d, row.id, 'WON');
  expect(won).toMatchObject({ paymentId: p.id, acquirerDisputeId: opened.body.disputeId, amount: 40 });
  expect(won.evidence.transaction).toMatchObject({ cashierId: 'C-7' });
  expect(await disputeEventsEndingWith(stack, p.id, 'DISPUTE_CLOSED')).toEqual(['DISPUTE_OPENED', 'DISPUTE_UNDER_REVIEW', 'DISPUTE_CLOSED']);
});

it('accepted at the acquirer before we heard of it: a late notification records it ACCEPTED, once, though it arrives twice', async () => {
  const d = await desk(stack);
  const p = await capturedPayment(stack, d);
  const opened = await openAtSandbox(stack, p.pspReference, { notify: false });
  expect((await atAcquirer(d.shop.deviceId, opened.body.disputeId, 'accept')).status).toBe(200);

  const late = { deviceId: d.shop.deviceId, acquirerRef: opened.body.acquirerRef, event: 'DISPUTE_OPENED', disputeId: opened.body.disputeId };
  for (let i = 0; i < 2; i++) expect((await notify(late)).status).toBe(202);
  const row = await disputeRowOf(p.id);
  expect(await disputeBecomes(stack, d, row.id, 'ACCEPTED')).toMatchObject({ acquirerDisputeId: opened.body.disputeId });
  expect(await disputeEventsEndingWith(stack, p.id, 'DISPUTE_CLOSED')).toEqual(['DISPUTE_OPENED', 'DISPUTE_CLOSED']);
  expect(await stack.db.dispute.count({ where: { paymentId: p.id } })).toBe(1);
});
