import { allHandlersFinished, condition } from '@temporalio/workflow';
import type { DisputeWorkflowInput } from '../../core/dispute/messages';
import type { DisputeStatus } from '../../core/dispute/statuses';
import { registerDisputeHandlers } from './answers';
import { awaitDecision, catchUp, open, responseWindow } from './phases';
import { DisputeRun } from './run';
import { autoUpgradeWhenVersioned } from '../versioning';

/**
 * One dispute (chargeback), `dispute-<disputeId>` (docs/disputes.md). This file is
 * the table of contents: the run's state and its one step (apply) are in run.ts, the merchant's
 * answers in answers.ts, the phases in phases.ts; disputeTransition (core/dispute/transition.ts)
 * alone decides the status.
 * 1. opened: evidence assembled, row written, the payment told, DISPUTE_OPENED, the compliance alerts evaluated (beside the timers);
 *    one first heard of after it moved on (its opening's notification lost) then catches up with the acquirer;
 * 2. response window: answers (statement, submit, accept) until dueBy; a reminder before it; EXPIRED at it;
 * 3. decision: after a submission, the acquirer's WON or LOST.
 */
export async function disputeWorkflow(input: DisputeWorkflowInput): Promise<DisputeStatus> {
  const run = new DisputeRun(input);
  registerDisputeHandlers(run); // before the first await

  await open(run);
  await catchUp(run);
  await responseWindow(run);
  if (run.state.status === 'UNDER_REVIEW') await awaitDecision(run);

  await condition(allHandlersFinished);
  await run.drained();
  await run.compliance;
  return run.state.status;
}
// Long-lived: moves to the current build at its next task (workflows/versioning.ts).
autoUpgradeWhenVersioned(disputeWorkflow);
