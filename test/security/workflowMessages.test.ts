import { Client, WithStartWorkflowOperation, WorkflowUpdateFailedError } from '@temporalio/client';
import type { UpdateDefinition } from '@temporalio/common';
import type { RefundRequestInput } from '../../core/payment/messages';
import {
  cancelUpdate,
  captureUpdate,
  disputeChangedSignal,
  operatorClearUpdate,
  PAYMENT_WORKFLOW_TYPE,
  paymentWorkflowId,
  refundUpdate,
  settleUpdate,
  voidUpdate,
} from '../../core/payment/messages';
import { acceptDisputeUpdate, disputeWorkflowId, saveDisputeEvidenceUpdate, submitDisputeUpdate } from '../../core/dispute/messages';
import { GRANT_REFUSED } from '../../core/messageGrants';
import { paymentWorkflowStartOptions, workflowInputFromPayment } from '../../src/payments/workflowStart';
import { call } from '../support/http';
import { type TestStack, startTestStack } from '../support/stack';
import { createPayment, eventually, openShop, sim, sleep, statusBecomes } from '../payments/helpers';
import { capturedPayment, desk, disputeEvents, disputeOf, openAtSandbox, refund, writeStatement } from '../disputes/helpers';

/**
 * No message to a workflow moves money unless the API accepted and audited the request first
 * (docs/security.md, "Messages to workflows"). Each money-moving update of the payment and dispute
 * workflows is sent here straight to Temporal, as its Web UI or CLI would send it (a client with
 * no grant), and nothing moves; the same requests through the API still work.
 */
let stack: TestStack;
/** A Temporal client such as anyone who reaches the frontend has: no grant on its messages. */
let outsider: Client;
beforeAll(async () => {
  stack = await startTestStack({ DISPUTE_REMINDER_HOURS: '1' });
  outsider = new Client({ connection: stack.client.connection, namespace: stack.config.TEMPORAL_NAMESPACE });
});
afterAll(async () => {
  await stack?.stop();
});

/** The failure an update straight to Temporal gets: refused for want of the API's grant. */
async function refusedForGrant(workflowId: string, update: UpdateDefinition<unknown, any[]>, ...args: unknown[]): Promise<void> {
  const err = await outsider.workflow
    .getHandle(workflowId)
    .executeUpdate(update.name, { args: args as [unknown] })
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(err).toBeInstanceOf(WorkflowUpdateFailedError);
  expect((err as WorkflowUpdateFailedError).cause).toMatchObject({
    type: GRANT_REFUSED,
    message: expect.stringContaining("did not come through the service's API"),
  });
}

const refundRequest = (amount = '10'): RefundRequestInput => ({
  refundId: crypto.randomUUID(),
  amount,
  reason: 'past the API',
  createdBy: 'nobody',
  createdByUserId: null,
  idempotencyKey: null,
  requestFingerprint: null,
});

const row = (id: string) => stack.db.payment.findUniqueOrThrow({ where: { id } });

it('refund and void sent straight to a captured payment: refused, no refund row, no money back; the API still refunds', async () => {
  const d = await desk(stack);
  const p = await capturedPayment(stack, d, 10);
  await refusedForGrant(paymentWorkflowId(p.id), refundUpdate, refundRequest());
  await refusedForGrant(paymentWorkflowId(p.id), voidUpdate);
  await refusedForGrant(paymentWorkflowId(p.id), settleUpdate, { batchId: 'forged-batch' });
  expect(await stack.db.refund.count({ where: { paymentId: p.id } })).toBe(0);
  expect(await row(p.id)).toMatchObject({ status: 'CAPTURED', settledAt: null });
  expect((await row(p.id)).refundedAmount.toFixed()).toBe('0');

  // A refund update-with-start on an ended run (as `temporal workflow start --update` would send): refused too.
  await stack.client.workflow.getHandle(paymentWorkflowId(p.id)).terminate('test: the run ends');
  const payment = await row(p.id);
  const input = workflowInputFromPayment(payment, d.shop.merchantExternalId, stack.config, 'API', []);
  const err = await outsider.workflow
    .executeUpdateWithStart(refundUpdate, {
      args: [refundRequest()],
      startWorkflowOperation: new WithStartWorkflowOperation(PAYMENT_WORKFLOW_TYPE, paymentWorkflowStartOptions(input, stack.config, { afterSale: true })),
    })
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(err).toBeInstanceOf(WorkflowUpdateFailedError);
  expect(await stack.db.refund.count({ where: { paymentId: p.id } })).toBe(0);

  // Through the API, by a signed-in user: the refund happens, with who asked for it and its audit entry.
  const viaApi = await refund(stack, d.finance, p.id, { amount: 4 });
  expect(viaApi.status).toBe(201);
  expect(viaApi.body).toMatchObject({ status: 'SUCCEEDED', amount: 4 });
  expect((await stack.db.refund.findFirstOrThrow({ where: { paymentId: p.id } })).createdBy).not.toBe('nobody');
});

