import { CancellationScope, condition, setHandler, sleep } from '@temporalio/workflow';
import type { BillStatus } from '../../core/acquirer';
import { attempt, attemptUntilAnswered, refused } from './calls';
import { captureUpdate, DEFAULT_AUTHORIZATION_WINDOW_MS } from '../../core/payment/messages';
import { captureRefusal } from '../../core/payment/rules';
import type { PaymentRun } from './run';

/**
 * Two-step payments (contracts 6): completing an authorisation (capture, or at once for a
 * one-step terminal whose device authorised), following a completion the acquirer did not answer,
 * and the authorisation window at whose end the service releases the hold itself.
 */

const captureReferenceOf = (run: PaymentRun) => `CAPTURE-${run.pspReference}`;

/** Completes the authorisation at the acquirer; the completed bill, or null when the acquirer did not answer. */
export async function complete(run: PaymentRun, amount: string, acquirerRef = run.state.acquirerRef!): Promise<BillStatus | null> {
  const done = await attempt(run.quick.completeAuthorization({ deviceId: run.deviceId, acquirerRef, amount, captureReference: captureReferenceOf(run) }));
  if (done.kind === 'answer') return done.value;
  if (done.kind === 'noAnswer') return null;
  // Refused: released or completed meanwhile; what the bill says now decides.
  return run.quick.readBill({ deviceId: run.deviceId, acquirerRef }).catch(() => null);
}

/** A completion the acquirer did not answer: kept, and completed by the workflow once it answers. */
export function followCapture(run: PaymentRun): void {
  void (async () => {
    while (run.pendingCapture !== null && run.state.status === 'AUTHORIZED') {
      const done = await attemptUntilAnswered(
        run.persistent.completeAuthorization({ ...run.billRef(), amount: run.pendingCapture, captureReference: captureReferenceOf(run) }),
      );
      const bill = done.kind === 'answer' ? done.value : await run.persistent.readBill(run.billRef());
      await run.apply({ type: 'BILL_OBSERVED', bill, cause: 'COMPLETE', source: 'WORKFLOW', actionReference: captureReferenceOf(run) });
      if (run.state.status !== 'AUTHORIZED' || bill.state === 'AUTHORIZED') break;
    }
    run.pendingCapture = null;
  })();
}

export function registerTwoStepHandlers(run: PaymentRun): void {
  setHandler(
    captureUpdate,
    async (request) => {
      if (!run.synced) await run.untilSynced();
      // Decided again as the handler starts: the grant check (workflows/grantCheck.ts) may have awaited since the validator ran.
      const refusal = captureRefusal(run.state, run.inFlight(), request?.amount);
      if (refusal) throw refused(refusal);
      const amount = request.amount ?? run.input.amount;
      run.pendingCapture = amount; // before any await: a second capture is refused by the validator
      const bill = await complete(run, amount);
      if (!bill) {
        followCapture(run);
        return run.answer('ACQUIRER_UNREACHABLE', 'the acquirer did not answer; the capture is kept and completed later');
      }
      await run.apply({ type: 'BILL_OBSERVED', bill, cause: 'COMPLETE', source: 'API', actionReference: captureReferenceOf(run) });
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
