import { randomUUID } from 'node:crypto';
import { Client, WithStartWorkflowOperation, WorkflowUpdateFailedError, type WorkflowHandle, type WorkflowOptions } from '@temporalio/client';
import { acquirerRejection } from '../../core/acquirerFailure';
import { GRANT_REFUSED } from '../../core/messageGrants';
import type { BillStatus } from '../../core/acquirer';
import {
  acquirerNotifiedSignal,
  cancelUpdate,
  captureUpdate,
  disputeChangedSignal,
  operatorClearUpdate,
  type PaymentOutcome,
  paymentStateQuery,
  type PaymentTiming,
  type PaymentWorkflowInput,
  paymentWorkflowId,
  placeBillUpdate,
  refundUpdate,
  type RefundRequestInput,
  settleUpdate,
  voidUpdate,
} from '../../core/payment/messages';
import type { PaymentStatus } from '../../core/payment/statuses';
import { eventually, noAnswer, startWorkflowLane, type WorkflowLane } from './env';

/**
 * The payment workflow's decisions on a real Temporal server, its activities stubbed
 * (docs/architecture.md, "Tests: lanes and where they live"): what it calls, in which order, and
 * the status it reaches. Timers are seconds through the run's timing.
 */

const ACTIVITIES = [
  'sendBill',
  'readBill',
  'withdrawBill',
  'expireBill',
  'probeUnplacedBill',
  'completeAuthorization',
  'releaseAuthorization',
  'recordStatusEvent',
  'publishPaymentEvent',
  'readPaymentSnapshot',
  'readPendingRefunds',
  'readPaymentDisputes',
  'submitVoid',
  'readVoid',
  'submitRefund',
  'readRefund',
  'recordRefund',
  'evaluateComplianceOfPayment',
];
const REF = 'sbx_1';
const bill = (state: BillStatus['state'], extra: Partial<BillStatus> = {}): BillStatus => ({ acquirerRef: REF, state, ...extra });

let lane: WorkflowLane;
beforeAll(async () => {
  lane = await startWorkflowLane(ACTIVITIES, {
    sendBill: () => ({ outcome: 'ON_DEVICE', acquirerRef: REF }),
    readBill: () => bill('WAITING'),
    withdrawBill: () => bill('WITHDRAWN'),
    expireBill: () => bill('WITHDRAWN'),
    recordStatusEvent: () => undefined,
    publishPaymentEvent: () => undefined,
    recordRefund: () => undefined,
    evaluateComplianceOfPayment: () => undefined,
  });
});
afterAll(() => lane?.teardown());

function paymentInput(over: Partial<PaymentWorkflowInput> = {}, timing: Partial<PaymentTiming> = {}): PaymentWorkflowInput {
  const now = Date.now();
  const paymentId = randomUUID();
  return {
    paymentId,
    pspReference: `PSP-${paymentId.slice(0, 8)}`,
    merchantExternalId: 'm-1',
    storeExternalId: 's-1',
    terminalExternalId: 't-1',
    reference: null,
    deviceId: 'dev-1',
    amount: '10.00',
    currency: 'EUR',
    modes: ['CARD'],
    paymentMethod: null,
    createdAtMs: now,
    expiresAtMs: now + 60_000,
    timing: {
      terminalTimeoutMs: 55_000,
      voidWindowMs: 60_000,
      voidConfirmTimeoutMs: 1_000,
      placementWaitMs: 5_000,
      acquirerRetryMaxMs: 1_000,
      authorizationWindowMs: 60_000,
      refundConfirmTimeoutMs: 1_000,
      ...timing,
    },
    status: 'CREATED',
    historySequence: 0,
    acquirerRef: null,
    capturedAtMs: null,
    twoStep: false,
    startedBy: 'API',
    ...over,
  };
}

/** Starts a payment with its placeBill update (as POST /api/payments does) and returns its handle and the update's answer. */
async function create(
  input: PaymentWorkflowInput,
  stubs: Parameters<WorkflowLane['stub']>[1] = {},
  options: Pick<WorkflowOptions, 'workflowTaskTimeout'> = {},
) {
  const workflowId = paymentWorkflowId(input.paymentId);
  lane.stub(workflowId, stubs);
  const start = new WithStartWorkflowOperation('paymentWorkflow', {
    ...options,
    workflowId,
    taskQueue: lane.taskQueue,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
  });
  const placed = await lane.env.client.workflow.executeUpdateWithStart(placeBillUpdate, { startWorkflowOperation: start });
  const handle = lane.track((await start.workflowHandle()) as WorkflowHandle);
  return { workflowId, handle, placed };
}

