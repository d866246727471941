import {
  ActivityFailure,
  ApplicationFailure,
  allHandlersFinished,
  CancellationScope,
  CancelledFailure,
  condition,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  sleep,
  TemporalFailure,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../../activities';
import Decimal from 'decimal.js';
import type { BillStatus, RefundStatus, SendBillRequest, SendBillResult, VoidStatus } from '../../src/acquirer/port';
import { PaymentStatus as PaymentStatusAttribute } from '../definitions/searchAttributes';
import {
  ACQUIRER_RETRY_MAX_MS,
  acquirerNotifiedSignal,
  cancelUpdate,
  captureUpdate,
  DEFAULT_AUTHORIZATION_WINDOW_MS,
  DEFAULT_REFUND_CONFIRM_TIMEOUT_MS,
  operatorClearUpdate,
  type PaymentNotice,
  type PaymentOutcome,
  type PaymentWorkflowInput,
  type PendingRefund,
  paymentStateQuery,
  placeBillUpdate,
  settleUpdate,
  type RefundRequestInput,
  refundReferenceOf,
  type RefundStatusName,
  refundUpdate,
  resumeRefundsSignal,
  sweepNudgeSignal,
  syncStatusUpdate,
  voidUpdate,
} from './messages';
import { type HistorySource, isRefundable, isSettleable, REASONS } from './statuses';
import { initialState, type PaymentEvent, type PaymentState, type ReadCause, refundableAmount, transition } from './transition';
import { eventTypeForEntry } from '../../src/webhooks/eventTypes';
import { oneAtATime, type Serialize, serialized } from './oneAtATime';

/**
 * One payment, from the bill on the device to the end of its void window (docs/architecture.md):
 * 1. placement: send the bill (answered to the creating request by the placeBill update);
 * 2. waiting: one timer to timeout plus grace; updates and signals re-read the acquirer;
 * 3. after a capture: one timer to the end of the void window, and the void update.
 * Every transition goes through transition(); its effects (projection, search attribute, webhook
 * event) run here. Reads of the acquirer are coalesced, so many sync-status calls cost one read.
 */

// Quick calls, run as local activities (no extra workflow tasks): bounded, a failure means "no answer".
const ACQUIRER_REJECTED = 'AcquirerRejected';
// Bounded by attempts: a local activity's schedule-to-close is not a reliable bound while it retries.
const quickCalls = proxyLocalActivities<Activities>({
  startToCloseTimeout: '6s',
  retry: { initialInterval: '200ms', backoffCoefficient: 2, maximumInterval: '1s', maximumAttempts: 2, nonRetryableErrorTypes: [ACQUIRER_REJECTED] },
});
// Projection and webhook event: must happen, retried until they do.
const effectCalls = proxyLocalActivities<Activities>({
  startToCloseTimeout: '10s',
  retry: { initialInterval: '200ms', backoffCoefficient: 2, maximumInterval: '10s' },
});
// Calls that must eventually get an answer (expiry, probe): server-side retries add no history.
// Their pause is capped per run (timing.acquirerRetryMaxMs); options are not part of replay checks.
const persistentCalls = (maximumIntervalMs = ACQUIRER_RETRY_MAX_MS) =>
  proxyActivities<Activities>({
    startToCloseTimeout: '20s',
    retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: maximumIntervalMs, nonRetryableErrorTypes: [ACQUIRER_REJECTED] },
  });

/** Reads of a reversal not confirmed within the void request: bounded, increasingly spaced. */
const VOID_FOLLOW_UP_DELAYS_MS = [5_000, 30_000, 120_000, 600_000, 3_600_000];
/** Re-submissions (same reference) of a refund still undecided; the last delay repeats until the acquirer decides. */
const REFUND_FOLLOW_UP_DELAYS_MS = [2_000, 10_000, 60_000, 600_000, 3_600_000];
/** Versions the AUTHORIZED phase: before it, a run followed the acquirer with no window of its own. */
const AUTHORIZATION_WINDOW_PATCH = 'authorization-window';
/** Versions the skipped publish step of a status that emits no webhook event (AWAITING_TERMINAL, EXPIRED). */
const NO_SILENT_PUBLISH_PATCH = 'no-publish-without-event';
/**
 * Versions the writing of a new refund's PENDING row: an activity scheduled by the workflow task
 * that accepts the refund, not a local activity inside it. A local activity could write the row in
 * a task that then timed out (a loaded worker): the update was never accepted, its client was
 * answered 503, and the row stayed PENDING with no run following it and its amount reserved by none.
 */
const REFUND_ROW_ACTIVITY_PATCH = 'refund-row-activity';
/**
 * Versions the start of a later run (any run not starting from CREATED): it takes the payment from
 * its row as it stands once the run has started, not from its input. The input was read by the
 * starter (the API, the sweep), possibly before the run before it wrote its last changes (a refund
 * decided, the run ended): a run from a stale input would reserve refunds already paid and write
 * history sequences already taken. Handlers wait for it.
 */
const FRESH_ROW_PATCH = 'later-run-reads-row';
/**
 * Versions refunds handed to a run (signal resumeRefunds, a start's input): adopted only as the
 * PENDING rows the database holds under those ids, never on the message's word (issue 22: a
 * signal sent through the Temporal UI made the acquirer pay a made-up refund). Before it, a run
 * followed whatever it was handed.
 */
