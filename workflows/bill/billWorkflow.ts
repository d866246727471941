import { allHandlersFinished, condition } from '@temporalio/workflow';
import type { BillWorkflowInput } from '../../core/bill/messages';
import type { BillStatus } from '../../core/bill/statuses';
import { registerBillHandlers } from './handlers';
import { giveBackPhase, openPhase } from './phases';
import { BillRun } from './run';

/**
 * One bill, `bill-<billId>` (docs/bills.md): the one writer of the bill's state. This file is the
 * table of contents: the run's state and its one step (apply) are in run.ts, the messages in
 * handlers.ts, the phases in phases.ts; billTransition (core/bill/transition.ts) alone decides.
 * 1. open: tenders held, paid, refused, until the bill is PAID, cancelled, or expires;
 * 2. give back (cancelled or expired): each tender cancelled, voided, refunded or released, until
 *    none holds money; then CANCELLED or EXPIRED.
 * Its tenders stay payments with workflows of their own; they nudge the bill, which reads their rows.
 */
export async function billWorkflow(input: BillWorkflowInput): Promise<BillStatus> {
  const run = new BillRun(input);
  registerBillHandlers(run); // before the first await

  await openPhase(run);
  await giveBackPhase(run);

  await condition(allHandlersFinished);
  await run.drained();
  return run.state.status;
}
