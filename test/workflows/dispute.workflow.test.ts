import { randomUUID } from 'node:crypto';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import {
  acceptDisputeUpdate,
  disputeNudgeSignal,
  disputeStateQuery,
  type DisputeWorkflowInput,
  disputeWorkflowId,
  saveDisputeEvidenceUpdate,
  submitDisputeUpdate,
} from '../../core/dispute/messages';
import { eventually, startWorkflowLane, type Stubs, type WorkflowLane } from './env';

/**
 * The dispute workflow's main decisions on a real Temporal server, its activities stubbed
 * (docs/disputes.md; docs/architecture.md, "Tests: lanes and where they live"): opened, the
 * merchant's statement and submission, the acquirer's decision (WON, LOST), an acceptance, and the
 * due date with its one reminder.
 */

let lane: WorkflowLane;
beforeAll(async () => {
  lane = await startWorkflowLane(
    [
      'assembleDisputeEvidence',
      'recordDisputeOpened',
      'recordDisputeStatus',
      'recordDisputeStatement',
      'publishDisputeEvent',
      'evaluateComplianceOfPayment',
      'submitDisputeToAcquirer',
      'acceptDisputeAtAcquirer',
      'readAcquirerDispute',
    ],
    {
      assembleDisputeEvidence: () => ({}),
      recordDisputeOpened: () => undefined,
      recordDisputeStatus: () => undefined,
      recordDisputeStatement: () => undefined,
      publishDisputeEvent: () => undefined,
      evaluateComplianceOfPayment: () => undefined,
      submitDisputeToAcquirer: () => undefined,
      acceptDisputeAtAcquirer: () => undefined,
      readAcquirerDispute: () => ({ status: 'NEEDS_RESPONSE' }),
    },
  );
});
afterAll(() => lane?.teardown());

async function openDispute(dueInMs = 60_000, reminderMs = 1_000, stubs: Stubs = {}) {
  const disputeId = randomUUID();
  const now = Date.now();
  const input: DisputeWorkflowInput = {
    disputeId,
    paymentId: randomUUID(),
    acquirerDisputeId: `dp_${disputeId.slice(0, 8)}`,
    acquirerKey: 'installation:sandbox',
    deviceId: 'dev-1',
    reason: 'FRAUD',
    amount: '10.00',
    currency: 'EUR',
    openedAt: new Date(now).toISOString(),
    dueBy: new Date(now + dueInMs).toISOString(),
    timing: { reminderMs, decisionCheckMs: 60_000 },
  };
  const workflowId = disputeWorkflowId(disputeId);
  lane.stub(workflowId, stubs);
  const handle = lane.track(await lane.env.client.workflow.start('disputeWorkflow', { workflowId, taskQueue: lane.taskQueue, args: [input] }));
  return { workflowId, handle };
}

/** The events the dispute published, in order. */
const events = (workflowId: string): string[] => lane.inputsOf(workflowId, 'publishDisputeEvent').map((e) => e.eventType);
const statuses = (workflowId: string): string[] => lane.inputsOf(workflowId, 'recordDisputeStatus').map((e) => e.status);