const REFUND_ROWS_CHECKED_PATCH = 'refund-rows-checked';
/**
 * Versions refusing a refund while a reversal of the payment is under way, in the refund's
 * handler as well as its validator (validators do not run on replay; the handler does): before
 * it, a refund accepted during a pending void paid the customer back twice.
 */
const VOID_BLOCKS_REFUND_PATCH = 'void-blocks-refund';
/**
 * Versions the end of a run with a reversal still followed: the run waits for its follow-up reads
 * (bounded, VOID_FOLLOW_UP_DELAYS_MS), so no later run accepts a refund while the acquirer may
 * still confirm the reversal. Before it, the run ended at the end of the void window.
 */
const VOID_FOLLOWED_TO_END_PATCH = 'void-followed-to-end';
/** Versions running local activities one at a time (oneAtATime.ts): runs before it ran them side by side. */
const ONE_LOCAL_ACTIVITY_PATCH = 'one-local-activity-at-a-time';
// The PENDING row of a new refund: must be written, retried until it is.
const rowWrites = proxyActivities<Activities>({
  startToCloseTimeout: '10s',
  retry: { initialInterval: '200ms', backoffCoefficient: 2, maximumInterval: '10s' },
});

/** One refund as the workflow follows it. */
interface RefundInFlight {
  id: string;
  amount: string;
  status: RefundStatusName;
  idempotencyKey: string | null;
  requestFingerprint: string | null;
  /** Its row is written (answers wait for it). */
  recorded: boolean;
  /** A background follow-up is running. */
  following: boolean;
  /** Its decision is written (row, history, event): only then may the run end. */
  done: boolean;
}

/** An activity's failure: wrapped in ActivityFailure, or (local activities) the failure itself. */
const activityCause = (err: unknown): TemporalFailure | undefined =>
  err instanceof ActivityFailure ? ((err.cause as TemporalFailure | undefined) ?? err) : err instanceof TemporalFailure ? err : undefined;
const isRejected = (err: unknown): boolean => {
  const cause = activityCause(err);
  return cause instanceof ApplicationFailure && cause.type === ACQUIRER_REJECTED;
};
/** The acquirer gave no usable answer (unreachable, timed out): nothing is known, nothing changes. */
const isNoAnswer = (err: unknown): boolean => activityCause(err) !== undefined && !(err instanceof CancelledFailure) && !isRejected(err);