const statusOf = async (handle: WorkflowHandle): Promise<PaymentStatus> => (await handle.query(paymentStateQuery)).status;
const untilStatus = (handle: WorkflowHandle, status: PaymentStatus) => eventually(async () => (await statusOf(handle)) === status);
/** The statuses the projection was told, in order. */
const recorded = (workflowId: string): string[] => lane.inputsOf(workflowId, 'recordStatusEvent').map((i) => i.event.status);

/** An awaiting payment whose device now reports `answer`: nudged as the acquirer's notification does. */
async function deviceAnswers(input: PaymentWorkflowInput, answer: BillStatus, stubs: Parameters<WorkflowLane['stub']>[1] = {}) {
  const made = await create(input, stubs);
  lane.stub(made.workflowId, { readBill: () => answer });
  await made.handle.signal(acquirerNotifiedSignal, { event: 'PAYMENT' });
  return made;
}

/** The failure type a refused update carries (rules.ts: `invalid` or `conflict`). */
async function refusalOf(update: Promise<unknown>): Promise<string | undefined> {
  const err = await update.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(WorkflowUpdateFailedError);
  return ((err as WorkflowUpdateFailedError).cause as { type?: string } | undefined)?.type;
}

const refundRequest = (amount?: string): RefundRequestInput => ({
  refundId: randomUUID(),
  ...(amount ? { amount } : {}),
  reason: null,
  createdBy: 'test',
  createdByUserId: null,
  idempotencyKey: null,
  requestFingerprint: null,
});

