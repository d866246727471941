import { setHandler } from '@temporalio/workflow';
import {
  acquirerNotifiedSignal,
  disputeChangedSignal,
  paymentStateQuery,
  refundReferenceOf,
  resumeRefundsSignal,
  settleUpdate,
  sweepNudgeSignal,
} from '../../core/payment/messages';
import { resumeRefunds, submitRefund } from './refunds';
import { refused } from './calls';
import { settleRefusal } from '../../core/payment/rules';
import type { PaymentRun } from './run';
import { checkVoid } from './voids';

/**
 * What reaches a run from outside besides the API's operations: the acquirer's notifications and
 * the sweep's nudges (each only a reason to re-read the acquirer, never an outcome), settlement
 * (docs/settlement.md), and the query operators and the sweep read the run's own view with.
 */
export function registerNotificationHandlers(run: PaymentRun): void {
  setHandler(paymentStateQuery, () => ({
    status: run.state.status,
    sequence: run.state.sequence,
    acquirerRef: run.state.acquirerRef,
    pendingVoids: [...run.pendingVoids],
    refunds: [...run.refunds.keys()],
  }));

  // Settlement: the one writer applies it; once settled the void window ends (a SETTLED payment cannot be voided).
  setHandler(
    settleUpdate,
    async ({ batchId }) => {
      if (!run.synced) await run.untilSynced();
      // Decided again as the handler starts: the grant check (workflows/grantCheck.ts) may have awaited since the validator ran.
      const refusal = settleRefusal(run.state);
      if (refusal) throw refused(refusal);
      await run.apply({ type: 'SETTLED', batchId });
      return run.answer();
    },
    {
      validator: (_request) => {
        const refusal = settleRefusal(run.state);
        if (refusal) throw refused(refusal);
      },
    },
  );

  setHandler(acquirerNotifiedSignal, async (nudge) => {
    if (!run.synced) await run.untilSynced();
    if (nudge.event === 'VOID_CONFIRMED') {
      for (const ref of [...run.pendingVoids]) if (run.state.status === 'CAPTURED') await checkVoid(run, ref, 'TERMINAL');
      return;
    }
    if (nudge.event === 'REFUND_SUCCEEDED' || nudge.event === 'REFUND_FAILED') {
      for (const r of [...run.refunds.values()]) {
        if (r.status === 'PENDING' && (!nudge.refundReference || nudge.refundReference === refundReferenceOf(r.id))) await submitRefund(run, r, 'TERMINAL');
      }
      return;
    }
    if (run.state.status === 'CREATED') run.nudgedWhilePlacing = true;
    else await run.refresh('TERMINAL');
  });

  setHandler(resumeRefundsSignal, (rows) => resumeRefunds(run, rows));

  // A dispute opened or moved on (docs/disputes.md): refunds and voids wait while one is open, and
  // a charged-back amount is no longer refundable. The signal is only a reason to read the rows:
  // anyone who reaches Temporal can send it.
  setHandler(disputeChangedSignal, async (change) => {
    if (run.countsChargebacks) {
      if (!run.synced) await run.untilSynced();
      for (const d of await run.effects.readPaymentDisputes({ paymentId: run.paymentId })) run.heardOfDispute(d.id, d.status, d.amount);
    } else if (typeof change?.disputeId === 'string' && typeof change.status === 'string') run.heardOfDispute(change.disputeId, change.status);
  });

  setHandler(sweepNudgeSignal, async () => {
    if (!run.synced) await run.untilSynced();
    run.sweepNudged = true;
    if (run.state.status !== 'CREATED') await run.refresh('SWEEP');
  });
}