export async function paymentWorkflow(input: PaymentWorkflowInput): Promise<PaymentOutcome> {
  const { paymentId, pspReference, deviceId, timing } = input;
  const persistent = persistentCalls(timing.acquirerRetryMaxMs);
  // Replay must meet the results of local activities in the order the first run met them.
  const serialize: Serialize | null = patched(ONE_LOCAL_ACTIVITY_PATCH) ? oneAtATime() : null;
  const quick = serialize ? serialized(quickCalls, serialize) : quickCalls;
  const effects = serialize ? serialized(effectCalls, serialize) : effectCalls;
  let state: PaymentState = initialState({
    status: input.status,
    sequence: input.historySequence,
    acquirerRef: input.acquirerRef,
    paymentMethod: input.paymentMethod,
    capturedAt: input.capturedAtMs !== null ? new Date(input.capturedAtMs).toISOString() : null,
    settledAt: input.settledAtMs ? new Date(input.settledAtMs).toISOString() : null,
    amount: input.amount,
    authorizedAt: input.authorizedAtMs ? new Date(input.authorizedAtMs).toISOString() : null,
    // Runs from before these fields: a captured payment captured all of its amount.
    capturedAmount: input.capturedAmount !== undefined ? input.capturedAmount : input.capturedAtMs !== null ? input.amount : null,
    refundedAmount: input.refundedAmount ?? '0',
  });
  /** The device's own timeout, and our expiry a grace period later. */
  const terminalDeadlineMs = input.createdAtMs + timing.terminalTimeoutMs;
  const expiresAtMs = input.expiresAtMs;
  /** Highest sequence whose projection is written: answers wait for it, so the API reads what they say. */
  let projectedSequence = input.historySequence;
  let reading: Promise<boolean> | null = null;
  let nudgedWhilePlacing = false;
  let cancelRequested = false;
  let sweepNudged = input.startedBy === 'SWEEP';
  let cancelAttempts = 0;
  let voidAttempts = 0;
  const pendingVoids = new Set<string>();
  /** Void requests being handled (from acceptance, before the acquirer answers) and reversals followed in the background. */
  let voidsInFlight = 0;
  let voidFollowers = 0;
  /** A reversal may move money back: no refund is accepted meanwhile. */
  const voidUnderWay = (): boolean => voidsInFlight > 0 || pendingVoids.size > 0;
  const VOID_UNDER_WAY = 'refund not permitted: a void of this payment is under way';
  /** A two-step completion asked for and not yet answered by the acquirer (exact decimal text). */
  let pendingCapture: string | null = null;
  const refunds = new Map<string, RefundInFlight>();
  const refundsByKey = new Map<string, RefundInFlight>();
  const pendingRefundTotal = (): Decimal => [...refunds.values()].filter((r) => r.status === 'PENDING').reduce((sum, r) => sum.plus(r.amount), new Decimal(0));
  const refundsUndecided = (): boolean => [...refunds.values()].some((r) => !r.done);
  // Distinguishes void references of a later run from those of an earlier one.
  const runTag = workflowInfo().runId.slice(0, 8);
  /** False until a later run has read the row (FRESH_ROW_PATCH); messages wait for it. */
  let synced = !(input.status !== 'CREATED' && patched(FRESH_ROW_PATCH));

  // ---- applying transitions ----

  async function apply(event: PaymentEvent): Promise<void> {
    if (
      event.type === 'BILL_OBSERVED' &&
      event.bill.state === 'AUTHORIZED' &&
      input.twoStep === false &&
      (state.status === 'CREATED' || state.status === 'AWAITING_TERMINAL')
    ) {
      // Only a terminal linked two-step authorises: a one-step terminal's authorisation is completed at once.
      const completed = await complete(input.amount, event.bill.acquirerRef);
      if (completed) event = { ...event, bill: completed };
      else {
        pendingCapture = input.amount; // shown AUTHORIZED meanwhile, completed as soon as the acquirer answers
        followCapture();
      }
    }
    const result = transition(state, event, { now: new Date(Date.now()).toISOString() });
    state = result.state;
    let silent = false; // the recorded status emits no webhook event
    for (const effect of result.effects) {
      if (effect.type === 'RECORD_STATUS_EVENT') {
        await effects.recordStatusEvent({ paymentId, event: effect.event, fields: effect.fields, ...(effect.refund ? { refund: effect.refund } : {}) });
        projectedSequence = Math.max(projectedSequence, effect.event.sequence);
        silent = !effect.refund && eventTypeForEntry(effect.event) === undefined;
      } else if (effect.type === 'UPSERT_STATUS_SEARCH_ATTRIBUTE') {
        upsertSearchAttributes([{ key: PaymentStatusAttribute, value: effect.status }]);
      } else {
        // A local activity that would publish nothing: one round trip less on the create path.
        if (silent && patched(NO_SILENT_PUBLISH_PATCH)) continue;
        await effects.publishPaymentEvent({ paymentId, sequence: effect.sequence, ...(effect.refundId ? { refundId: effect.refundId } : {}) });
      }
    }
  }

  async function answer(notice?: PaymentNotice, message?: string): Promise<PaymentOutcome> {
    await condition(() => projectedSequence >= state.sequence);
    return { status: state.status, sequence: state.sequence, ...(notice ? { notice } : {}), ...(message ? { message } : {}) };
  }

  const billRef = () => ({ deviceId, acquirerRef: state.acquirerRef! });

  /** One read of the acquirer at a time; concurrent callers share it. Resolves false when the acquirer did not answer. */
  function refresh(source: HistorySource): Promise<boolean> {
    if (reading) return reading;
    const current = (async (): Promise<boolean> => {
      if (!state.acquirerRef || (state.status !== 'AWAITING_TERMINAL' && state.status !== 'AUTHORIZED')) return true;
      try {
        const bill = await quick.readBill(billRef());
        await apply({ type: 'BILL_OBSERVED', bill, cause: 'READ', source });
        return true;
      } catch (err) {
        if (isNoAnswer(err) || isRejected(err)) return false;
        throw err;
      }
    })();
    reading = current;
    const clear = () => {
      if (reading === current) reading = null;
    };
    current.then(clear, clear);
    return current;
  }

  /** Withdraws the bill (cancel or operator clear) and applies the acquirer's answer. */
  async function withdraw(cause: ReadCause, actionReference: string): Promise<boolean> {
    try {
      const bill = await quick.withdrawBill(billRef());
      await apply({ type: 'BILL_OBSERVED', bill, cause, source: 'API', actionReference });
      return true;
    } catch (err) {
      if (isNoAnswer(err) || isRejected(err)) return false;
      throw err;
    }
  }

  async function checkVoid(voidReference: string, source: HistorySource): Promise<void> {
    let status: VoidStatus | null;
    try {
      status = await quick.readVoid({ ...billRef(), voidReference }); // the bill too: Stripe files a void's refund under it
    } catch (err) {
      if (isNoAnswer(err) || isRejected(err)) return;
      throw err;
    }
    if (!status || status.state === 'REJECTED') pendingVoids.delete(voidReference);
    else if (status.state === 'CONFIRMED') {
      pendingVoids.delete(voidReference);
      await apply({ type: 'VOID_CONFIRMED', voidReference, source });
    }
  }

  /** Follows a reversal not confirmed in time with a bounded number of reads. */
  function followVoid(voidReference: string): void {
    voidFollowers++;
    void (async () => {
      for (const delay of VOID_FOLLOW_UP_DELAYS_MS) {
        await condition(() => state.status !== 'CAPTURED' || !pendingVoids.has(voidReference), delay);
        if (state.status !== 'CAPTURED' || !pendingVoids.has(voidReference)) return;
        await checkVoid(voidReference, 'WORKFLOW');
      }
    })()
      .catch(() => undefined)
      .finally(() => voidFollowers--);
  }

  // ---- two-step completion and release ----

  /** Completes the authorisation at the acquirer; the completed bill, or null when the acquirer did not answer. */
  async function complete(amount: string, acquirerRef = state.acquirerRef!): Promise<BillStatus | null> {
    try {
      return await quick.completeAuthorization({ deviceId, acquirerRef, amount, captureReference: `CAPTURE-${pspReference}` });
    } catch (err) {
      if (isNoAnswer(err)) return null;
      if (!isRejected(err)) throw err;
      // Refused: released or completed meanwhile; what the bill says now decides.
      return quick.readBill({ deviceId, acquirerRef }).catch(() => null);
    }
  }

  /** A completion the acquirer did not answer: kept, and completed by the workflow once it answers. */
  function followCapture(): void {
    void (async () => {
      while (pendingCapture !== null && state.status === 'AUTHORIZED') {
        let bill: BillStatus;
        try {
          bill = await persistent.completeAuthorization({ ...billRef(), amount: pendingCapture, captureReference: `CAPTURE-${pspReference}` });
        } catch (err) {
          if (!isRejected(err)) throw err;
          bill = await persistent.readBill(billRef());
        }
        await apply({ type: 'BILL_OBSERVED', bill, cause: 'COMPLETE', source: 'WORKFLOW', actionReference: `CAPTURE-${pspReference}` });
        if (state.status !== 'AUTHORIZED' || bill.state === 'AUTHORIZED') break;
      }
      pendingCapture = null;
    })();
  }

  // ---- refunds ----

  async function decideRefund(r: RefundInFlight, status: RefundStatus, source: HistorySource): Promise<void> {
    if (r.status !== 'PENDING' || status.state === 'PENDING') return;
    r.status = status.state; // at once: a concurrent read must not apply it twice
    if (status.state === 'SUCCEEDED') {
      await apply({ type: 'REFUND_SUCCEEDED', refundId: r.id, amount: r.amount, actionReference: refundReferenceOf(r.id), source });
    } else {
      await effects.recordRefund({
        ...refundRow(r),
        status: 'FAILED',
        failureReason: status.message ?? 'the acquirer failed the refund',
        decidedAt: new Date(Date.now()).toISOString(),
      });
      await effects.publishPaymentEvent({ paymentId, sequence: state.sequence, refundId: r.id, refundFailed: true });
    }
    r.done = true;
  }

  function refundRow(r: RefundInFlight) {
    const req = refundRequests.get(r.id)!;
    return {
      id: r.id,
      paymentId,
      amount: r.amount,
      refundReference: refundReferenceOf(r.id),
      reason: req.reason,
      createdBy: req.createdBy,
      createdByUserId: req.createdByUserId,
      idempotencyKey: r.idempotencyKey,
      requestFingerprint: r.requestFingerprint,
    };
  }
  const refundRequests = new Map<string, RefundRequestInput>();

  /** Submits (or re-submits: same reference) and applies the acquirer's answer; false when it did not answer. */
  async function submitRefund(r: RefundInFlight, source: HistorySource, persistently = false): Promise<boolean> {
    const request = { ...billRef(), refundReference: refundReferenceOf(r.id), amount: r.amount, currency: input.currency };
    let status: RefundStatus;
    try {
      status = persistently ? await persistent.submitRefund(request) : await quick.submitRefund(request);
    } catch (err) {
      if (isRejected(err)) {
        await decideRefund(r, { refundReference: request.refundReference, state: 'FAILED', amount: r.amount, message: activityCause(err)?.message }, source);
        return true;
      }
      if (isNoAnswer(err)) return false;
      throw err;
    }
    await decideRefund(r, status, source);
    return true;
  }

  /** A refund still undecided: re-submitted (same reference) until the acquirer decides; `firstDelayMs` before the first. */
  function followRefund(r: RefundInFlight, firstDelayMs?: number): void {
    if (r.following) return;
    r.following = true;
    void (async () => {
      for (let i = 0; r.status === 'PENDING'; i++) {
        const delay = i === 0 && firstDelayMs !== undefined ? firstDelayMs : REFUND_FOLLOW_UP_DELAYS_MS[Math.min(i, REFUND_FOLLOW_UP_DELAYS_MS.length - 1)]!;
        if (delay > 0) await condition(() => r.status !== 'PENDING', delay);
        if (r.status !== 'PENDING') break;
        await submitRefund(r, 'WORKFLOW', true);
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
  function adoptRefund(row: PendingRefund): void {
    const known = refunds.get(row.id);
    if (known) {
      if (known.status === 'PENDING') followRefund(known);
      return;
    }
    const fits = new Decimal(row.amount).lte(refundableAmount(state).minus(pendingRefundTotal()));
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
    refunds.set(r.id, r);
    refundRequests.set(r.id, { ...row, refundId: row.id });
    if (r.idempotencyKey && !refundsByKey.has(r.idempotencyKey)) refundsByKey.set(r.idempotencyKey, r);
    if (fits) return followRefund(r, 0);
    void (async () => {
      const atAcquirer = await persistent.readRefund({ ...billRef(), refundReference: refundReferenceOf(r.id) }).catch((err) => {
        if (isRejected(err)) return null;
        throw err;
      });
      if (atAcquirer) return followRefund(r, 0);
      await decideRefund(
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

  // Refunds an earlier run took and did not decide: reserved before any handler runs (an update
  // delivered with the start is validated as soon as its handler is set), then followed.
  // Only runs from before the later-run-reads-row patch, or a payment still CREATED (which has
  // no refunds: anything in its input is not ours), take refunds from their input.
  if (synced && input.pendingRefunds?.length && !patched(REFUND_ROWS_CHECKED_PATCH)) for (const row of input.pendingRefunds) adoptRefund(row);

  /** Why a new refund is refused now (status, or more than is left after pending refunds), or undefined. */
  function refundRefusal(request: RefundRequestInput): string | undefined {
    if (!isRefundable(state.status)) return `refund not permitted: the payment is ${state.status}`;
    const left = refundableAmount(state).minus(pendingRefundTotal());
    if (request.amount === undefined) return left.lte(0) ? 'amount: nothing is left to refund' : undefined;
    return new Decimal(request.amount).gt(left) ? `amount: ${request.amount} is more than the ${left.toFixed()} still refundable` : undefined;
  }

  // ---- handlers: all registered before the first await ----

  setHandler(paymentStateQuery, () => ({
    status: state.status,
    sequence: state.sequence,
    acquirerRef: state.acquirerRef,
    pendingVoids: [...pendingVoids],
    refunds: [...refunds.keys()],
  }));

  setHandler(placeBillUpdate, async () => {
    if (!synced) await condition(() => synced);
    if (state.status === 'CREATED') await condition(() => state.status !== 'CREATED', timing.placementWaitMs);
    return answer(state.status === 'CREATED' ? 'ACQUIRER_UNREACHABLE' : undefined);
  });

  setHandler(syncStatusUpdate, async () => {
    if (!synced) await condition(() => synced);
    if (state.status === 'CREATED') await condition(() => state.status !== 'CREATED', timing.placementWaitMs);
    if (state.status === 'CREATED') return answer('ACQUIRER_UNREACHABLE');
    const answered = await refresh('API');
    return answer(answered ? undefined : 'ACQUIRER_UNREACHABLE');
  });

  setHandler(
    cancelUpdate,
    async () => {
      if (!synced) await condition(() => synced);
      if (state.status === 'CREATED') await condition(() => state.status !== 'CREATED', timing.placementWaitMs);
      if (state.status === 'CREATED') {
        cancelRequested = true; // withdrawn as soon as the bill is placed
        return answer('ACQUIRER_UNREACHABLE');
      }
      if (state.status === 'AUTHORIZED') {
        // Two-step: release the hold at the acquirer.
        const actionReference = `RELEASE-${pspReference}-${++cancelAttempts}`;
        let bill: BillStatus;
        try {
          bill = await quick.releaseAuthorization(billRef());
        } catch (err) {
          if (isNoAnswer(err)) return answer('ACQUIRER_UNREACHABLE');
          if (!isRejected(err)) throw err;
          return answer('ACQUIRER_UNREACHABLE', activityCause(err)?.message);
        }
        await apply({ type: 'BILL_OBSERVED', bill, cause: 'RELEASE', source: 'API', actionReference });
        return answer();
      }
      if (state.status !== 'AWAITING_TERMINAL') return answer(); // decided meanwhile: the payment stands
      const answered = await withdraw('CANCEL', `CANCEL-${pspReference}-${++cancelAttempts}`);
      return answer(answered ? undefined : 'ACQUIRER_UNREACHABLE');
    },
    {
      validator: () => {
        if (state.status === 'AUTHORIZED' && pendingCapture !== null) throw new Error('payment already decided: its capture is being completed');
      },
    },
  );

  setHandler(
    captureUpdate,
    async (request) => {
      if (!synced) await condition(() => synced);
      const amount = request.amount ?? input.amount;
      pendingCapture = amount; // before any await: a second capture is refused by the validator
      const bill = await complete(amount);
      if (!bill) {
        followCapture();
        return answer('ACQUIRER_UNREACHABLE', 'the acquirer did not answer; the capture is kept and completed later');
      }
      await apply({ type: 'BILL_OBSERVED', bill, cause: 'COMPLETE', source: 'API', actionReference: `CAPTURE-${pspReference}` });
      pendingCapture = null;
      if (state.status !== 'CAPTURED') return answer('CAPTURE_REJECTED', `the acquirer did not complete the authorisation: the payment is ${state.status}`);
      return answer();
    },
    {
      validator: (request) => {
        if (state.status !== 'AUTHORIZED') throw new Error(`capture not permitted: the payment is ${state.status}, not AUTHORIZED`);
        if (pendingCapture !== null) throw new Error('capture not permitted: a capture of this payment is already being completed');
        if (request?.amount !== undefined && (new Decimal(request.amount).lte(0) || new Decimal(request.amount).gt(input.amount))) {
          throw new Error(`amount: must be greater than 0 and at most the authorised ${input.amount}`);
        }
      },
    },
  );

  setHandler(
    refundUpdate,
    async (request) => {
      if (!synced) await condition(() => synced);
      const known = refunds.get(request.refundId) ?? (request.idempotencyKey ? refundsByKey.get(request.idempotencyKey) : undefined);
      // The validator saw the run's state before a later run read its row: decided again here, before any await.
      const refusal = known ? undefined : (refundRefusal(request) ?? (voidUnderWay() && patched(VOID_BLOCKS_REFUND_PATCH) ? VOID_UNDER_WAY : undefined));
      if (refusal) throw ApplicationFailure.create({ message: refusal, nonRetryable: true });
      if (known) {
        if (known.requestFingerprint !== request.requestFingerprint && known.id !== request.refundId) {
          return answer('IDEMPOTENCY_MISMATCH', 'Idempotency-Key was already used with another request');
        }
        await condition(() => known.recorded);
        return { ...(await answer()), refund: { id: known.id, status: known.status } };
      }
      // Reserved before any await: concurrent refunds see it in what is still refundable.
      const amount = request.amount ?? refundableAmount(state).minus(pendingRefundTotal()).toFixed();
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
      refunds.set(r.id, r);
      refundRequests.set(r.id, request);
      if (r.idempotencyKey) refundsByKey.set(r.idempotencyKey, r);
      if (patched(REFUND_ROW_ACTIVITY_PATCH)) await rowWrites.recordRefund({ ...refundRow(r), status: 'PENDING' });
      else await effects.recordRefund({ ...refundRow(r), status: 'PENDING' });
      r.recorded = true;
      const answered = await submitRefund(r, 'API');
      if (r.status === 'PENDING') {
        // Wait for the decision (the acquirer's notification re-reads it), then read once more.
        const timeout = timing.refundConfirmTimeoutMs ?? DEFAULT_REFUND_CONFIRM_TIMEOUT_MS;
        if (answered) {
          await condition(() => r.status !== 'PENDING', timeout);
          if (r.status === 'PENDING') await submitRefund(r, 'API');
        }
        if (r.status === 'PENDING') followRefund(r);
      }
      await condition(() => projectedSequence >= state.sequence);
      return { ...(await answer()), refund: { id: r.id, status: r.status } };
    },
    {
      validator: (request) => {
        const known = refunds.get(request.refundId) ?? (request.idempotencyKey ? refundsByKey.get(request.idempotencyKey) : undefined);
        if (known) return; // answered with the refund it already is
        const refusal = refundRefusal(request) ?? (voidUnderWay() ? VOID_UNDER_WAY : undefined);
        if (refusal) throw new Error(refusal);
      },
    },
  );

  setHandler(operatorClearUpdate, async () => {
    if (!synced) await condition(() => synced);
    if (state.status === 'CREATED') await condition(() => state.status !== 'CREATED', timing.placementWaitMs);
    const actionReference = `CLEAR-${pspReference}`;
    if (state.status === 'AWAITING_TERMINAL') {
      if (!(await withdraw('CLEAR', actionReference))) await apply({ type: 'OPERATOR_CLEARED', actionReference });
    } else if (state.status === 'CREATED') {
      // Still unplaced: the operator's decision stands; a bill placed later is withdrawn at once.
      await apply({ type: 'OPERATOR_CLEARED', actionReference });
    }
    return answer();
  });

  setHandler(
    voidUpdate,
    async () => {
      voidsInFlight++; // before any await: a refund arriving meanwhile is refused
      try {
        return await voidRequest();
      } finally {
        voidsInFlight--;
      }
    },
    {
      validator: () => {
        if (state.status !== 'CAPTURED') throw new Error(`void not permitted: the payment is ${state.status}`);
        if (refundsUndecided()) throw new Error('void not permitted: a refund of this payment is under way');
        if (state.capturedAt && Date.now() >= Date.parse(state.capturedAt) + timing.voidWindowMs) {
          throw new Error('void not permitted: the void window has closed');
        }
      },
    },
  );

  async function voidRequest(): Promise<PaymentOutcome> {
    if (!synced) await condition(() => synced);
    const voidReference = `VOID-${pspReference}-${runTag}-${++voidAttempts}`;
    let submitted: VoidStatus;
    try {
      submitted = await quick.submitVoid({ ...billRef(), voidReference });
    } catch (err) {
      if (isRejected(err)) return answer('VOID_REJECTED', activityCause(err)?.message);
      if (!isNoAnswer(err)) throw err;
      // The answer was lost: the reversal may exist; follow it like an unconfirmed one.
      pendingVoids.add(voidReference);
      followVoid(voidReference);
      return answer('VOID_PENDING', 'the acquirer did not answer; the reversal is followed up');
    }
    if (submitted.state === 'REJECTED') return answer('VOID_REJECTED', submitted.message);
    if (submitted.state === 'CONFIRMED') {
      await apply({ type: 'VOID_CONFIRMED', voidReference, source: 'API' });
      return answer();
    }
    pendingVoids.add(voidReference);
    // Wait for the confirmation (the acquirer's notification re-reads it), then read once more.
    const confirmed = await condition(() => state.status !== 'CAPTURED', timing.voidConfirmTimeoutMs);
    if (!confirmed && state.status === 'CAPTURED') await checkVoid(voidReference, 'API');
    if (state.status === 'CAPTURED' && pendingVoids.has(voidReference)) {
      followVoid(voidReference);
      return answer('VOID_PENDING');
    }
    return answer();
  }

  // Settlement: the one writer applies it; once settled the void window ends (a SETTLED payment cannot be voided).
  setHandler(
    settleUpdate,
    async ({ batchId }) => {
      if (!synced) await condition(() => synced);
      await apply({ type: 'SETTLED', batchId });
      return answer();
    },
    {
      validator: (_request) => {
        if (!state.settledAt && !isSettleable(state.status)) throw new Error(`settlement not permitted: the payment is ${state.status}`);
      },
    },
  );

  setHandler(acquirerNotifiedSignal, async (nudge) => {
    if (!synced) await condition(() => synced);
    if (nudge.event === 'VOID_CONFIRMED') {
      for (const ref of [...pendingVoids]) if (state.status === 'CAPTURED') await checkVoid(ref, 'TERMINAL');
      return;
    }
    if (nudge.event === 'REFUND_SUCCEEDED' || nudge.event === 'REFUND_FAILED') {
      for (const r of [...refunds.values()]) {
        if (r.status === 'PENDING' && (!nudge.refundReference || nudge.refundReference === refundReferenceOf(r.id))) await submitRefund(r, 'TERMINAL');
      }
      return;
    }
    if (state.status === 'CREATED') nudgedWhilePlacing = true;
    else await refresh('TERMINAL');
  });

  setHandler(resumeRefundsSignal, async (rows) => {
    if (!synced) await condition(() => synced);
    if (!patched(REFUND_ROWS_CHECKED_PATCH)) {
      for (const row of rows) adoptRefund(row);
      return;
    }
    const refundIds = Array.isArray(rows) ? rows.map((row) => row?.id).filter((id): id is string => typeof id === 'string') : [];
    for (const row of await effects.readPendingRefunds({ paymentId, refundIds })) adoptRefund(row);
  });

  setHandler(sweepNudgeSignal, async () => {
    if (!synced) await condition(() => synced);
    sweepNudged = true;
    if (state.status !== 'CREATED') await refresh('SWEEP');
  });

  // ---- the life of the payment ----

  if (!synced) {
    const row = await effects.readPaymentSnapshot({ paymentId });
    state = { ...state, ...row.fields, sequence: row.sequence };
    projectedSequence = row.sequence;
    for (const refund of row.pendingRefunds) adoptRefund(refund);
    synced = true;
  }

  if (state.status === 'CREATED') await place();
  if (state.status === 'AWAITING_TERMINAL') await awaitDecision();
  if (state.status === 'AUTHORIZED') {
    if (patched(AUTHORIZATION_WINDOW_PATCH)) await authorizationWindow();
    else await condition(() => state.status !== 'AUTHORIZED'); // runs from before two-step completion
  }
  if (state.status === 'CAPTURED') await voidWindow();

  // Post-sale changes (refunds) reach the running workflow; it ends only once each is decided.
  await condition(() => allHandlersFinished() && !refundsUndecided() && pendingCapture === null);
  return { status: state.status, sequence: state.sequence };

  // ---- phases ----

  async function place(): Promise<void> {
    const request: SendBillRequest = {
      deviceId,
      paymentId,
      pspReference,
      amount: input.amount,
      currency: input.currency,
      reference: input.reference,
      modes: input.modes,
      timeoutSeconds: Math.max(1, (terminalDeadlineMs - Date.now()) / 1000),
      // An activity's input is not part of what replay compares: adding it needs no patch.
      ...(input.receipt ? { receipt: input.receipt } : {}),
      // The terminal's two-step configuration decides the capture (Stripe: manual capture).
      ...(input.twoStep !== undefined ? { twoStep: input.twoStep } : {}),
    };
    const createRef = `CREATE-${pspReference}`;
    let sent: SendBillResult | undefined;
    if (terminalDeadlineMs - Date.now() > 1000) {
      try {
        // One quick attempt (a local activity holds the workflow task; it must not linger when the acquirer is silent).
        const once = proxyLocalActivities<Activities>({
          startToCloseTimeout: '6s',
          retry: { maximumAttempts: 1, nonRetryableErrorTypes: [ACQUIRER_REJECTED] },
        });
        sent = await (serialize ? serialized(once, serialize) : once).sendBill(request);
      } catch (err) {
        if (!isNoAnswer(err) && !isRejected(err)) throw err;
        if (isRejected(err)) return apply({ type: 'PLACEMENT_FAILED', reason: REASONS.acquirerRejected, actionReference: createRef });
      }
      // No answer yet: keep trying until the device's own deadline (server-side retries grow no history).
      if (!sent && terminalDeadlineMs - Date.now() > 1000 && state.status === 'CREATED') {
        try {
          sent = await proxyActivities<Activities>({
            startToCloseTimeout: '10s',
            scheduleToCloseTimeout: Math.max(1000, terminalDeadlineMs - Date.now()),
            retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '10s', nonRetryableErrorTypes: [ACQUIRER_REJECTED] },
          }).sendBill({ ...request, timeoutSeconds: Math.max(1, (terminalDeadlineMs - Date.now()) / 1000) });
        } catch (err) {
          if (!isNoAnswer(err) && !isRejected(err)) throw err;
          if (isRejected(err)) return apply({ type: 'PLACEMENT_FAILED', reason: REASONS.acquirerRejected, actionReference: createRef });
        }
      }
    }
    if (!sent) return probe(request, createRef);

    if (sent.outcome === 'ON_DEVICE') {
      await apply({ type: 'BILL_PLACED', acquirerRef: sent.acquirerRef });
      if (state.status !== 'AWAITING_TERMINAL') {
        // Cleared by the operator while the send was unanswered: take the late bill off the device.
        await quick.withdrawBill({ deviceId, acquirerRef: sent.acquirerRef }).catch(() => undefined);
      } else if (cancelRequested) {
        await withdraw('CANCEL', `CANCEL-${pspReference}-${++cancelAttempts}`);
      } else if (nudgedWhilePlacing) {
        await refresh('TERMINAL');
      }
    } else if (sent.outcome === 'DEVICE_BUSY') {
      const other = sent.currentReference ? ` (reference ${sent.currentReference})` : '';
      await apply({ type: 'PLACEMENT_REFUSED', refusalReason: `another bill${other} is on terminal ${input.terminalExternalId}`, actionReference: createRef });
    } else {
      await apply({
        type: 'PLACEMENT_REFUSED',
        refusalReason: `the device does not offer the requested modes (it offers ${sent.supportedModes.join(', ')})`,
        actionReference: createRef,
      });
    }
  }

  /** No send was ever answered: learn whether a bill of ours reached the device, leaving none waiting. */
  async function probe(request: SendBillRequest, actionReference: string): Promise<void> {
    if (state.status !== 'CREATED') return;
    let result;
    try {
      result = await persistent.probeUnplacedBill(request);
    } catch (err) {
      if (!isRejected(err)) throw err;
      return apply({ type: 'PLACEMENT_FAILED', reason: REASONS.acquirerRejected, actionReference });
    }
    if ('notPlaced' in result) return apply({ type: 'NOT_PLACED', actionReference });
    await apply({ type: 'BILL_OBSERVED', bill: result.found, cause: 'PROBE', source: sweepNudged ? 'SWEEP' : 'WORKFLOW', actionReference });
  }

  /** Waits for the customer; at timeout plus grace reads once more and withdraws the bill if nobody decided. */
  async function awaitDecision(): Promise<void> {
    let expired = Date.now() >= expiresAtMs;
    const timer = new CancellationScope();
    if (!expired) {
      timer
        .run(() => sleep(expiresAtMs - Date.now()))
        .then(
          () => (expired = true),
          () => undefined,
        );
    }
    await condition(() => expired || state.status !== 'AWAITING_TERMINAL');
    if (state.status !== 'AWAITING_TERMINAL') {
      if (!expired) timer.cancel();
      return;
    }
    if (reading) await reading;
    if (state.status !== 'AWAITING_TERMINAL') return;
    const source: HistorySource = sweepNudged ? 'SWEEP' : 'WORKFLOW';
    const actionReference = `EXPIRY-${pspReference}`;
    let bill;
    try {
      bill = await persistent.expireBill(billRef());
    } catch (err) {
      if (!isRejected(err)) throw err;
      return apply({ type: 'BILL_UNKNOWN', actionReference, source });
    }
    await apply({ type: 'BILL_OBSERVED', bill, cause: 'EXPIRY', source, actionReference });
  }

  /**
   * Two-step: waits for the completion or the release; at the end of the authorisation window the
   * service releases the hold itself (CANCELLED, AUTHORIZATION_EXPIRED), unless a completion is
   * under way: a capture asked for in time is completed even after the window.
   */
  async function authorizationWindow(): Promise<void> {
    const fromMs = state.authorizedAt ? Date.parse(state.authorizedAt) : Date.now();
    const endMs = fromMs + (timing.authorizationWindowMs ?? DEFAULT_AUTHORIZATION_WINDOW_MS);
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
    await condition(() => (ended && pendingCapture === null) || state.status !== 'AUTHORIZED');
    if (state.status !== 'AUTHORIZED') {
      if (!ended) timer.cancel();
      return;
    }
    let bill: BillStatus;
    try {
      bill = await persistent.releaseAuthorization(billRef());
    } catch (err) {
      if (!isRejected(err)) throw err;
      bill = await persistent.readBill(billRef());
    }
    if (state.status !== 'AUTHORIZED') return; // completed or released while the release was under way
    await apply({
      type: 'BILL_OBSERVED',
      bill,
      cause: 'AUTH_EXPIRY',
      source: sweepNudged ? 'SWEEP' : 'WORKFLOW',
      actionReference: `AUTH-EXPIRY-${pspReference}`,
    });
  }

  /** After a capture: one timer to the end of the void window; void updates run meanwhile. */
  async function voidWindow(): Promise<void> {
    const windowEndMs = Date.parse(state.capturedAt ?? new Date(Date.now()).toISOString()) + timing.voidWindowMs;
    if (Date.now() < windowEndMs) {
      let closed = false;
      const timer = new CancellationScope();
      timer
        .run(() => sleep(windowEndMs - Date.now()))
        .then(
          () => (closed = true),
          () => undefined,
        );
      await condition(() => closed || state.status !== 'CAPTURED');
      if (!closed) timer.cancel();
    }
    // Reversals still unconfirmed get one last read before the workflow ends.
    for (const ref of [...pendingVoids]) if (state.status === 'CAPTURED') await checkVoid(ref, 'WORKFLOW');
    // ...and their follow-up reads run to their end: a later run would not know them.
    if (state.status === 'CAPTURED' && voidFollowers > 0 && patched(VOID_FOLLOWED_TO_END_PATCH)) await condition(() => voidFollowers === 0);
  }
}
