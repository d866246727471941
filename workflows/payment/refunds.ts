import { condition, setHandler } from '@temporalio/workflow';
import Decimal from 'decimal.js';
import type { RefundStatus } from '../../core/acquirer';
import { attempt, isRejected, refused, rowWrites } from './calls';
import { DEFAULT_REFUND_CONFIRM_TIMEOUT_MS, type PendingRefund, type RefundRequestInput, refundReferenceOf, refundUpdate } from '../../core/payment/messages';
import { PATCHES } from './patches';
import { evaluateCompliance } from '../compliance/evaluate';
import { refundableLeft, refundRefusal } from '../../core/payment/rules';
import type { PaymentRun, RefundInFlight } from './run';
import type { HistorySource } from '../../core/payment/statuses';

/**
 * Refunds (docs/refunds.md): reserved before any await (concurrent refunds never exceed what was
 * captured), recorded, submitted with a stable reference, followed until the acquirer decides.
 * Refunds a run did not accept itself are adopted only as the rows the database holds.
 */

/** Re-submissions (same reference) of a refund still undecided; the last delay repeats until the acquirer decides. */
const REFUND_FOLLOW_UP_DELAYS_MS = [2_000, 10_000, 60_000, 600_000, 3_600_000];

async function decideRefund(run: PaymentRun, r: RefundInFlight, status: RefundStatus, source: HistorySource): Promise<void> {
  if (r.status !== 'PENDING' || status.state === 'PENDING') return;
  r.status = status.state; // at once: a concurrent read must not apply it twice
  if (status.state === 'SUCCEEDED') {
    await run.apply({ type: 'REFUND_SUCCEEDED', refundId: r.id, amount: r.amount, actionReference: refundReferenceOf(r.id), source });
    if (run.patches.takes(PATCHES.complianceOnRefund)) await evaluateCompliance(run.paymentId);
  } else {
    await run.effects.recordRefund({
      ...refundRow(run, r),
      status: 'FAILED',
      failureReason: status.message ?? 'the acquirer failed the refund',
      decidedAt: new Date(Date.now()).toISOString(),
    });
    const failed = { paymentId: run.paymentId, sequence: run.state.sequence, refundId: r.id, refundFailed: true };
    if (run.patches.takes(PATCHES.publishAfterCommit)) run.publishAfterCommit(failed);
    else await run.effects.publishPaymentEvent(failed);
  }
  r.done = true;
}

function refundRow(run: PaymentRun, r: RefundInFlight) {
  const req = run.refundRequests.get(r.id)!;
  return {
    id: r.id,
    paymentId: run.paymentId,
    amount: r.amount,
    refundReference: refundReferenceOf(r.id),
    reason: req.reason,
    createdBy: req.createdBy,
    createdByUserId: req.createdByUserId,
    idempotencyKey: r.idempotencyKey,
    requestFingerprint: r.requestFingerprint,
  };
}

/** Submits (or re-submits: same reference) and applies the acquirer's answer; false when it did not answer. */
export async function submitRefund(run: PaymentRun, r: RefundInFlight, source: HistorySource, persistently = false): Promise<boolean> {
  const request = { ...run.billRef(), refundReference: refundReferenceOf(r.id), amount: r.amount, currency: run.input.currency };
  const submitted = await attempt(persistently ? run.persistent.submitRefund(request) : run.quick.submitRefund(request));
  if (submitted.kind === 'noAnswer') return false;
  const status: RefundStatus =
    submitted.kind === 'answer' ? submitted.value : { refundReference: request.refundReference, state: 'FAILED', amount: r.amount, message: submitted.message };
  await decideRefund(run, r, status, source);
  return true;
}

/** A refund still undecided: re-submitted (same reference) until the acquirer decides; `firstDelayMs` before the first. */
function followRefund(run: PaymentRun, r: RefundInFlight, firstDelayMs?: number): void {
  if (r.following) return;
  r.following = true;
  void (async () => {
    for (let i = 0; r.status === 'PENDING'; i++) {
      const delay = i === 0 && firstDelayMs !== undefined ? firstDelayMs : REFUND_FOLLOW_UP_DELAYS_MS[Math.min(i, REFUND_FOLLOW_UP_DELAYS_MS.length - 1)]!;
      if (delay > 0) await condition(() => r.status !== 'PENDING', delay);
      if (r.status !== 'PENDING') break;
      await submitRefund(run, r, 'WORKFLOW', true);
    }
    r.following = false;
  })();
}

/**
 * A refund row left PENDING by a run that ended or lost it (terminated, or a task that never
 * completed): followed from now on with its own reference, so the acquirer pays it once. It is
 * reserved when it still fits what is refundable; one that no longer fits is followed only if
 * the acquirer has it (then its decision stands), else it fails without ever being sent.
 */
