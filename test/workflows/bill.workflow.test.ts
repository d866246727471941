import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import {
  BILL_STEP_REFUSED,
  billStateQuery,
  type BillWorkflowInput,
  billWorkflowId,
  cancelBillUpdate,
  openTenderUpdate,
  recordTillTenderUpdate,
  tenderChangedSignal,
} from '../../core/bill/messages';
import type { TenderNews } from '../../core/bill/transition';
import { eventually, startWorkflowLane, type WorkflowLane } from './env';

/**
 * The bill workflow's decisions on a real Temporal server, its activities stubbed (docs/bills.md;
 * docs/architecture.md, "Tests: lanes and where they live"): tenders held and paid, a refused
 * over-payment, cancel and expiry giving back each tender once, an acquirer that does not answer.
 */
let lane: WorkflowLane;
beforeAll(async () => {
  lane = await startWorkflowLane(['recordBill', 'readTender', 'giveBackTender', 'publishBillEvent'], {
    recordBill: () => undefined,
    publishBillEvent: () => undefined,
  });
});
afterAll(() => lane?.teardown());

/** Each tender's row as the stubbed readTender answers it: a test moves it on. */
type Rows = Map<string, TenderNews>;
const row = (paymentId: string, status: TenderNews['status'], amount: string, more: Partial<TenderNews> = {}): TenderNews => ({
  paymentId,
  status,
  method: 'CARD',
  amount,
  requestedAmount: amount,
  refundedAmount: '0',
  tipAmount: '0',
  ...more,
});

async function bill(amount: string, over: Partial<BillWorkflowInput> = {}, giveBackTender?: (input: any) => unknown) {
  const billId = randomUUID();
  const workflowId = billWorkflowId(billId);
  const rows: Rows = new Map();
  lane.stub(workflowId, {
    readTender: ({ paymentId }) => rows.get(paymentId) ?? null,
    giveBackTender: giveBackTender ?? (({ paymentId }) => rows.set(paymentId, { ...rows.get(paymentId)!, status: 'CANCELLED' })),
  });
  const input: BillWorkflowInput = { billId, amount, currency: 'EUR', expiresAtMs: Date.now() + 60_000, retryMaxMs: 500, ...over };
  const handle = lane.track(await lane.env.client.workflow.start('billWorkflow', { workflowId, taskQueue: lane.taskQueue, args: [input] }));
  /** A tender's payment moved on: its row changes, and its workflow nudges the bill. */
  const moved = async (news: TenderNews) => {
    rows.set(news.paymentId, news);
    await handle.signal(tenderChangedSignal, { paymentId: news.paymentId });
  };
  return { workflowId, handle, rows, moved };
}
const published = (workflowId: string): string[] => lane.inputsOf(workflowId, 'publishBillEvent').map((e) => e.eventType);
const refusalOf = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(WorkflowUpdateFailedError);
  const cause = (err as WorkflowUpdateFailedError).cause as ApplicationFailure;
  return { type: cause.type, ...(cause.details?.[0] as object) };
};