describe('dispute workflow (stubbed activities)', () => {
  it('opened: evidence assembled, row written, DISPUTE_OPENED, compliance evaluated; NEEDS_RESPONSE', async () => {
    const { workflowId, handle } = await openDispute();
    await eventually(() => lane.callsOf(workflowId).includes('evaluateComplianceOfPayment'));
    expect(lane.callsOf(workflowId).slice(0, 3)).toEqual(['assembleDisputeEvidence', 'recordDisputeOpened', 'publishDisputeEvent']);
    expect(events(workflowId)).toEqual(['DISPUTE_OPENED']);
    expect((await handle.query(disputeStateQuery)).status).toBe('NEEDS_RESPONSE');
  });

  it('submit: refused before a statement, then sent; UNDER_REVIEW, then the acquirer’s decision (WON) closes it', async () => {
    const { workflowId, handle } = await openDispute();
    const early = await handle.executeUpdate(submitDisputeUpdate).catch((e: unknown) => e);
    expect(early).toBeInstanceOf(WorkflowUpdateFailedError);
    expect(((early as WorkflowUpdateFailedError).cause as { type?: string }).type).toBe('conflict');

    await handle.executeUpdate(saveDisputeEvidenceUpdate, { args: [{ text: 'the customer signed for it' }] });
    expect(lane.inputsOf(workflowId, 'recordDisputeStatement')).toEqual([{ disputeId: expect.any(String), text: 'the customer signed for it' }]);
    expect((await handle.executeUpdate(submitDisputeUpdate)).status).toBe('UNDER_REVIEW');
    expect(lane.callsOf(workflowId)).toContain('submitDisputeToAcquirer');

    lane.stub(workflowId, { readAcquirerDispute: () => ({ status: 'WON' }) });
    await handle.signal(disputeNudgeSignal);
    expect(await handle.result()).toBe('WON');
    expect(statuses(workflowId)).toEqual(['UNDER_REVIEW', 'WON']);
    expect(events(workflowId)).toEqual(['DISPUTE_OPENED', 'DISPUTE_UNDER_REVIEW', 'DISPUTE_CLOSED']);
  });

  it('submitted and decided at once: the first read after the submission finds it LOST, which closes it', async () => {
    const { workflowId, handle } = await openDispute();
    await handle.executeUpdate(saveDisputeEvidenceUpdate, { args: [{ text: 'no proof of delivery' }] });
    lane.stub(workflowId, { readAcquirerDispute: () => ({ status: 'LOST' }) });
    await handle.executeUpdate(submitDisputeUpdate);
    expect(lane.callsOf(workflowId)).toContain('submitDisputeToAcquirer');
    expect(await handle.result()).toBe('LOST');
    expect(statuses(workflowId)).toEqual(['UNDER_REVIEW', 'LOST']);
    expect(events(workflowId)).toEqual(['DISPUTE_OPENED', 'DISPUTE_UNDER_REVIEW', 'DISPUTE_CLOSED']);
  });

  it('accept: ACCEPTED at the acquirer, closed', async () => {
    const { workflowId, handle } = await openDispute();
    expect((await handle.executeUpdate(acceptDisputeUpdate)).status).toBe('ACCEPTED');
    expect(lane.callsOf(workflowId)).toContain('acceptDisputeAtAcquirer');
    expect(await handle.result()).toBe('ACCEPTED');
    expect(events(workflowId)).toEqual(['DISPUTE_OPENED', 'DISPUTE_CLOSED']);
  });

  it('no answer by the due date: one reminder before it, EXPIRED at it', async () => {
    const { workflowId, handle } = await openDispute(3_000, 1_500);
    expect(await handle.result()).toBe('EXPIRED');
    expect(events(workflowId)).toEqual(['DISPUTE_OPENED', 'DISPUTE_RESPONSE_DUE', 'DISPUTE_CLOSED']);
    expect(statuses(workflowId)).toEqual(['EXPIRED']);
    expect(lane.callsOf(workflowId)).not.toContain('readAcquirerDispute'); // nothing was sent: nothing to look up
  });

  it('a submission whose answer was lost: looked up at the due date, UNDER_REVIEW instead of EXPIRED', async () => {
    let sent = 0;
    // The acquirer's answer to the look-up is stubbed from the start: on a loaded machine the due
    // date may come before the submission's three attempts have failed.
    const { workflowId, handle } = await openDispute(4_000, 1_000, {
      submitDisputeToAcquirer: () => {
        sent++;
        throw new Error('the acquirer did not answer (stub)');
      },
      readAcquirerDispute: () => ({ status: 'UNDER_REVIEW' }),
    });
    await handle.executeUpdate(saveDisputeEvidenceUpdate, { args: [{ text: 'receipt attached' }] });
    await expect(handle.executeUpdate(submitDisputeUpdate)).rejects.toThrow(WorkflowUpdateFailedError);
    expect(sent).toBe(3);
    await eventually(async () => (await handle.query(disputeStateQuery)).status === 'UNDER_REVIEW', 10_000);
    expect(statuses(workflowId)).toEqual(['UNDER_REVIEW']);
  });
});
