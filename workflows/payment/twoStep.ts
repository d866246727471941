import { CancellationScope, condition, setHandler, sleep } from '@temporalio/workflow';
import { attemptUntilAnswered, refused } from './calls';
import { captureUpdate, DEFAULT_AUTHORIZATION_WINDOW_MS } from '../../core/payment/messages';
import { authorisedTotal, captureRefusal } from '../../core/payment/rules';
import type { PaymentRun } from './run';

/**
 * Two-step payments (docs/payments.md): the capture update and the authorisation window at whose
 * end the service releases the hold itself. Completing an authorisation and following a
 * completion the acquirer did not answer are steps of the run (run.ts), shared with the
 * COMPLETE_AUTHORIZATION effect of a one-step terminal.
 */

export function registerTwoStepHandlers(run: PaymentRun): void {
  setHandler(
    captureUpdate,
    async (request) => {
      if (!run.synced) await run.untilSynced();
      // Decided again as the handler starts: the grant check (workflows/grantCheck.ts) may have awaited since the validator ran.
      const refusal = captureRefusal(run.state, run.inFlight(), request?.amount);
      if (refusal) throw refused(refusal);
      // All the card approved (less than asked after a partial authorisation), with its tip (docs/tips.md).
      const amount = request.amount ?? authorisedTotal(run.state).toFixed();
      run.pendingCapture = amount; // before any await: a second capture is refused by the validator
      const bill = await run.complete(amount);
      if (!bill) {
        run.followCapture();
        return run.answer('ACQUIRER_UNREACHABLE', 'the acquirer did not answer; the capture is kept and completed later');
      }
      await run.apply({ type: 'BILL_OBSERVED', bill, cause: 'COMPLETE', source: 'API', actionReference: run.captureReference() });
      run.pendingCapture = null;
      if (run.state.status !== 'CAPTURED')
        return run.answer('CAPTURE_REJECTED', `the acquirer did not complete the authorisation: the payment is ${run.state.status}`);
      return run.answer();
    },
    {
      validator: (request) => {
        const refusal = captureRefusal(run.state, run.inFlight(), request?.amount);
        if (refusal) throw refused(refusal);
      },
    },
  );
}

/**
 * Two-step: waits for the completion or the release; at the end of the authorisation window the
 * service releases the hold itself (CANCELLED, AUTHORIZATION_EXPIRED), unless a completion is
 * under way: a capture asked for in time is completed even after the window.
 */
export async function authorizationWindow(run: PaymentRun): Promise<void> {
  const fromMs = run.state.authorizedAt ? Date.parse(run.state.authorizedAt) : Date.now();
  const endMs = fromMs + (run.timing.authorizationWindowMs ?? DEFAULT_AUTHORIZATION_WINDOW_MS);
  let ended = Date.now() >= endMs;
  const timer = new CancellationScope();
  if (!ended) {
    timer
      .run(() => sleep(endMs - Date.now()))
      .then(
        () => (ended = true),
        () => undefined,
      );
  }
  await condition(() => (ended && run.pendingCapture === null) || run.state.status !== 'AUTHORIZED');
  if (run.state.status !== 'AUTHORIZED') {
    if (!ended) timer.cancel();
    return;
  }
  const released = await attemptUntilAnswered(run.persistent.releaseAuthorization(run.billRef()));
  const bill = released.kind === 'answer' ? released.value : await run.persistent.readBill(run.billRef());
  if (run.state.status !== 'AUTHORIZED') return; // completed or released while the release was under way
  await run.apply({
    type: 'BILL_OBSERVED',
    bill,
    cause: 'AUTH_EXPIRY',
    source: run.sweepNudged ? 'SWEEP' : 'WORKFLOW',
    actionReference: `AUTH-EXPIRY-${run.pspReference}`,
  });
}