describe('bill workflow (stubbed activities)', () => {
  it('split across two cards: an over-payment is refused naming amount, and BILL_PAID once both are captured', async () => {
    const { workflowId, handle, moved } = await bill('40.00');
    expect(await handle.executeUpdate(openTenderUpdate, { args: [{ paymentId: 'p-a', amount: '20.00' }] })).toMatchObject({
      sequenceNumber: 1,
      status: 'CREATED',
    });
    expect(await refusalOf(handle.executeUpdate(openTenderUpdate, { args: [{ paymentId: 'p-b', amount: '25.00' }] }))).toMatchObject({
      type: 'BillRefused',
      kind: 'invalid',
      field: 'amount',
    });
    expect(await handle.executeUpdate(openTenderUpdate, { args: [{ paymentId: 'p-b', amount: '20.00' }] })).toMatchObject({ sequenceNumber: 2 });
    await moved(row('p-a', 'CAPTURED', '20.00'));
    await eventually(async () => (await handle.query(billStateQuery)).tenders[0]!.status === 'CAPTURED');
    expect(published(workflowId)).toEqual([]);
    await moved(row('p-b', 'CAPTURED', '20.00'));
    expect(await handle.result()).toBe('PAID');
    expect(published(workflowId)).toEqual(['BILL_PAID']);
    expect(lane.callsOf(workflowId)).not.toContain('giveBackTender');
  });

  it('a partial approval leaves the rest owed; cash pays it', async () => {
    const { workflowId, handle, moved } = await bill('40.00');
    await handle.executeUpdate(openTenderUpdate, { args: [{ paymentId: 'p-a', amount: '40.00' }] });
    await moved(row('p-a', 'CAPTURED', '25.00', { requestedAmount: '40.00' }));
    await eventually(async () => (await handle.query(billStateQuery)).tenders[0]!.amount === '25.00');
    const after = await handle.executeUpdate(recordTillTenderUpdate, { args: [{ method: 'CASH', amount: '15.00', reference: null }] });
    expect(after.status).toBe('PAID');
    expect(await handle.result()).toBe('PAID');
    expect(published(workflowId)).toEqual(['BILL_PAID']);
  });

  it('cancel: each tender holding money given back once (open cancelled, captured voided or refunded), cash left to the till, BILL_CANCELLED', async () => {
    const { workflowId, handle, moved } = await bill('60.00');
    await handle.executeUpdate(openTenderUpdate, { args: [{ paymentId: 'p-a', amount: '20.00' }] });
    await handle.executeUpdate(openTenderUpdate, { args: [{ paymentId: 'p-b', amount: '20.00' }] });
    await handle.executeUpdate(recordTillTenderUpdate, { args: [{ method: 'CASH', amount: '10.00', reference: 'drawer 1' }] });
    await moved(row('p-a', 'CAPTURED', '20.00'));
    await moved(row('p-b', 'AWAITING_TERMINAL', '20.00'));
    await eventually(async () => (await handle.query(billStateQuery)).tenders.some((t) => t.status === 'AWAITING_TERMINAL'));
    expect((await handle.executeUpdate(cancelBillUpdate)).status).toBe('CANCELLING');
    expect(await handle.result()).toBe('CANCELLED');
    expect(lane.inputsOf(workflowId, 'giveBackTender').map((g) => `${g.paymentId}:${g.step}`)).toEqual(['p-a:VOID_OR_REFUND', 'p-b:CANCEL']);
    expect(published(workflowId)).toEqual(['BILL_CANCELLED']);
    // Each step heartbeats (activities/heartbeat.ts): one whose worker died is taken up after 10 s, not at the end of its minute.
    const steps = (await handle.fetchHistory()).events!.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'giveBackTender');
    expect(steps).toHaveLength(2);
    for (const step of steps) expect(Number(step.activityTaskScheduledEventAttributes!.heartbeatTimeout!.seconds)).toBe(10);
  });

  it('expiry: an OPEN bill is given back by the service itself at expiresAt, then EXPIRED', async () => {
    const { workflowId, handle, moved } = await bill('30.00', { expiresAtMs: Date.now() + 2_000 });
    await handle.executeUpdate(openTenderUpdate, { args: [{ paymentId: 'p-a', amount: '10.00' }] });
    await moved(row('p-a', 'AUTHORIZED', '10.00'));
    expect(await handle.result()).toBe('EXPIRED');
    expect(lane.inputsOf(workflowId, 'giveBackTender').map((g) => g.step)).toEqual(['RELEASE']);
    expect(published(workflowId)).toEqual(['BILL_EXPIRED']);
  });

  it('an acquirer that does not answer: CANCELLING meanwhile, retried, then CANCELLED; a refused step is read again and the next one taken', async () => {
    let attempts = 0;
    const rows: { current?: Rows } = {};
    const {
      workflowId,
      handle,
      moved,
      rows: r,
    } = await bill('20.00', {}, ({ paymentId, step }) => {
      attempts++;
      if (attempts <= 2) throw new Error('the acquirer did not answer (stub)');
      // The customer paid just as the cancel arrived: the payment refuses the cancel; the bill reads it and voids it.
      if (step === 'CANCEL') {
        rows.current!.set(paymentId, row(paymentId, 'CAPTURED', '20.00'));
        throw ApplicationFailure.nonRetryable('the payment is CAPTURED', BILL_STEP_REFUSED);
      }
      rows.current!.set(paymentId, row(paymentId, 'CANCELLED', '20.00'));
    });
    rows.current = r;
    await handle.executeUpdate(openTenderUpdate, { args: [{ paymentId: 'p-a', amount: '20.00' }] });
    await moved(row('p-a', 'AWAITING_TERMINAL', '20.00'));
    await handle.executeUpdate(cancelBillUpdate);
    await eventually(() => attempts >= 1);
    expect((await handle.query(billStateQuery)).status).toBe('CANCELLING');
    expect(await refusalOf(handle.executeUpdate(cancelBillUpdate))).toMatchObject({ kind: 'conflict', message: 'the bill is CANCELLING, not OPEN' });
    expect(await handle.result()).toBe('CANCELLED');
    expect(lane.inputsOf(workflowId, 'giveBackTender').map((g) => g.step)).toEqual(['CANCEL', 'CANCEL', 'CANCEL', 'VOID_OR_REFUND']);
    expect(published(workflowId)).toEqual(['BILL_CANCELLED']);
  });

  it('a hold whose payment was never created is freed when the bill is nudged', async () => {
    const { handle } = await bill('10.00');
    await handle.executeUpdate(openTenderUpdate, { args: [{ paymentId: 'p-lost', amount: '10.00' }] });
    expect(await refusalOf(handle.executeUpdate(recordTillTenderUpdate, { args: [{ method: 'CASH', amount: '10.00', reference: null }] }))).toMatchObject({
      field: 'amount',
    });
    await handle.signal(tenderChangedSignal, { paymentId: 'p-lost' });
    await eventually(async () => (await handle.query(billStateQuery)).tenders[0]!.status === 'FAILED');
    expect((await handle.executeUpdate(recordTillTenderUpdate, { args: [{ method: 'CASH', amount: '10.00', reference: null }] })).status).toBe('PAID');
  });
});