describe('payment workflow (stubbed activities)', () => {
  it('placement answered: the bill is on the device, AWAITING_TERMINAL, nothing published', async () => {
    const { workflowId, placed } = await create(paymentInput());
    expect(placed.status).toBe('AWAITING_TERMINAL');
    expect(lane.callsOf(workflowId)).toEqual(['sendBill', 'recordStatusEvent']);
    // The answer carries what the projection wrote and when: the create answers without reading the row again.
    const projection = lane.inputsOf(workflowId, 'recordStatusEvent')[0];
    expect(placed.placed).toEqual({ fields: projection.fields, occurredAt: projection.event.occurredAt });
    expect(lane.inputsOf(workflowId, 'sendBill')[0]).toMatchObject({ deviceId: 'dev-1', amount: '10.00', twoStep: false });
  });

  it('the first send and its projection are one local activity: the answer needs no second one', async () => {
    const { workflowId, handle, placed } = await create(paymentInput());
    expect(placed).toMatchObject({ status: 'AWAITING_TERMINAL', sequence: 1 });
    const markers = (await handle.fetchHistory()).events!.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity');
    expect(markers).toHaveLength(1);
    expect(lane.inputsOf(workflowId, 'recordStatusEvent')).toEqual([
      expect.objectContaining({
        event: expect.objectContaining({ sequence: 1, status: 'AWAITING_TERMINAL', previousStatus: 'CREATED', actionReference: REF }),
      }),
    ]);
  });

  it("an operator's clear while the combined send is unanswered: the clear's projection replaces the one written ahead, the late bill is withdrawn", async () => {
    // A send that outlasts the workflow task (a short task timeout here: the SDK heartbeats the task
    // while a local activity runs, so messages and timers are handled meanwhile).
    const input = paymentInput({}, { placementWaitMs: 300 });
    const answerSlowly = () => new Promise((resolve) => setTimeout(() => resolve({ outcome: 'ON_DEVICE', acquirerRef: REF }), 4_500));
    const creating = create(input, { sendBill: answerSlowly }, { workflowTaskTimeout: '1s' });
    const workflowId = paymentWorkflowId(input.paymentId);
    await eventually(() => lane.callsOf(workflowId).includes('sendBill'));
    const cleared = lane.env.client.workflow.getHandle(workflowId).executeUpdate(operatorClearUpdate);
    const { handle, placed } = await creating;
    expect(placed).toMatchObject({ status: 'CREATED', notice: 'ACQUIRER_UNREACHABLE' });
    expect(await cleared).toMatchObject({ status: 'CANCELLED', sequence: 1 });
    // Written ahead by the send, then the workflow's own decision at the same sequence, after it.
    expect(lane.inputsOf(workflowId, 'recordStatusEvent').map((i) => [i.event.sequence, i.event.status])).toEqual([
      [1, 'AWAITING_TERMINAL'],
      [1, 'CANCELLED'],
    ]);
    expect(lane.inputsOf(workflowId, 'recordStatusEvent')[1].fields).toMatchObject({ status: 'CANCELLED', reason: 'CLEARED_BY_OPERATOR', acquirerRef: null });
    await eventually(() => lane.callsOf(workflowId).includes('withdrawBill'));
    expect(lane.inputsOf(workflowId, 'withdrawBill')).toEqual([{ deviceId: 'dev-1', acquirerRef: REF }]);
    expect((await handle.result()).status).toBe('CANCELLED');
    expect(recorded(workflowId)).toEqual(['AWAITING_TERMINAL', 'CANCELLED']);
  });

  it('the combined send does not write the projection when the device is busy or the write fails', async () => {
    const busy = await create(paymentInput(), { sendBill: () => ({ outcome: 'DEVICE_BUSY', currentReference: 'X' }) });
    expect(busy.placed.status).toBe('REFUSED');
    expect(recorded(busy.workflowId)).toEqual(['REFUSED']);
    let failures = 1;
    const flaky = await create(paymentInput(), {
      recordStatusEvent: () => {
        if (failures-- > 0) throw new Error('the database did not answer (stub)');
      },
    });
    // The workflow writes it itself: the send's answer is not lost.
    expect(flaky.placed).toMatchObject({ status: 'AWAITING_TERMINAL', sequence: 1 });
    expect(lane.callsOf(flaky.workflowId)).toEqual(['sendBill', 'recordStatusEvent', 'recordStatusEvent']);
  });

  it('a device that is busy refuses the payment at creation', async () => {
    const { placed, handle } = await create(paymentInput(), { sendBill: () => ({ outcome: 'DEVICE_BUSY', currentReference: 'X' }) });
    expect(placed.status).toBe('REFUSED');
    expect(placed.placed?.fields).toMatchObject({ status: 'REFUSED', refusalReason: expect.any(String) });
    expect((await handle.result()).status).toBe('REFUSED');
  });

  it('the customer pays: CAPTURED, published, the void window runs', async () => {
    const { workflowId, handle } = await deviceAnswers(paymentInput(), bill('CAPTURED', { cardBrand: 'VISA', last4: '4242' }));
    await untilStatus(handle, 'CAPTURED');
    await eventually(() => lane.callsOf(workflowId).includes('publishPaymentEvent'));
    expect(recorded(workflowId)).toEqual(['AWAITING_TERMINAL', 'CAPTURED']);
    expect(lane.inputsOf(workflowId, 'recordStatusEvent')[1].fields).toMatchObject({ cardBrand: 'VISA', last4: '4242', capturedAmount: '10.00' });
    const localActivities = async () =>
      (await handle.fetchHistory()).events!.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity');
    await eventually(async () => (await localActivities()).length >= 2);
    const markers = await localActivities();
    // The send and the first projection; the read and the capture's projection (read-and-record-together).
    expect(markers).toHaveLength(2);
    expect(lane.callsOf(workflowId)).toEqual(['sendBill', 'recordStatusEvent', 'readBill', 'recordStatusEvent', 'publishPaymentEvent']);
    // Written ahead by the read, as the workflow decided it: the notification's source, the row's card.
    expect(lane.inputsOf(workflowId, 'recordStatusEvent')[1].event).toMatchObject({
      sequence: 2,
      status: 'CAPTURED',
      source: 'TERMINAL',
      actionReference: REF,
    });
    // The webhook event is an activity scheduled by the task that decided CAPTURED (its projection written ahead):
    // the server hands it out only once that task is committed (docs/webhooks.md, "Only what the payment decided").
    const published = (await handle.fetchHistory()).events!.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'publishPaymentEvent');
    expect(published?.activityTaskScheduledEventAttributes?.workflowTaskCompletedEventId?.toString()).toBe(
      markers[1].markerRecordedEventAttributes?.workflowTaskCompletedEventId?.toString(),
    );
    expect(lane.inputsOf(workflowId, 'publishPaymentEvent')[0]).toMatchObject({ paymentId: workflowId.replace(/^payment-/, ''), sequence: 2 });
  });

  it('a completion followed while the combined read is out: its projection replaces the one written ahead, PAYMENT_CAPTURED published once', async () => {
    // One-step: the device's authorisation is completed at once; the acquirer answers the follow-up only once a read is out.
    // A read that outlasts the workflow task (a short task timeout: the SDK heartbeats the task while a local activity runs).
    let readOut = false;
    let completed = false;
    const input = paymentInput();
    const { workflowId, handle } = await create(
      input,
      {
        readBill: () => bill('AUTHORIZED'),
        completeAuthorization: (r: { amount: string }) => {
          if (!readOut) return noAnswer();
          completed = true;
          return bill('CAPTURED', { capturedAmount: r.amount });
        },
      },
      { workflowTaskTimeout: '1s' },
    );
    await handle.signal(acquirerNotifiedSignal, { event: 'PAYMENT' });
    await untilStatus(handle, 'AUTHORIZED');
    lane.stub(workflowId, {
      readBill: async () => {
        readOut = true;
        await eventually(() => completed);
        await new Promise((r) => setTimeout(r, 2_500)); // the completion applied meanwhile
        return bill('CAPTURED', { capturedAmount: '10.00' });
      },
    });
    await handle.signal(acquirerNotifiedSignal, { event: 'PAYMENT' });
    await untilStatus(handle, 'CAPTURED');
    await eventually(() => lane.inputsOf(workflowId, 'recordStatusEvent').length >= 4 && lane.inputsOf(workflowId, 'publishPaymentEvent').length >= 2);
    // Written ahead by the read at sequence 3, then the completion's own decision at the same sequence, after it.
    expect(lane.inputsOf(workflowId, 'recordStatusEvent').map((i) => [i.event.sequence, i.event.status, i.event.actionReference, i.event.source])).toEqual([
      [1, 'AWAITING_TERMINAL', REF, 'API'],
      [2, 'AUTHORIZED', REF, 'TERMINAL'],
      [3, 'CAPTURED', REF, 'TERMINAL'],
      [3, 'CAPTURED', `CAPTURE-${input.pspReference}`, 'WORKFLOW'],
    ]);
    expect(lane.inputsOf(workflowId, 'publishPaymentEvent').map((i) => i.sequence)).toEqual([2, 3]);
    expect(await handle.query(paymentStateQuery)).toMatchObject({ status: 'CAPTURED', sequence: 3 });
  });

  it('a read whose projection could not be written ahead: the workflow writes it itself, and publishes it', async () => {
    let failures = 1;
    const { workflowId, handle } = await deviceAnswers(paymentInput(), bill('CAPTURED'), {
      recordStatusEvent: (i: { event: { status: string } }) => {
        if (i.event.status === 'CAPTURED' && failures-- > 0) throw new Error('the database did not answer (stub)');
      },
    });
    await untilStatus(handle, 'CAPTURED');
    await eventually(() => lane.callsOf(workflowId).includes('publishPaymentEvent'));
    expect(lane.callsOf(workflowId)).toEqual(['sendBill', 'recordStatusEvent', 'readBill', 'recordStatusEvent', 'recordStatusEvent', 'publishPaymentEvent']);
    expect(recorded(workflowId)).toEqual(['AWAITING_TERMINAL', 'CAPTURED', 'CAPTURED']);
    expect(lane.inputsOf(workflowId, 'publishPaymentEvent')).toEqual([expect.objectContaining({ sequence: 2 })]);
  });

  it('the customer declines: REFUSED with the acquirer’s words, and the run ends', async () => {
    const { workflowId, handle } = await deviceAnswers(paymentInput(), bill('DECLINED', { errorMessage: 'not enough balance' }));
    expect((await handle.result()).status).toBe('REFUSED');
    expect(lane.inputsOf(workflowId, 'recordStatusEvent')[1].fields.refusalReason).toBe('declined at the terminal: not enough balance');
  });

  it('nobody decides: at the device timeout plus grace the bill is withdrawn and the payment EXPIRED', async () => {
    const now = Date.now();
    const { workflowId, handle } = await create(paymentInput({ createdAtMs: now, expiresAtMs: now + 3_000 }, { terminalTimeoutMs: 2_500 }));
    expect((await handle.result()).status).toBe('EXPIRED');
    expect(lane.callsOf(workflowId)).toEqual(['sendBill', 'recordStatusEvent', 'expireBill', 'recordStatusEvent']);
  });

  it('cancel while the customer has not decided: the bill is withdrawn, CANCELLED', async () => {
    const { workflowId, handle } = await create(paymentInput());
    const outcome = await handle.executeUpdate(cancelUpdate);
    expect(outcome.status).toBe('CANCELLED');
    expect(lane.inputsOf(workflowId, 'withdrawBill')).toEqual([{ deviceId: 'dev-1', acquirerRef: REF }]);
    expect((await handle.result()).status).toBe('CANCELLED');
  });

  it('the customer cancels at the terminal: CANCELLED (CANCELLED_AT_TERMINAL), published, and the run ends', async () => {
    const { workflowId, handle } = await deviceAnswers(paymentInput(), bill('CANCELLED'));
    expect((await handle.result()).status).toBe('CANCELLED');
    expect(recorded(workflowId)).toEqual(['AWAITING_TERMINAL', 'CANCELLED']);
    expect(lane.inputsOf(workflowId, 'recordStatusEvent').at(-1).fields.reason).toBe('CANCELLED_AT_TERMINAL');
    expect(lane.callsOf(workflowId)).toContain('publishPaymentEvent');
    expect(lane.callsOf(workflowId)).not.toContain('withdrawBill');
  });

  it('the terminal reports a problem: ERROR (TERMINAL_ERROR), published, and the run ends', async () => {
    const { workflowId, handle } = await deviceAnswers(paymentInput(), bill('ERROR'));
    expect((await handle.result()).status).toBe('ERROR');
    expect(lane.inputsOf(workflowId, 'recordStatusEvent').at(-1).fields.reason).toBe('TERMINAL_ERROR');
    expect(lane.callsOf(workflowId)).toContain('publishPaymentEvent');
  });

  it('the acquirer refuses the bill at the send: FAILED at creation, nothing left on a device', async () => {
    const { workflowId, placed, handle } = await create(paymentInput(), {
      sendBill: () => {
        throw acquirerRejection('unknown terminal');
      },
    });
    expect(placed.status).toBe('FAILED');
    expect((await handle.result()).status).toBe('FAILED');
    expect(lane.callsOf(workflowId)).not.toContain('withdrawBill');
  });

  it('settle: a captured payment in a closed batch is SETTLED once, and the run ends (no void window after it)', async () => {
    const { workflowId, handle } = await deviceAnswers(paymentInput(), bill('CAPTURED'));
    await untilStatus(handle, 'CAPTURED');
    const settled = await handle.executeUpdate(settleUpdate, { args: [{ batchId: 'batch-1' }] });
    expect(settled.status).toBe('SETTLED');
    expect((await handle.result()).status).toBe('SETTLED'); // no void window to wait for any more: the run ends
    expect(recorded(workflowId)).toEqual(['AWAITING_TERMINAL', 'CAPTURED', 'SETTLED']);
    expect(lane.callsOf(workflowId)).not.toContain('submitVoid');
  });

  it('a message without the API’s grant is refused and changes nothing', async () => {
    const input = paymentInput();
    const { workflowId } = await create(input);
    // A client without the grant interceptor: as Temporal's Web UI or CLI would send it.
    const ungranted = new Client({ connection: lane.env.connection });
    expect(await refusalOf(ungranted.workflow.getHandle(workflowId).executeUpdate(cancelUpdate))).toBe(GRANT_REFUSED);
    expect(lane.callsOf(workflowId)).not.toContain('withdrawBill');
  });

  it('void inside the window: the reversal is confirmed, CANCELLED (previously CAPTURED)', async () => {
    const { workflowId, handle } = await deviceAnswers(paymentInput(), bill('CAPTURED'), { submitVoid: () => ({ state: 'CONFIRMED' }) });
    await untilStatus(handle, 'CAPTURED');
    const outcome: PaymentOutcome = await handle.executeUpdate(voidUpdate);
    expect(outcome.status).toBe('CANCELLED');
    expect(lane.inputsOf(workflowId, 'recordStatusEvent').at(-1).fields.previousStatus).toBe('CAPTURED');
    expect((await handle.result()).status).toBe('CANCELLED');
  });

  it('void after the window: refused (conflict) without asking the acquirer', async () => {
    const capturedAtMs = Date.now() - 120_000;
    const input = paymentInput({ status: 'CAPTURED', historySequence: 2, acquirerRef: REF, capturedAtMs, capturedAmount: '10.00' }, { voidWindowMs: 60_000 });
    const workflowId = paymentWorkflowId(input.paymentId);
    lane.stub(workflowId, {
      readPaymentSnapshot: () => ({
        fields: { status: 'CAPTURED', acquirerRef: REF, capturedAt: new Date(capturedAtMs).toISOString(), capturedAmount: '10.00', refundedAmount: '0' },
        sequence: 2,
        pendingRefunds: [],
        disputes: [],
      }),
    });
    // A later run, as the API reaches a payment whose run has ended: update-with-start.
    const start = new WithStartWorkflowOperation('paymentWorkflow', {
      workflowId,
      taskQueue: lane.taskQueue,
      args: [input],
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
    const refusal = await refusalOf(lane.env.client.workflow.executeUpdateWithStart(voidUpdate, { startWorkflowOperation: start }));
    expect(refusal).toBe('conflict');
    lane.track((await start.workflowHandle()) as WorkflowHandle);
    expect(lane.callsOf(workflowId)).not.toContain('submitVoid');
  });

  it('a refund while a void is under way: refused (conflict), nothing sent to the acquirer; the void then confirms', async () => {
    const { workflowId, handle } = await deviceAnswers(paymentInput(), bill('CAPTURED'), {
      submitVoid: () => ({ state: 'PENDING' }),
      readVoid: () => ({ state: 'PENDING' }),
    });
    await untilStatus(handle, 'CAPTURED');
    expect((await handle.executeUpdate(voidUpdate)).status).toBe('CAPTURED'); // the reversal accepted, not confirmed yet
    expect(await refusalOf(handle.executeUpdate(refundUpdate, { args: [refundRequest('2.00')] }))).toBe('conflict');
    expect(lane.callsOf(workflowId)).not.toContain('submitRefund');
    lane.stub(workflowId, { readVoid: () => ({ state: 'CONFIRMED' }) });
    await handle.signal(acquirerNotifiedSignal, { event: 'VOID_CONFIRMED' });
    expect((await handle.result()).status).toBe('CANCELLED');
  });

  it('a refund the acquirer fails: recorded FAILED and announced, the payment keeps its status and what is refundable', async () => {
    const { workflowId, handle } = await deviceAnswers(paymentInput(), bill('CAPTURED'), {
      submitRefund: (r: { refundReference: string; amount: string }) => ({
        refundReference: r.refundReference,
        state: 'FAILED',
        amount: r.amount,
        message: 'card closed',
      }),
    });
    await untilStatus(handle, 'CAPTURED');
    const outcome = await handle.executeUpdate(refundUpdate, { args: [refundRequest('4.00')] });
    expect(outcome).toMatchObject({ status: 'CAPTURED', refund: { status: 'FAILED' } });
    expect(lane.inputsOf(workflowId, 'recordRefund').at(-1)).toMatchObject({ status: 'FAILED', failureReason: 'card closed' });
    await eventually(() => lane.inputsOf(workflowId, 'publishPaymentEvent').some((e) => e.refundFailed === true));
    expect(recorded(workflowId)).toEqual(['AWAITING_TERMINAL', 'CAPTURED']);
    lane.stub(workflowId, {
      submitRefund: (r: { refundReference: string; amount: string }) => ({ refundReference: r.refundReference, state: 'SUCCEEDED', amount: r.amount }),
    });
    expect((await handle.executeUpdate(refundUpdate, { args: [refundRequest()] })).status).toBe('REFUNDED'); // all ten still refundable
  });

  it('a chargeback lost: what it took back is neither refundable nor voidable; the dispute is read from the rows, not the signal', async () => {
    const { workflowId, handle } = await deviceAnswers(paymentInput(), bill('CAPTURED'), {
      readPaymentDisputes: () => [{ id: 'dp-1', status: 'LOST', amount: '10.00' }],
    });
    await untilStatus(handle, 'CAPTURED');
    await handle.signal(disputeChangedSignal, { disputeId: 'dp-1', status: 'WON' }); // the signal's own words are not believed
    await eventually(() => lane.callsOf(workflowId).includes('readPaymentDisputes'));
    expect(await refusalOf(handle.executeUpdate(refundUpdate, { args: [refundRequest('1.00')] }))).toBe('conflict');
    expect(await refusalOf(handle.executeUpdate(voidUpdate))).toBe('conflict');
    expect(lane.callsOf(workflowId)).not.toContain('submitRefund');
    expect(lane.callsOf(workflowId)).not.toContain('submitVoid');
  });

  it('refunds: one within what is left (PARTIALLY_REFUNDED, the run ends), then in later runs one beyond what is left refused, the rest REFUNDED', async () => {
    const submitRefund = (r: { refundReference: string; amount: string }) => ({ refundReference: r.refundReference, state: 'SUCCEEDED', amount: r.amount });
    const input = paymentInput();
    const { workflowId, handle } = await deviceAnswers(input, bill('CAPTURED'), { submitRefund });
    await untilStatus(handle, 'CAPTURED');
    const first = await handle.executeUpdate(refundUpdate, { args: [refundRequest('4.00')] });
    expect(first).toMatchObject({ status: 'PARTIALLY_REFUNDED', refund: { status: 'SUCCEEDED' } });
    expect((await handle.result()).status).toBe('PARTIALLY_REFUNDED'); // nothing left to wait for: a later refund starts a later run

    // Later runs, as the API reaches a payment whose run has ended (update-with-start), from the row.
    const capturedAtMs = Date.now() - 1_000;
    const row = {
      status: 'PARTIALLY_REFUNDED',
      acquirerRef: REF,
      capturedAt: new Date(capturedAtMs).toISOString(),
      capturedAmount: '10.00',
      refundedAmount: '4',
    };
    lane.stub(workflowId, { readPaymentSnapshot: () => ({ fields: row, sequence: 3, pendingRefunds: [], disputes: [] }) });
    const later: PaymentWorkflowInput = {
      ...input,
      status: 'PARTIALLY_REFUNDED',
      historySequence: 3,
      acquirerRef: REF,
      capturedAtMs,
      capturedAmount: '10.00',
      refundedAmount: '4',
    };
    const refundInLaterRun = (request: RefundRequestInput) => {
      const start = new WithStartWorkflowOperation('paymentWorkflow', {
        workflowId,
        taskQueue: lane.taskQueue,
        args: [later],
        workflowIdConflictPolicy: 'USE_EXISTING',
      });
      return lane.env.client.workflow.executeUpdateWithStart(refundUpdate, { args: [request], startWorkflowOperation: start });
    };
    expect(await refusalOf(refundInLaterRun(refundRequest('6.01')))).toMatch(/^(invalid|conflict)$/);
    expect((await refundInLaterRun(refundRequest())).status).toBe('REFUNDED');
    expect(lane.inputsOf(workflowId, 'submitRefund').map((r) => r.amount)).toEqual(['4.00', '6']);
    await eventually(async () => (await lane.env.client.workflow.getHandle(workflowId).describe()).status.name === 'COMPLETED');
  });

  it('one-step terminal, device authorised: the workflow completes the authorisation at once, CAPTURED without AUTHORIZED', async () => {
    const { workflowId, handle } = await deviceAnswers(paymentInput(), bill('AUTHORIZED'), {
      completeAuthorization: (r: { amount: string }) => bill('CAPTURED', { capturedAmount: r.amount }),
    });
    await untilStatus(handle, 'CAPTURED');
    expect(recorded(workflowId)).toEqual(['AWAITING_TERMINAL', 'CAPTURED']);
    expect(lane.inputsOf(workflowId, 'completeAuthorization')[0]).toMatchObject({ amount: '10.00', acquirerRef: REF });
  });

  it('one-step terminal, completion unanswered: AUTHORIZED meanwhile, followed until the acquirer completes it', async () => {
    let asked = 0;
    const { workflowId, handle } = await deviceAnswers(paymentInput(), bill('AUTHORIZED'), {
      completeAuthorization: (r: { amount: string }) => (++asked <= 2 ? noAnswer() : bill('CAPTURED', { capturedAmount: r.amount })),
    });
    await untilStatus(handle, 'CAPTURED');
    expect(recorded(workflowId)).toEqual(['AWAITING_TERMINAL', 'AUTHORIZED', 'CAPTURED']);
    expect(asked).toBe(3);
  });

  it('partial authorisation, one-step terminal: the send allows it, the completion takes the approved amount, the projection gets both amounts', async () => {
    const { workflowId, handle } = await deviceAnswers(paymentInput({ allowPartialAuthorisation: true }), bill('AUTHORIZED', { authorizedAmount: '6' }), {
      // an acquirer whose completion does not repeat the approved amount (the workflow keeps the authorisation's)
      completeAuthorization: (r: { amount: string }) => bill('CAPTURED', { capturedAmount: r.amount }),
    });
    await untilStatus(handle, 'CAPTURED');
    expect(lane.inputsOf(workflowId, 'sendBill')[0]).toMatchObject({ amount: '10.00', allowPartialAuthorisation: true });
    expect(lane.inputsOf(workflowId, 'completeAuthorization')[0]).toMatchObject({ amount: '6' });
    expect(recorded(workflowId)).toEqual(['AWAITING_TERMINAL', 'CAPTURED']);
    expect(lane.inputsOf(workflowId, 'recordStatusEvent').at(-1).fields).toMatchObject({ amount: '6', requestedAmount: '10.00', capturedAmount: '6' });
    // a refund beyond what was approved is refused
    expect(await refusalOf(handle.executeUpdate(refundUpdate, { args: [refundRequest('6.01')] }))).toBe('conflict');
  });

  it('partial authorisation, two-step terminal: AUTHORIZED for the approved amount; a capture of more is refused, a capture without amount takes it all', async () => {
    const { workflowId, handle } = await deviceAnswers(paymentInput({ twoStep: true }), bill('AUTHORIZED', { authorizedAmount: '6.50' }), {
      completeAuthorization: (r: { amount: string }) => bill('CAPTURED', { capturedAmount: r.amount }),
    });
    await untilStatus(handle, 'AUTHORIZED');
    expect(lane.inputsOf(workflowId, 'sendBill')[0]).not.toHaveProperty('allowPartialAuthorisation');
    expect(await refusalOf(handle.executeUpdate(captureUpdate, { args: [{ amount: '7.00' }] }))).toBe('invalid');
    expect((await handle.executeUpdate(captureUpdate, { args: [{}] })).status).toBe('CAPTURED');
    expect(lane.inputsOf(workflowId, 'completeAuthorization')[0]).toMatchObject({ amount: '6.5' });
    expect(lane.inputsOf(workflowId, 'recordStatusEvent').at(-1).fields).toMatchObject({ amount: '6.5', requestedAmount: '10.00', capturedAmount: '6.5' });
  });

  it("tip asked, one-step terminal: the send asks with the store's options, the tip comes with the approval, the completion takes the total (docs/tips.md)", async () => {
    const tipOffer = { percentages: [10, 15, 20], allowCustom: true };
    const { workflowId, handle } = await deviceAnswers(paymentInput({ tipOffer }), bill('AUTHORIZED', { tipAmount: '1.50', authorizedAmount: '11.50' }), {
      // an acquirer whose completion repeats neither the tip nor the approved amount (the workflow keeps the authorisation's)
      completeAuthorization: (r: { amount: string }) => bill('CAPTURED', { capturedAmount: r.amount }),
    });
    await untilStatus(handle, 'CAPTURED');
    expect(lane.inputsOf(workflowId, 'sendBill')[0]).toMatchObject({ amount: '10.00', askTip: tipOffer });
    expect(lane.inputsOf(workflowId, 'sendBill')[0]).not.toHaveProperty('tipAmount');
    expect(lane.inputsOf(workflowId, 'completeAuthorization')[0]).toMatchObject({ amount: '11.5' });
    expect(recorded(workflowId)).toEqual(['AWAITING_TERMINAL', 'CAPTURED']);
    expect(lane.inputsOf(workflowId, 'recordStatusEvent').at(-1).fields).toMatchObject({ tipAmount: '1.5', capturedAmount: '11.5' });
    // refunds are bounded by the total
    expect(await refusalOf(handle.executeUpdate(refundUpdate, { args: [refundRequest('11.51')] }))).toBe('conflict');
  });

  it('a tip the POS knows, two-step terminal: sent with the bill; the capture may take up to the total, all of it by default', async () => {
    const { workflowId, handle } = await deviceAnswers(paymentInput({ twoStep: true, tipAmount: '2' }), bill('AUTHORIZED', { authorizedAmount: '12' }), {
      completeAuthorization: (r: { amount: string }) => bill('CAPTURED', { capturedAmount: r.amount }),
    });
    await untilStatus(handle, 'AUTHORIZED');
    expect(lane.inputsOf(workflowId, 'sendBill')[0]).toMatchObject({ amount: '10.00', tipAmount: '2' });
    expect(lane.inputsOf(workflowId, 'sendBill')[0]).not.toHaveProperty('askTip');
    expect(await refusalOf(handle.executeUpdate(captureUpdate, { args: [{ amount: '12.01' }] }))).toBe('invalid');
    expect((await handle.executeUpdate(captureUpdate, { args: [{}] })).status).toBe('CAPTURED');
    expect(lane.inputsOf(workflowId, 'completeAuthorization')[0]).toMatchObject({ amount: '12' });
    expect(lane.inputsOf(workflowId, 'recordStatusEvent').at(-1).fields).toMatchObject({ tipAmount: '2', capturedAmount: '12' });
  });

  it('two-step terminal: AUTHORIZED, then a capture of part of it completes it (CAPTURED)', async () => {
    const { workflowId, handle } = await deviceAnswers(paymentInput({ twoStep: true }), bill('AUTHORIZED'), {
      completeAuthorization: (r: { amount: string }) => bill('CAPTURED', { capturedAmount: r.amount }),
    });
    await untilStatus(handle, 'AUTHORIZED');
    expect(lane.callsOf(workflowId)).not.toContain('completeAuthorization');
    const outcome = await handle.executeUpdate(captureUpdate, { args: [{ amount: '8.00' }] });
    expect(outcome.status).toBe('CAPTURED');
    expect(lane.inputsOf(workflowId, 'recordStatusEvent').at(-1).fields.capturedAmount).toBe('8.00');
  });

  it('two-step terminal: a cancel releases the hold (CANCELLED, previously AUTHORIZED)', async () => {
    const { workflowId, handle } = await deviceAnswers(paymentInput({ twoStep: true }), bill('AUTHORIZED'), { releaseAuthorization: () => bill('RELEASED') });
    await untilStatus(handle, 'AUTHORIZED');
    expect((await handle.executeUpdate(cancelUpdate)).status).toBe('CANCELLED');
    expect(lane.inputsOf(workflowId, 'recordStatusEvent').at(-1).fields.previousStatus).toBe('AUTHORIZED');
    expect((await handle.result()).status).toBe('CANCELLED');
  });

  it('two-step terminal: at the end of the authorisation window the service releases the hold (AUTHORIZATION_EXPIRED)', async () => {
    const { workflowId, handle } = await deviceAnswers(paymentInput({ twoStep: true }, { authorizationWindowMs: 2_000 }), bill('AUTHORIZED'), {
      releaseAuthorization: () => bill('RELEASED'),
    });
    expect((await handle.result()).status).toBe('CANCELLED');
    expect(lane.inputsOf(workflowId, 'releaseAuthorization')).toHaveLength(1);
    expect(lane.inputsOf(workflowId, 'recordStatusEvent').at(-1).fields.reason).toBe('AUTHORIZATION_EXPIRED');
  });

  it('an acquirer that refuses every question about the bill: FAILED at the expiry', async () => {
    const now = Date.now();
    const { handle } = await create(paymentInput({ createdAtMs: now, expiresAtMs: now + 3_000 }, { terminalTimeoutMs: 2_500 }), {
      expireBill: () => {
        throw acquirerRejection('unknown bill');
      },
    });
    expect((await handle.result()).status).toBe('FAILED');
  });
});