it('cancel and the operator clear sent straight to a waiting payment, capture to an authorised one: refused, nothing changes', async () => {
  const shop = await openShop(stack);
  const waiting = await createPayment(stack, shop, { amount: 12 });
  expect(waiting.status).toBe(201);
  await statusBecomes(stack, waiting.body.id, 'AWAITING_TERMINAL');
  await refusedForGrant(paymentWorkflowId(waiting.body.id), cancelUpdate);
  await refusedForGrant(paymentWorkflowId(waiting.body.id), operatorClearUpdate);
  expect((await row(waiting.body.id)).status).toBe('AWAITING_TERMINAL');
  // The customer can still pay it: the bill was never withdrawn.
  await sim(stack).customer(shop.deviceId, { action: 'pay' });
  await statusBecomes(stack, waiting.body.id, 'CAPTURED');

  const twoStep = await openShop(stack, { twoStep: true, device: { twoStep: true } });
  const held = await createPayment(stack, twoStep, { amount: 30 });
  await sim(stack).customer(twoStep.deviceId, { action: 'pay' });
  await statusBecomes(stack, held.body.id, 'AUTHORIZED');
  await refusedForGrant(paymentWorkflowId(held.body.id), captureUpdate, { amount: '30' });
  await refusedForGrant(paymentWorkflowId(held.body.id), cancelUpdate);
  await sleep(300);
  expect(await row(held.body.id)).toMatchObject({ status: 'AUTHORIZED', capturedAmount: null });
  // Through the API the capture completes it.
  const captured = await call(stack.apiUrl, 'POST', `/api/in-store/payments/${held.body.id}/capture`, { key: twoStep.key });
  expect(captured.status).toBe(200);
  expect(captured.body.status).toBe('CAPTURED');
});

it("a dispute's answers sent straight to its workflow are refused; a forged disputeChanged signal changes nothing the rows do not say", async () => {
  const d = await desk(stack);
  const p = await capturedPayment(stack, d, 20);
  await openAtSandbox(stack, p.pspReference);
  const dispute = await disputeOf(stack, d, p.id);
  await eventually(async () => ((await disputeEvents(stack, p.id)).some((e) => e.eventType === 'DISPUTE_OPENED') ? true : undefined));
  await refusedForGrant(disputeWorkflowId(dispute.id), saveDisputeEvidenceUpdate, { text: 'forged statement' });
  await refusedForGrant(disputeWorkflowId(dispute.id), acceptDisputeUpdate);
  // With a statement saved through the API, a submission straight to Temporal is refused for want of a grant, not for want of a statement.
  expect((await writeStatement(stack, d.compliance, dispute.id, { text: 'The customer signed.' })).status).toBe(200);
  await refusedForGrant(disputeWorkflowId(dispute.id), submitDisputeUpdate);
  expect(await stack.db.dispute.findUniqueOrThrow({ where: { id: dispute.id } })).toMatchObject({ status: 'NEEDS_RESPONSE', submittedAt: null });
  expect(((await stack.db.dispute.findUniqueOrThrow({ where: { id: dispute.id } })).evidence as { text?: string }).text).toBe('The customer signed.');

  // A signal saying the dispute was won: the run reads the rows, which say it is open, so refunds stay refused.
  await outsider.workflow.getHandle(paymentWorkflowId(p.id)).signal(disputeChangedSignal, { disputeId: dispute.id, status: 'WON' });
  await sleep(300);
  const refused = await refund(stack, d.finance, p.id, { amount: 1 });
  expect(refused.status).toBe(409);
  const straight = await stack.client.workflow
    .getHandle(paymentWorkflowId(p.id))
    .executeUpdate(refundUpdate, { args: [refundRequest('1')] })
    .then(
      () => undefined,
      (e: unknown) => e as WorkflowUpdateFailedError,
    );
  // Even with the service's grant, the payment's writer refuses while its rows say the dispute is open.
  expect(straight?.cause).toMatchObject({ type: 'conflict', message: expect.stringContaining('dispute') });
  await eventually(async () => ((await stack.db.refund.count({ where: { paymentId: p.id } })) === 0 ? true : undefined));
});