export function adoptRefund(run: PaymentRun, row: PendingRefund): void {
  const known = run.refunds.get(row.id);
  if (known) {
    if (known.status === 'PENDING') followRefund(run, known);
    return;
  }
  const fits = new Decimal(row.amount).lte(refundableLeft(run.state, run.inFlight()));
  const r: RefundInFlight = {
    id: row.id,
    amount: row.amount,
    status: 'PENDING',
    idempotencyKey: row.idempotencyKey,
    requestFingerprint: row.requestFingerprint,
    recorded: true,
    following: false,
    done: false,
  };
  run.refunds.set(r.id, r);
  run.refundRequests.set(r.id, { ...row, refundId: row.id });
  if (r.idempotencyKey && !run.refundsByKey.has(r.idempotencyKey)) run.refundsByKey.set(r.idempotencyKey, r);
  if (fits) return followRefund(run, r, 0);
  void (async () => {
    const atAcquirer = await run.persistent.readRefund({ ...run.billRef(), refundReference: refundReferenceOf(r.id) }).catch((err) => {
      if (isRejected(err)) return null;
      throw err;
    });
    if (atAcquirer) return followRefund(run, r, 0);
    await decideRefund(
      run,
      r,
      {
        refundReference: refundReferenceOf(r.id),
        state: 'FAILED',
        amount: r.amount,
        message: 'never sent to the acquirer: the payment has no more left to refund',
      },
      'SWEEP',
    );
  })();
}

const knownRefund = (run: PaymentRun, request: RefundRequestInput) =>
  run.refunds.get(request.refundId) ?? (request.idempotencyKey ? run.refundsByKey.get(request.idempotencyKey) : undefined);

export function registerRefundHandlers(run: PaymentRun): void {
  setHandler(
    refundUpdate,
    async (request) => {
      if (!run.synced) await run.untilSynced();
      const known = knownRefund(run, request);
      // The validator saw the run's state before a later run read its row: decided again here, before any await.
      // Runs from before the void-blocks-refund patch accepted a refund while a reversal was under way.
      const refusal = known
        ? undefined
        : refundRefusal(run.state, { ...run.inFlight(), voidUnderWay: run.voidUnderWay() && run.patches.takes(PATCHES.voidBlocksRefund) }, request.amount);
      if (refusal) throw refused(refusal);
      if (known) {
        if (known.requestFingerprint !== request.requestFingerprint && known.id !== request.refundId) {
          return run.answer('IDEMPOTENCY_MISMATCH', 'Idempotency-Key was already used with another request');
        }
        await condition(() => known.recorded);
        return { ...(await run.answer()), refund: { id: known.id, status: known.status } };
      }
      // Reserved before any await: concurrent refunds see it in what is still refundable.
      const amount = request.amount ?? refundableLeft(run.state, run.inFlight()).toFixed();
      const r: RefundInFlight = {
        id: request.refundId,
        amount,
        status: 'PENDING',
        idempotencyKey: request.idempotencyKey,
        requestFingerprint: request.requestFingerprint,
        recorded: false,
        following: false,
        done: false,
      };
      run.refunds.set(r.id, r);
      run.refundRequests.set(r.id, request);
      if (r.idempotencyKey) run.refundsByKey.set(r.idempotencyKey, r);
      if (run.patches.takes(PATCHES.refundRowActivity)) await rowWrites.recordRefund({ ...refundRow(run, r), status: 'PENDING' });
      else await run.effects.recordRefund({ ...refundRow(run, r), status: 'PENDING' });
      r.recorded = true;
      const answered = await submitRefund(run, r, 'API');
      if (r.status === 'PENDING') {
        // Wait for the decision (the acquirer's notification re-reads it), then read once more.
        const timeout = run.timing.refundConfirmTimeoutMs ?? DEFAULT_REFUND_CONFIRM_TIMEOUT_MS;
        if (answered) {
          await condition(() => r.status !== 'PENDING', timeout);
          if (r.status === 'PENDING') await submitRefund(run, r, 'API');
        }
        if (r.status === 'PENDING') followRefund(run, r);
      }
      await condition(() => run.projectedSequence >= run.state.sequence);
      return { ...(await run.answer()), refund: { id: r.id, status: r.status } };
    },
    {
      validator: (request) => {
        if (knownRefund(run, request)) return; // answered with the refund it already is
        const refusal = refundRefusal(run.state, run.inFlight(), request.amount);
        if (refusal) throw refused(refusal);
      },
    },
  );
}

/**
 * Refunds the sweep found PENDING and this run does not follow (signal resumeRefunds). The
 * signal names refunds; the rows say what they are: anyone who reaches Temporal can signal.
 */
export async function resumeRefunds(run: PaymentRun, rows: PendingRefund[]): Promise<void> {
  if (!run.synced) await run.untilSynced();
  if (!run.patches.takes(PATCHES.refundRowsChecked)) {
    for (const row of rows) adoptRefund(run, row);
    return;
  }
  const refundIds = Array.isArray(rows) ? rows.map((row) => row?.id).filter((id): id is string => typeof id === 'string') : [];
  for (const row of await run.effects.readPendingRefunds({ paymentId: run.paymentId, refundIds })) adoptRefund(run, row);
}

/** Refunds an earlier run took and did not decide, from the start's input (runs from before the later-run-reads-row patch). */
export function adoptStartRefunds(run: PaymentRun): void {
  // A payment still CREATED has no refunds: anything in its input is not ours.
  if (run.synced && run.input.pendingRefunds?.length && !run.patches.takes(PATCHES.refundRowsChecked)) {
    for (const row of run.input.pendingRefunds) adoptRefund(run, row);
  }
}
