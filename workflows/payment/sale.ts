import { CancellationScope, setHandler, sleep } from '@temporalio/workflow';
import type { BillStatus, SendBillResult } from '../../core/acquirer';
import { attempt, attemptUntilAnswered, refused, sendOnce, sendUntil } from './calls';
import { cancelUpdate, operatorClearUpdate, type PlaceBillRequest, placeBillUpdate, syncStatusUpdate } from '../../core/payment/messages';
import { serialized } from './oneAtATime';
import { PATCHES } from './patches';
import type { SendAndRecordResult } from '../../core/payment/placement';
import { aheadStands, type WrittenAhead } from '../../core/payment/writtenAhead';
import { cancelRefusal } from '../../core/payment/rules';
import type { PaymentRun } from './run';
import { type HistorySource, REASONS } from '../../core/payment/statuses';

/**
 * The sale: the bill placed on the device (answered to the creating request), the customer's
 * decision awaited until the device's timeout plus grace, re-reads on request, cancel (withdraw
 * the bill, or release a two-step hold) and the operator's clear.
 */

export function registerSaleHandlers(run: PaymentRun): void {
  setHandler(placeBillUpdate, async () => {
    if (!run.synced) await run.untilSynced();
    if (run.state.status === 'CREATED') await run.until(() => run.state.status !== 'CREATED', run.timing.placementWaitMs);
    return run.placementAnswer();
  });

  setHandler(syncStatusUpdate, async () => {
    if (!run.synced) await run.untilSynced();
    if (run.state.status === 'CREATED') await run.until(() => run.state.status !== 'CREATED', run.timing.placementWaitMs);
    if (run.state.status === 'CREATED') return run.answer('ACQUIRER_UNREACHABLE');
    const answered = await run.refresh('API');
    return run.answer(answered ? undefined : 'ACQUIRER_UNREACHABLE');
  });

  setHandler(
    cancelUpdate,
    async () => {
      if (!run.synced) await run.untilSynced();
      // Decided again as the handler starts: the grant check (workflows/grantCheck.ts) may have awaited since the validator ran.
      const refusal = cancelRefusal(run.state, run.inFlight());
      if (refusal) throw refused(refusal);
      if (run.state.status === 'CREATED') await run.until(() => run.state.status !== 'CREATED', run.timing.placementWaitMs);
      if (run.state.status === 'CREATED') {
        run.cancelRequested = true; // withdrawn as soon as the bill is placed
        return run.answer('ACQUIRER_UNREACHABLE');
      }
      if (run.state.status === 'AUTHORIZED') {
        // Two-step: release the hold at the acquirer.
        const actionReference = `RELEASE-${run.pspReference}-${++run.cancelAttempts}`;
        const released = await attempt<BillStatus>(run.quick.releaseAuthorization(run.billRef()));
        if (released.kind === 'noAnswer') return run.answer('ACQUIRER_UNREACHABLE');
        if (released.kind === 'rejected') return run.answer('ACQUIRER_UNREACHABLE', released.message);
        await run.apply({ type: 'BILL_OBSERVED', bill: released.value, cause: 'RELEASE', source: 'API', actionReference });
        return run.answer();
      }
      if (run.state.status !== 'AWAITING_TERMINAL') return run.answer(); // decided meanwhile: the payment stands
      const answered = await run.withdraw('CANCEL', `CANCEL-${run.pspReference}-${++run.cancelAttempts}`);
      return run.answer(answered ? undefined : 'ACQUIRER_UNREACHABLE');
    },
    {
      validator: () => {
        const refusal = cancelRefusal(run.state, run.inFlight());
        if (refusal) throw refused(refusal);
      },
    },
  );

  setHandler(operatorClearUpdate, async () => {
    if (!run.synced) await run.untilSynced();
    if (run.state.status === 'CREATED') await run.until(() => run.state.status !== 'CREATED', run.timing.placementWaitMs);
    const actionReference = `CLEAR-${run.pspReference}`;
    if (run.state.status === 'AWAITING_TERMINAL') {
      if (!(await run.withdraw('CLEAR', actionReference))) await run.apply({ type: 'OPERATOR_CLEARED', actionReference });
    } else if (run.state.status === 'CREATED') {
      // Still unplaced: the operator's decision stands; a bill placed later is withdrawn at once.
      await run.apply({ type: 'OPERATOR_CLEARED', actionReference });
    }
    return run.answer();
  });
}

