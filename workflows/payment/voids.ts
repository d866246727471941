import { CancellationScope, condition, setHandler, sleep } from '@temporalio/workflow';
import type { HistorySource } from '../../core/payment/statuses';
import { attempt, refused } from './calls';
import { type PaymentOutcome, voidUpdate } from '../../core/payment/messages';
import { PATCHES } from './patches';
import { voidRefusal } from '../../core/payment/rules';
import type { PaymentRun } from './run';

/**
 * Voids: a reversal of the capture inside the void window. Each request submits a new reversal;
 * one the acquirer accepted but has not confirmed is followed with a bounded number of reads, and
 * while any is under way no refund is accepted (refunds.ts).
 */

/** Reads of a reversal not confirmed within the void request: bounded, increasingly spaced. */
const VOID_FOLLOW_UP_DELAYS_MS = [5_000, 30_000, 120_000, 600_000, 3_600_000];

export async function checkVoid(run: PaymentRun, voidReference: string, source: HistorySource): Promise<void> {
  // The bill too: Stripe files a void's refund under it.
  const read = await attempt(run.quick.readVoid({ ...run.billRef(), voidReference }));
  if (read.kind !== 'answer') return;
  const status = read.value;
  if (!status || status.state === 'REJECTED') run.pendingVoids.delete(voidReference);
  else if (status.state === 'CONFIRMED') {
    run.pendingVoids.delete(voidReference);
    await run.apply({ type: 'VOID_CONFIRMED', voidReference, source });
  }
}

/** Follows a reversal not confirmed in time with a bounded number of reads. */
function followVoid(run: PaymentRun, voidReference: string): void {
  run.voidFollowers++;
  const stillPending = () => run.state.status === 'CAPTURED' && run.pendingVoids.has(voidReference);
  void (async () => {
    for (const delay of VOID_FOLLOW_UP_DELAYS_MS) {
      await condition(() => !stillPending(), delay);
      if (!stillPending()) return;
      await checkVoid(run, voidReference, 'WORKFLOW');
    }
  })()
    .catch(() => undefined)
    .finally(() => run.voidFollowers--);
}

async function submitVoid(run: PaymentRun): Promise<PaymentOutcome> {
  if (!run.synced) await run.untilSynced();
  const voidReference = `VOID-${run.pspReference}-${run.runTag}-${++run.voidAttempts}`;
  const submitted = await attempt(run.quick.submitVoid({ ...run.billRef(), voidReference }));
  if (submitted.kind === 'rejected') return run.answer('VOID_REJECTED', submitted.message);
  if (submitted.kind === 'noAnswer') {
    // The answer was lost: the reversal may exist; follow it like an unconfirmed one.
    run.pendingVoids.add(voidReference);
    followVoid(run, voidReference);
    return run.answer('VOID_PENDING', 'the acquirer did not answer; the reversal is followed up');
  }
  if (submitted.value.state === 'REJECTED') return run.answer('VOID_REJECTED', submitted.value.message);
  if (submitted.value.state === 'CONFIRMED') {
    await run.apply({ type: 'VOID_CONFIRMED', voidReference, source: 'API' });
    return run.answer();
  }
  run.pendingVoids.add(voidReference);
  // Wait for the confirmation (the acquirer's notification re-reads it), then read once more.
  const confirmed = await condition(() => run.state.status !== 'CAPTURED', run.timing.voidConfirmTimeoutMs);
  if (!confirmed && run.state.status === 'CAPTURED') await checkVoid(run, voidReference, 'API');
  if (run.state.status === 'CAPTURED' && run.pendingVoids.has(voidReference)) {
    followVoid(run, voidReference);
    return run.answer('VOID_PENDING');
  }
  return run.answer();
}

export function registerVoidHandlers(run: PaymentRun): void {
  setHandler(
    voidUpdate,
    async () => {
      // Decided again as the handler starts: the grant check (workflows/grantCheck.ts) may have awaited since the validator ran.
      const refusal = voidRefusal(run.state, run.inFlight(), { nowMs: Date.now(), voidWindowMs: run.timing.voidWindowMs });
      if (refusal) throw refused(refusal);
      run.voidsInFlight++; // before any await: a refund arriving meanwhile is refused
      try {
        return await submitVoid(run);
      } finally {
        run.voidsInFlight--;
      }
    },
    {
      validator: () => {
        const refusal = voidRefusal(run.state, run.inFlight(), { nowMs: Date.now(), voidWindowMs: run.timing.voidWindowMs });
        if (refusal) throw refused(refusal);
      },
    },
  );
}

/** After a capture: one timer to the end of the void window; void updates run meanwhile. */
export async function voidWindow(run: PaymentRun): Promise<void> {
  const windowEndMs = Date.parse(run.state.capturedAt ?? new Date(Date.now()).toISOString()) + run.timing.voidWindowMs;
  if (Date.now() < windowEndMs) {
    let closed = false;
    const timer = new CancellationScope();
    timer
      .run(() => sleep(windowEndMs - Date.now()))
      .then(
        () => {
          closed = true;
          run.changed();
        },
        () => undefined,
      );
    await run.until(() => closed || run.state.status !== 'CAPTURED');
    if (!closed) timer.cancel();
  }
  // Reversals still unconfirmed get one last read before the workflow ends.
  for (const ref of [...run.pendingVoids]) if (run.state.status === 'CAPTURED') await checkVoid(run, ref, 'WORKFLOW');
  // ...and their follow-up reads run to their end: a later run would not know them.
  if (run.state.status === 'CAPTURED' && run.voidFollowers > 0 && run.patches.takes(PATCHES.voidFollowedToEnd)) await condition(() => run.voidFollowers === 0);
}
