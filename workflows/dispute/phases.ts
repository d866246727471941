import { condition, patched } from '@temporalio/workflow';
import { evaluateCompliance } from '../compliance/evaluate';
import { attempt } from '../payment/calls';
import { DISPUTE_PATCHES } from './patches';
import { type DisputeRun, nowIso } from './run';

/**
 * The dispute's phases after it opened, each waiting on Temporal timers (never a polling loop):
 * the response window (reminder, then expiry at dueBy) and the scheme's decision.
 */

/** Opened: evidence assembled from our records, the row written, the payment told, DISPUTE_OPENED sent, the compliance alerts evaluated. */
export async function open(run: DisputeRun): Promise<void> {
  const transaction = await run.effects.assembleDisputeEvidence({ paymentId: run.input.paymentId });
  await run.effects.recordDisputeOpened({ input: run.input, transaction });
  await run.tellPayment('NEEDS_RESPONSE');
  await run.effects.publishDisputeEvent({ disputeId: run.disputeId, eventType: 'DISPUTE_OPENED', status: 'NEEDS_RESPONSE' });
  run.opened = true;
  // Not awaited here: the due-date timers start at once, even when a worker dies during the evaluation.
  if (patched(DISPUTE_PATCHES.complianceOnOpen.id)) run.compliance = evaluateCompliance(run.input.paymentId);
}

/**
 * Until the merchant answers or dueBy: one timer to the reminder (DISPUTE_REMINDER_HOURS before
 * dueBy; at once when the dispute opened later than that), then one to dueBy, where the dispute
 * EXPIRES by itself. An answer under way at dueBy is waited for; one that was sent but whose
 * answer was lost is looked up at the acquirer before anything expires.
 */
export async function responseWindow(run: DisputeRun): Promise<void> {
  const remindAtMs = run.dueByMs - run.input.timing.reminderMs;
  while (run.state.status === 'NEEDS_RESPONSE') {
    const now = Date.now();
    if (now >= run.dueByMs) {
      await condition(() => !run.answering);
      if (run.state.status === 'NEEDS_RESPONSE' && run.attempted) await adoptLostAnswer(run);
      await run.apply({ type: 'DUE_PASSED', at: nowIso() }); // nothing when an answer got there first
      return;
    }
    if (!run.state.reminded && now >= remindAtMs) {
      await run.apply({ type: 'REMINDER_DUE' });
      continue;
    }
    const next = run.state.reminded ? run.dueByMs : remindAtMs;
    await condition(() => run.state.status !== 'NEEDS_RESPONSE', next - now);
  }
}

/**
 * A dispute first heard of after it moved on (input.seenAs: its opening's notification was lost):
 * opened all the same, then what the acquirer says since is applied (an acceptance, or an answer
 * given elsewhere, then the decision in awaitDecision). Only runs started with seenAs take it.
 */
export async function catchUp(run: DisputeRun): Promise<void> {
  if (run.input.seenAs) await adoptLostAnswer(run);
}

/** A submission or acceptance the acquirer received although its answer never reached us: applied as if it had. */
async function adoptLostAnswer(run: DisputeRun): Promise<void> {
  const read = await attempt(run.acquirer.readAcquirerDispute({ disputeId: run.disputeId }));
  if (read.kind !== 'answer') return;
  const at = nowIso();
  if (read.value.status === 'ACCEPTED') await run.apply({ type: 'ACCEPTED', at });
  else if (read.value.status !== 'NEEDS_RESPONSE') await run.apply({ type: 'SUBMITTED', at });
}

/**
 * Submitted: the acquirer is read now (it may have decided at once), again on each of its
 * notifications, and at the latest every decisionCheckMs (a lost notification is repaired).
 */
export async function awaitDecision(run: DisputeRun): Promise<void> {
  while (run.state.status === 'UNDER_REVIEW') {
    run.nudged = false;
    const read = await attempt(run.acquirer.readAcquirerDispute({ disputeId: run.disputeId }));
    if (read.kind === 'answer' && (read.value.status === 'WON' || read.value.status === 'LOST')) {
      await run.apply({ type: 'DECIDED', outcome: read.value.status, at: nowIso() });
      return;
    }
    await condition(() => run.nudged, run.input.timing.decisionCheckMs);
  }
}
