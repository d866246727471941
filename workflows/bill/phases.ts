import { ApplicationFailure, condition, isCancellation } from '@temporalio/workflow';
import { ActivityFailure } from '@temporalio/common';
import { BILL_STEP_REFUSED } from '../../core/bill/messages';
import { giveBackStepOf } from '../../core/bill/statuses';
import { type BillRun, nowIso } from './run';

/**
 * Open: tenders come and go until the bill is paid, cancelled, or its expiry passes. Nudged
 * tenders are read here, in the run's main line, one at a time.
 */
export async function openPhase(run: BillRun): Promise<void> {
  while (run.state.status === 'OPEN') {
    const left = Math.max(0, run.input.expiresAtMs - Date.now());
    const woke = await condition(() => run.state.status !== 'OPEN' || run.nudged.size > 0, left);
    if (!woke) {
      await run.apply({ type: 'EXPIRY_DUE', at: nowIso() }).done;
      break;
    }
    await readNudged(run);
  }
}

/**
 * Giving back (cancelled or expired): each tender's step through its payment's own operations,
 * then its row read again; a pass that leaves something to give back waits (for a nudge, or at most
 * retryMaxMs) and tries again, so nothing is given back twice and nothing is left half done.
 */
export async function giveBackPhase(run: BillRun): Promise<void> {
  while (run.state.status === 'CANCELLING') {
    for (const tender of run.state.tenders) {
      const step = giveBackStepOf(tender.status);
      if (!tender.paymentId || step === null || step === 'RETURN_AT_TILL') continue;
      try {
        await run.giveBack.giveBackTender({ billId: run.billId, paymentId: tender.paymentId, step });
      } catch (err) {
        if (isCancellation(err) || !isStepRefused(err)) throw err;
        // The payment moved on meanwhile (paid just now, voided by someone): read it and take the next step.
      }
      await run.readTender(tender.paymentId);
    }
    await run.apply({ type: 'GIVEN_BACK', at: nowIso() }).done;
    if (run.state.status !== 'CANCELLING') break;
    await condition(() => run.nudged.size > 0, run.input.retryMaxMs);
    await readNudged(run);
  }
}

/** Also read nudges that arrived while the bill was final (a refund of a tender of a paid bill changes nothing of the bill). */
export async function readNudged(run: BillRun): Promise<void> {
  for (const paymentId of [...run.nudged]) await run.readTender(paymentId);
}

function isStepRefused(err: unknown): boolean {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  return cause instanceof ApplicationFailure && cause.type === BILL_STEP_REFUSED;
}
