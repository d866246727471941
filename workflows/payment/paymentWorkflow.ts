import { allHandlersFinished, condition } from '@temporalio/workflow';
import type { PaymentOutcome, PaymentWorkflow, PaymentWorkflowInput } from '../../core/payment/messages';
import { registerNotificationHandlers } from './notifications';
import { PATCHES } from './patches';
import { adoptRefund, adoptStartRefunds, registerRefundHandlers } from './refunds';
import { PaymentRun } from './run';
import { awaitDecision, place, registerSaleHandlers } from './sale';
import { authorizationWindow, registerTwoStepHandlers } from './twoStep';
import { registerVoidHandlers, voidWindow } from './voids';

/**
 * One payment, from the bill on the device to the end of its void window and its last refund
 * (docs/architecture.md). This file is the table of contents: the run's state and shared steps
 * are in run.ts, each family of messages in its own file, and the phases run here in order:
 * 1. placement: send the bill (answered to the creating request by the placeBill update);
 * 2. decision: one timer to the device's timeout plus grace; updates and signals re-read the acquirer;
 * 3. authorisation window (two-step): completed by capture, released by cancel or at its end;
 * 4. void window: one timer to its end after a capture; void updates run meanwhile;
 * 5. drain: post-sale changes (refunds) reach the running workflow; it ends once each is decided.
 * Every transition goes through transition() (transition.ts); patches.ts lists the versions.
 */
export async function paymentWorkflow(input: PaymentWorkflowInput): Promise<PaymentOutcome> {
  const run = new PaymentRun(input);

  // Refunds an earlier run took and did not decide: reserved before any handler runs (an update
  // delivered with the start is validated as soon as its handler is set), then followed.
  adoptStartRefunds(run);

  // Handlers: all registered before the first await.
  registerSaleHandlers(run);
  registerTwoStepHandlers(run);
  registerRefundHandlers(run);
  registerVoidHandlers(run);
  registerNotificationHandlers(run);

  if (!run.synced) {
    // A later run: the payment as its row stands now, with the refunds still PENDING there.
    const row = await run.effects.readPaymentSnapshot({ paymentId: run.paymentId });
    run.state = { ...run.state, ...row.fields, sequence: row.sequence };
    run.projectedSequence = row.sequence;
    for (const refund of row.pendingRefunds) adoptRefund(run, refund);
    for (const d of row.disputes ?? []) run.heardOfDispute(d.id, d.status, d.amount);
    run.synced = true;
    run.changed();
  }

  if (run.state.status === 'CREATED') await place(run);
  if (run.state.status === 'AWAITING_TERMINAL') await awaitDecision(run);
  if (run.state.status === 'AUTHORIZED') {
    if (run.patches.takes(PATCHES.authorizationWindow)) await authorizationWindow(run);
    else await condition(() => run.state.status !== 'AUTHORIZED'); // runs from before two-step completion
  }
  if (run.state.status === 'CAPTURED') await voidWindow(run);

  // Drain: post-sale changes (refunds) reach the running workflow; it ends only once each is decided and its events are published.
  await condition(() => allHandlersFinished() && !run.refundsUndecided() && run.pendingCapture === null && run.publishesInFlight === 0);
  return { status: run.state.status, sequence: run.state.sequence };
}

/** The signature the service types its calls with (core/payment/messages.ts): the compiler holds this workflow to it. */
const _signature: PaymentWorkflow = paymentWorkflow;