/** Sends the bill: one quick attempt, then retries until the device's own deadline, then a probe. */
export async function place(run: PaymentRun): Promise<void> {
  const { input } = run;
  const request: PlaceBillRequest = {
    deviceId: run.deviceId,
    paymentId: run.paymentId,
    pspReference: run.pspReference,
    amount: input.amount,
    currency: input.currency,
    // Absent in runs started before it existed: a card with a smaller balance declines.
    ...(input.allowPartialAuthorisation ? { allowPartialAuthorisation: true } : {}),
    // The tip (docs/tips.md): one the POS knows is charged on top; an asked one is the customer's to choose.
    ...(input.tipAmount !== undefined && input.tipAmount !== '0' && !input.tipOffer ? { tipAmount: input.tipAmount } : {}),
    ...(input.tipOffer ? { askTip: input.tipOffer } : {}),
    reference: input.reference,
    modes: input.modes,
    timeoutSeconds: Math.max(1, (run.terminalDeadlineMs - Date.now()) / 1000),
    // An activity's input is not part of what replay compares: adding it needs no patch.
    ...(input.receipt ? { receipt: input.receipt } : {}),
    // The terminal's two-step configuration decides the capture (Stripe: manual capture).
    ...(input.twoStep !== undefined ? { twoStep: input.twoStep } : {}),
    // Who takes it: the send needs no read of the row to find its acquirer.
    takenBy: input.takenBy,
  };
  const createRef = `CREATE-${run.pspReference}`;
  const rejected = () => run.apply({ type: 'PLACEMENT_FAILED', reason: REASONS.acquirerRejected, actionReference: createRef });
  let sent: SendBillResult | undefined;
  let ahead: WrittenAhead | null = null;
  const atSend = { status: run.state.status, sequence: run.state.sequence };
  if (run.terminalDeadlineMs - Date.now() > 1000) {
    const first = await attempt(sendFirst(run, request));
    if (first.kind === 'rejected') return rejected();
    if (first.kind === 'answer') ({ sent, projected: ahead } = first.value);
    // No answer yet: keep trying until the device's own deadline (server-side retries grow no history).
    if (!sent && run.terminalDeadlineMs - Date.now() > 1000 && run.state.status === 'CREATED') {
      const retried = await attempt(
        sendUntil(Math.max(1000, run.terminalDeadlineMs - Date.now())).sendBill({
          ...request,
          timeoutSeconds: Math.max(1, (run.terminalDeadlineMs - Date.now()) / 1000),
        }),
      );
      if (retried.kind === 'rejected') return rejected();
      if (retried.kind === 'answer') sent = retried.value;
    }
  }
  if (!sent) return probe(run, request, createRef);

  if (sent.outcome === 'ON_DEVICE') {
    // The projection the send wrote is adopted only if nothing changed the payment meanwhile; otherwise the decision taken meanwhile was written over it.
    await run.apply({ type: 'BILL_PLACED', acquirerRef: sent.acquirerRef }, aheadStands(atSend, run.state, ahead) ? ahead! : undefined);
    if (run.state.status !== 'AWAITING_TERMINAL') {
      // Cleared by the operator while the send was unanswered: take the late bill off the device.
      await run.quick.withdrawBill({ deviceId: run.deviceId, acquirerRef: sent.acquirerRef }).catch(() => undefined);
    } else if (run.cancelRequested) {
      await run.withdraw('CANCEL', `CANCEL-${run.pspReference}-${++run.cancelAttempts}`);
    } else if (run.nudgedWhilePlacing) {
      await run.refresh('TERMINAL');
    }
  } else if (sent.outcome === 'DEVICE_BUSY') {
    const other = sent.currentReference ? ` (reference ${sent.currentReference})` : '';
    await run.apply({
      type: 'PLACEMENT_REFUSED',
      refusalReason: `another bill${other} is on terminal ${input.terminalExternalId}`,
      actionReference: createRef,
    });
  } else {
    await run.apply({
      type: 'PLACEMENT_REFUSED',
      refusalReason: `the device does not offer the requested modes (it offers ${sent.supportedModes.join(', ')})`,
      actionReference: createRef,
    });
  }
}

/**
 * The first send, one quick attempt. Since send-and-record-together it also writes the
 * AWAITING_TERMINAL projection once the device holds the bill (one local activity less:
 * core/payment/placement.ts); runs before it send alone.
 */
async function sendFirst(run: PaymentRun, request: PlaceBillRequest): Promise<SendAndRecordResult> {
  if (run.serialize && run.patches.takes(PATCHES.sendAndRecord)) {
    const state = run.state;
    return serialized(sendOnce, run.serialize).sendBillAndRecord({ request, state, ...(run.input.billId ? { billId: run.input.billId } : {}) });
  }
  const sent = await (run.serialize ? serialized(sendOnce, run.serialize) : sendOnce).sendBill(request);
  return { sent, projected: null };
}

/** No send was ever answered: learn whether a bill of ours reached the device, leaving none waiting. */
async function probe(run: PaymentRun, request: PlaceBillRequest, actionReference: string): Promise<void> {
  if (run.state.status !== 'CREATED') return;
  const probed = await attemptUntilAnswered(run.persistent.probeUnplacedBill(request));
  if (probed.kind === 'rejected') return run.apply({ type: 'PLACEMENT_FAILED', reason: REASONS.acquirerRejected, actionReference });
  if ('notPlaced' in probed.value) return run.apply({ type: 'NOT_PLACED', actionReference });
  await run.apply({ type: 'BILL_OBSERVED', bill: probed.value.found, cause: 'PROBE', source: run.sweepNudged ? 'SWEEP' : 'WORKFLOW', actionReference });
}

/** Waits for the customer; at timeout plus grace reads once more and withdraws the bill if nobody decided. */
export async function awaitDecision(run: PaymentRun): Promise<void> {
  let expired = Date.now() >= run.expiresAtMs;
  const timer = new CancellationScope();
  if (!expired) {
    timer
      .run(() => sleep(run.expiresAtMs - Date.now()))
      .then(
        () => {
          expired = true;
          run.changed();
        },
        () => undefined,
      );
  }
  await run.until(() => expired || run.state.status !== 'AWAITING_TERMINAL');
  if (run.state.status !== 'AWAITING_TERMINAL') {
    if (!expired) timer.cancel();
    return;
  }
  if (run.reading) await run.reading;
  if (run.state.status !== 'AWAITING_TERMINAL') return;
  const source: HistorySource = run.sweepNudged ? 'SWEEP' : 'WORKFLOW';
  const actionReference = `EXPIRY-${run.pspReference}`;
  const expiry = await attemptUntilAnswered(run.persistent.expireBill(run.billRef()));
  if (expiry.kind === 'rejected') return run.apply({ type: 'BILL_UNKNOWN', actionReference, source });
  await run.apply({ type: 'BILL_OBSERVED', bill: expiry.value, cause: 'EXPIRY', source, actionReference });
}
