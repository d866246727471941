import { randomUUID } from 'node:crypto';
import { payoutNudgeSignal, type PayoutSync, type PayoutWorkflowInput, payoutWorkflowId } from '../../core/payout/messages';
import { eventually, startWorkflowLane, type Stubs, type WorkflowLane } from './env';

/**
 * The payout workflow's states on a real Temporal server, its activities stubbed
 * (docs/payouts-and-fees.md; docs/architecture.md, "Tests: lanes and where they live"): in
 * transit, waiting for its batch, paid or failed and announced once, a balance payout watched after PAID.
 */

let lane: WorkflowLane;
beforeAll(async () => {
  lane = await startWorkflowLane(['syncPayout', 'publishPayoutEvent'], { publishPayoutEvent: () => undefined });
});
afterAll(() => lane?.teardown());

/** Starts a payout whose looks answer `looks` in turn (the last one repeats). */
async function payout(looks: PayoutSync[], over: Partial<PayoutWorkflowInput> = {}, stubs: Stubs = {}) {
  const payoutId = randomUUID();
  const workflowId = payoutWorkflowId(payoutId);
  let look = 0;
  lane.stub(workflowId, { syncPayout: () => looks[Math.min(look++, looks.length - 1)], ...stubs });
  const input = {
    payoutId,
    merchantId: 'm-1',
    mode: 'TEST',
    acquirerAccountId: null,
    acquirerKey: 'installation:sandbox',
    acquirerPayoutId: `po_${payoutId.slice(0, 8)}`,
    recheckMs: 500,
    deviceId: 'dev-1',
    batchId: 'b-1',
    ...over,
  } as PayoutWorkflowInput;
  const handle = lane.track(await lane.env.client.workflow.start('payoutWorkflow', { workflowId, taskQueue: lane.taskQueue, args: [input] }));
  return { workflowId, handle };
}

const published = (workflowId: string): string[] => lane.inputsOf(workflowId, 'publishPayoutEvent').map((e) => e.eventType);
const IN_TRANSIT: PayoutSync = { status: 'IN_TRANSIT', reconciledWithBatch: true };
const PAID: PayoutSync = { status: 'PAID', reconciledWithBatch: true };

describe('payout workflow (stubbed activities)', () => {
  it('in transit, re-read every recheckMs, then PAID: PAYOUT_PAID once, and the run ends', async () => {
    const { workflowId, handle } = await payout([IN_TRANSIT, IN_TRANSIT, PAID]);
    await handle.result();
    expect(lane.callsOf(workflowId)).toEqual(['syncPayout', 'syncPayout', 'syncPayout', 'publishPayoutEvent']);
    expect(published(workflowId)).toEqual(['PAYOUT_PAID']);
  });

  it('FAILED: PAYOUT_FAILED once', async () => {
    const { workflowId, handle } = await payout([{ status: 'FAILED', reconciledWithBatch: true }]);
    await handle.result();
    expect(published(workflowId)).toEqual(['PAYOUT_FAILED']);
  });

  it('paid but its batch not yet reconciled: waits for the batch, announces nothing before it', async () => {
    const { workflowId, handle } = await payout([{ status: 'PAID', reconciledWithBatch: false }, PAID]);
    await eventually(() => lane.callsOf(workflowId).length >= 1);
    expect(published(workflowId)).toEqual([]);
    await handle.result(); // the batch wait's first timer is a second
    expect(published(workflowId)).toEqual(['PAYOUT_PAID']);
  });

  it('a notification (nudge) re-reads at once, not at the next recheck', async () => {
    const { workflowId, handle } = await payout([IN_TRANSIT, PAID], { recheckMs: 60_000 });
    await eventually(() => lane.callsOf(workflowId).length === 1);
    await handle.signal(payoutNudgeSignal);
    await handle.result();
    expect(published(workflowId)).toEqual(['PAYOUT_PAID']);
  });

  it('a balance payout watched after PAID: a later failure is announced (PAYOUT_FAILED) before the run ends', async () => {
    // The notification of the failure arrives while PAYOUT_PAID is still being announced: it is not lost.
    let signalled!: () => void;
    const afterSignal = new Promise<void>((r) => (signalled = r));
    const { workflowId, handle } = await payout(
      [PAID, { status: 'FAILED', reconciledWithBatch: true }],
      { pays: 'BALANCE', paidWatchMs: 30_000 } as Partial<PayoutWorkflowInput>,
      { publishPayoutEvent: () => afterSignal },
    );
    await eventually(() => published(workflowId).length === 1);
    await handle.signal(payoutNudgeSignal);
    signalled();
    await handle.result();
    expect(published(workflowId)).toEqual(['PAYOUT_PAID', 'PAYOUT_FAILED']);
  });
});
