import { ApplicationFailure, setHandler } from '@temporalio/workflow';
import { BILL_REFUSED, billStateQuery, cancelBillUpdate, openTenderUpdate, recordTillTenderUpdate, tenderChangedSignal } from '../../core/bill/messages';
import { type BillEvent, billTransition } from '../../core/bill/transition';
import { type BillRun, nowIso } from './run';

/** A refused request: the API answers 400 naming the field, or 409 for the bill's state. */
const refused = (run: BillRun, event: BillEvent): void => {
  const outcome = billTransition(run.state, event);
  if (outcome.refusal) throw ApplicationFailure.nonRetryable(outcome.refusal.message, BILL_REFUSED, outcome.refusal);
};

/** Applies an accepted request and answers once its row is written (decided again: the grant check may have awaited since the validator). */
async function accept(run: BillRun, event: BillEvent): Promise<void> {
  const { outcome, done } = run.apply(event);
  if (outcome.refusal) throw ApplicationFailure.nonRetryable(outcome.refusal.message, BILL_REFUSED, outcome.refusal);
  await done;
}

/** The bill's messages; registered before the run's first await. */
export function registerBillHandlers(run: BillRun): void {
  setHandler(billStateQuery, () => run.state);

  setHandler(
    openTenderUpdate,
    async (request) => {
      await accept(run, { type: 'OPEN_TENDER', ...request });
      return run.state.tenders.find((t) => t.paymentId === request.paymentId)!;
    },
    { validator: (request) => refused(run, { type: 'OPEN_TENDER', ...request }) },
  );

  setHandler(
    recordTillTenderUpdate,
    async (request) => {
      await accept(run, { type: 'TILL_TENDER', ...request });
      return run.state;
    },
    { validator: (request) => refused(run, { type: 'TILL_TENDER', ...request }) },
  );

  setHandler(
    cancelBillUpdate,
    async () => {
      await accept(run, { type: 'CANCEL', at: nowIso() });
      return run.state;
    },
    { validator: () => refused(run, { type: 'CANCEL', at: nowIso() }) },
  );

  // A nudge: the row is read again, so only what the payment's own workflow wrote counts.
  setHandler(tenderChangedSignal, ({ paymentId }) => {
    if (run.state.tenders.some((t) => t.paymentId === paymentId)) run.nudged.add(paymentId);
  });
}
