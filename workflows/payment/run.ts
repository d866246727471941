import { condition, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import Decimal from 'decimal.js';
import type { BillStatus } from '../../core/acquirer';
import { PaymentStatus as PaymentStatusAttribute } from '../../core/searchAttributes';
import { afterCommit, attempt, attemptUntilAnswered, effectCalls, persistentCalls, quickCalls } from './calls';
import type { PublishPaymentEventInput } from '../../activities/webhooks/publishPaymentEvent';
import type { PaymentNotice, PaymentOutcome, PaymentWorkflowInput, RefundRequestInput, RefundStatusName } from '../../core/payment/messages';
import { oneAtATime, type Serialize, serialized } from './oneAtATime';
import { PATCHES } from './patches';
import { PatchGate } from './patchGate';
import { Waits } from './waits';
import { aheadStands, type WrittenAhead } from '../../core/payment/writtenAhead';
import type { InFlight } from '../../core/payment/rules';
import type { HistorySource } from '../../core/payment/statuses';
import {
  type Effect,
  initialState,
  type PaymentEvent,
  type PaymentState,
  projectedFields,
  type ReadCause,
  totalOf,
  transition,
} from '../../core/payment/transition';
import { chargedBackTotal, disputeStatusRank, isDisputeOpen } from '../../core/dispute/statuses';

/** One refund as the workflow follows it. */
export interface RefundInFlight {
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

/**
 * The state of one run of a payment's workflow, and the steps every handler and phase shares:
 * apply an event (transition, then its effects), answer a message once the projection shows it,
 * re-read the acquirer, withdraw the bill. The handler families (sale, twoStep, voids, refunds,
 * notifications) and the phases work on it; transition() alone decides the status.
 */
export class PaymentRun {
  readonly paymentId: string;
  readonly pspReference: string;
  readonly deviceId: string;
  readonly timing: PaymentWorkflowInput['timing'];
  readonly persistent: ReturnType<typeof persistentCalls>;
  /** Runs before the one-local-activity patch ran local activities side by side. */
  readonly serialize: Serialize | null;
  readonly quick: typeof quickCalls;
  readonly effects: typeof effectCalls;
  state: PaymentState;
  /** The device's own timeout, and our expiry a grace period later. */
  readonly terminalDeadlineMs: number;
  readonly expiresAtMs: number;
  /** Highest sequence whose projection is written: answers wait for it, so the API reads what they say. */
  projectedSequence: number;
  /** The time of the status event at projectedSequence, when this run wrote it (placeBill's answer: PaymentOutcome.placed). */
  projectedAt: string | null = null;
  reading: Promise<boolean> | null = null;
  nudgedWhilePlacing = false;
  cancelRequested = false;
  sweepNudged: boolean;
  cancelAttempts = 0;
  voidAttempts = 0;
  readonly pendingVoids = new Set<string>();
  /** Void requests being handled (from acceptance, before the acquirer answers) and reversals followed in the background. */
  voidsInFlight = 0;
  voidFollowers = 0;
  /** A two-step completion asked for and not yet answered by the acquirer (exact decimal text). */
  pendingCapture: string | null = null;
  readonly refunds = new Map<string, RefundInFlight>();
  readonly refundsByKey = new Map<string, RefundInFlight>();
  readonly refundRequests = new Map<string, RefundRequestInput>();
  /** Distinguishes void references of a later run from those of an earlier one. */
  readonly runTag: string;
  /** False until a later run has read the row (the later-run-reads-row patch); messages wait for it. */
  synced: boolean;
  /** The payment's disputes as last read from their rows: refunds and voids wait while one is open, and a charged-back one's amount is no longer refundable. */
  readonly disputes = new Map<string, { status: string; amount?: string }>();
  /** Runs from before the chargeback-counts patch did not count what a chargeback took back. */
  readonly countsChargebacks: boolean;
  /** Waits woken by the run's own changes (until(): waits.ts); runs from before the waits-woken-by-changes patch use condition(). */
  private readonly waits: Waits;
  /** Webhook events handed to activities (publish-after-commit) and not yet published: the run ends only once there are none. */
  publishesInFlight = 0;
  private publishing: Promise<void> = Promise.resolve();

  /** The patches this run takes (patchGate.ts): looked up before anything asks for one. */
  readonly patches = new PatchGate();

  constructor(readonly input: PaymentWorkflowInput) {
    ({ paymentId: this.paymentId, pspReference: this.pspReference, deviceId: this.deviceId, timing: this.timing } = input);
    this.persistent = persistentCalls(input.timing.acquirerRetryMaxMs);
    // Replay must meet the results of local activities in the order the first run met them.
    this.serialize = this.patches.takes(PATCHES.oneLocalActivity) ? oneAtATime() : null;
    this.quick = this.serialize ? serialized(quickCalls, this.serialize) : quickCalls;
    this.effects = this.serialize ? serialized(effectCalls, this.serialize) : effectCalls;
    this.state = initialState({
      status: input.status,
      sequence: input.historySequence,
      acquirerRef: input.acquirerRef,
      paymentMethod: input.paymentMethod,
      capturedAt: input.capturedAtMs !== null ? new Date(input.capturedAtMs).toISOString() : null,
      settledAt: input.settledAtMs ? new Date(input.settledAtMs).toISOString() : null,
      amount: input.amount,
      ...(input.requestedAmount !== undefined ? { requestedAmount: input.requestedAmount } : {}),
      // A tip known (the POS's, or chosen before this run); an asked one still to come arrives with the approval.
      ...(input.tipAmount !== undefined && input.tipAmount !== '0' ? { tipAmount: input.tipAmount } : {}),
      ...(input.tipOffer ? { tipAsked: true } : {}),
      authorizedAt: input.authorizedAtMs ? new Date(input.authorizedAtMs).toISOString() : null,
      // Runs from before these fields: a captured payment captured all of its amount (and the tip: docs/tips.md).
      capturedAmount:
        input.capturedAmount !== undefined
          ? input.capturedAmount
          : input.capturedAtMs !== null
            ? totalOf({ amount: input.amount, tipAmount: input.tipAmount })
            : null,
      refundedAmount: input.refundedAmount ?? '0',
      ...(input.twoStep !== undefined ? { twoStep: input.twoStep } : {}),
    });
    this.terminalDeadlineMs = input.createdAtMs + input.timing.terminalTimeoutMs;
    this.expiresAtMs = input.expiresAtMs;
    this.projectedSequence = input.historySequence;
    this.sweepNudged = input.startedBy === 'SWEEP';
    this.runTag = workflowInfo().runId.slice(0, 8);
    this.synced = !(input.status !== 'CREATED' && this.patches.takes(PATCHES.laterRunReadsRow));
    this.countsChargebacks = this.patches.takes(PATCHES.chargebackCounts);
    this.waits = new Waits(this.patches.takes(PATCHES.wokenByChanges));
  }

  /** Waits until `ready` holds (false at the timeout), woken by changed(): waits.ts. */
  until(ready: () => boolean, timeoutMs?: number): Promise<boolean> {
    return this.waits.until(ready, timeoutMs);
  }

  /** Wakes the waits of until() whose predicate now holds. */
  changed(): void {
    this.waits.changed();
  }

  /** Resolves once the run has read its row (a later run); handlers wait for it before anything else. */
  untilSynced(): Promise<void> {
    return condition(() => this.synced);
  }

  pendingRefundTotal(): Decimal {
    return [...this.refunds.values()].filter((r) => r.status === 'PENDING').reduce((sum, r) => sum.plus(r.amount), new Decimal(0));
  }
  refundsUndecided(): boolean {
    return [...this.refunds.values()].some((r) => !r.done);
  }
  /** A reversal may move money back: no refund is accepted meanwhile. */
  voidUnderWay(): boolean {
    return this.voidsInFlight > 0 || this.pendingVoids.size > 0;
  }

  /** What is in flight in this run, for the rules (rules.ts). */
  inFlight(): InFlight {
    return {
      captureUnderWay: this.pendingCapture !== null,
      refundUnderWay: this.refundsUndecided(),
      pendingRefundTotal: this.pendingRefundTotal().toFixed(),
      voidUnderWay: this.voidUnderWay(),
      disputeOpen: this.disputeOpen(),
      ...(this.countsChargebacks ? { chargedBack: chargedBackTotal(this.disputes.values()) } : {}),
    };
  }

  disputeOpen(): boolean {
    return [...this.disputes.values()].some((d) => isDisputeOpen(d.status));
  }

  /** What the run hears of a dispute, from its row (or an older run's signal): a later word never moves it back (the two may arrive in either order). */
  heardOfDispute(disputeId: string, status: string, amount?: string): void {
    const known = this.disputes.get(disputeId);
    if (known === undefined || disputeStatusRank(status) >= disputeStatusRank(known.status))
      this.disputes.set(disputeId, { status, amount: amount ?? known?.amount });
  }

  billRef() {
    return { deviceId: this.deviceId, acquirerRef: this.state.acquirerRef! };
  }

  /**
   * Applies one event: transition() decides, and its effects (completing a one-step authorisation,
   * projection, search attribute, webhook event) run here. The workflow adds no rules of its own.
   */
  async apply(event: PaymentEvent, ahead?: WrittenAhead): Promise<void> {
    // A projection written ahead (the first send's, sale.ts; a read's, refresh()): decided at its time, not written twice.
    const result = transition(this.state, event, { now: ahead?.occurredAt ?? new Date(Date.now()).toISOString() });
    this.state = result.state;
    this.changed();
    const publish = result.effects.find((e) => e.type === 'PUBLISH_PAYMENT_EVENT');
    let published = false; // taken care of with its projection (project())
    let toPublish: PublishPaymentEventInput | undefined; // handed to an activity once the effects ran
    for (const effect of result.effects) {
      if (effect.type === 'COMPLETE_AUTHORIZATION') {
        if (event.type === 'BILL_OBSERVED') await this.completeAtOnce(event, effect.amount, effect.acquirerRef); // the only event that decides it
      } else if (effect.type === 'RECORD_STATUS_EVENT') {
        if (ahead?.sequence !== effect.event.sequence) ({ published, toPublish } = await this.project(effect, publish));
        else {
          // Written ahead: its webhook event (a read's CAPTURED announces one) still goes out after the commit, as project() would send it.
          const { about, afterCommit } = this.announcement(publish);
          if (afterCommit) [published, toPublish] = [true, about];
        }
        if (effect.event.sequence >= this.projectedSequence) this.projectedAt = effect.event.occurredAt;
        this.projectedSequence = Math.max(this.projectedSequence, effect.event.sequence);
        this.changed();
      } else if (effect.type === 'UPSERT_STATUS_SEARCH_ATTRIBUTE') {
        upsertSearchAttributes([{ key: PaymentStatusAttribute, value: effect.status }]);
      } else {
        if (published) continue;
        // A local activity that would publish nothing: one round trip less on the create path.
        if (!effect.announces && this.patches.takes(PATCHES.noSilentPublish)) continue;
        await this.effects.publishPaymentEvent({
          paymentId: this.paymentId,
          sequence: effect.sequence,
          ...(effect.refundId ? { refundId: effect.refundId } : {}),
        });
      }
    }
    // Scheduled here, after the projection and the search attribute: the order of the commands is the history's.
    if (toPublish) this.publishAfterCommit(toPublish);
  }

  /**
   * Writes one status event's projection; its webhook event is to be published after the commit
   * (publish-after-commit), or in runs from before that, in the same local activity.
   */
  private async project(
    effect: Extract<Effect, { type: 'RECORD_STATUS_EVENT' }>,
    publish: Extract<Effect, { type: 'PUBLISH_PAYMENT_EVENT' }> | undefined,
  ): Promise<{ published: boolean; toPublish?: PublishPaymentEventInput }> {
    const record = {
      paymentId: this.paymentId,
      event: effect.event,
      fields: effect.fields,
      ...(effect.refund ? { refund: effect.refund } : {}),
      // A tender's bill hears of each status event (docs/bills.md); a payment without a bill sends nothing more.
      ...(this.input.billId ? { billId: this.input.billId } : {}),
    };
    const { about, afterCommit } = this.announcement(publish);
    if (afterCommit) {
      await this.effects.recordStatusEvent(record); // the projection now: answers wait for it
      return { published: true, toPublish: about }; // the event once this task is committed
    }
    if (about && this.patches.takes(PATCHES.recordAndPublish)) {
      // Runs before publish-after-commit: one local activity, one activation less (docs/benchmark.md, "Trips into the sandbox").
      const { paymentId: _, ...rest } = about;
      await this.effects.recordStatusEventAndPublish({ ...record, publish: rest });
      return { published: true };
    }
    await this.effects.recordStatusEvent(record);
    return { published: false };
  }

  /**
   * The webhook event a status event announces (`about`, undefined when none), and whether it is
   * published once this task is committed (publish-after-commit): the one rule of project() and
   * of a projection written ahead (apply()).
   */
  private announcement(publish: Extract<Effect, { type: 'PUBLISH_PAYMENT_EVENT' }> | undefined): {
    about?: PublishPaymentEventInput;
    afterCommit: boolean;
  } {
    if (!publish?.announces) return { afterCommit: false };
    const about = { paymentId: this.paymentId, sequence: publish.sequence, ...(publish.refundId ? { refundId: publish.refundId } : {}) };
    return { about, afterCommit: this.patches.takes(PATCHES.publishAfterCommit) };
  }

  /**
   * Publishes a webhook event by an activity this task schedules: the server hands it out only
   * once the task is committed, so the merchant hears only what the run's history decided
   * (calls.ts, afterCommit). One after another, in the order decided.
   */
  publishAfterCommit(input: PublishPaymentEventInput): void {
    const publish = () => afterCommit.publishPaymentEvent(input).then(() => void this.publishesInFlight--);
    // Scheduled at once when none is in flight (the command's place in the task does not hang on promise timing); else after the one before.
    this.publishing = this.publishesInFlight++ === 0 ? publish() : this.publishing.then(publish);
  }

  /**
   * The COMPLETE_AUTHORIZATION effect (a one-step terminal's device authorised): the completion
   * first, then the observation again with what it came to. Unanswered, the payment shows
   * AUTHORIZED and the completion is followed until the acquirer answers.
   */
  private async completeAtOnce(event: Extract<PaymentEvent, { type: 'BILL_OBSERVED' }>, amount: string, acquirerRef: string): Promise<void> {
    const completed = await this.complete(amount, acquirerRef);
    // The completed bill as approved: an acquirer whose completion does not repeat the approved amount keeps the authorisation's.
    const authorizedAmount = completed?.authorizedAmount ?? event.bill.authorizedAmount;
    // The same for the tip the customer chose with the approval (docs/tips.md).
    const tipAmount = completed?.tipAmount ?? event.bill.tipAmount;
    if (completed)
      return this.apply({
        ...event,
        bill: { ...completed, ...(authorizedAmount !== undefined ? { authorizedAmount } : {}), ...(tipAmount !== undefined ? { tipAmount } : {}) },
        completion: 'ANSWERED',
      });
    // Runs from before this patch left the unanswered completion to the authorisation window.
    const follow = this.patches.takes(PATCHES.oneStepCompletionFollowed);
    if (follow) this.pendingCapture = amount; // shown AUTHORIZED meanwhile, completed as soon as the acquirer answers
    await this.apply({ ...event, completion: 'UNANSWERED' });
    if (follow) this.followCapture();
  }

  /** Completes the authorisation at the acquirer; the completed bill, or null when the acquirer did not answer. */
  async complete(amount: string, acquirerRef = this.state.acquirerRef!): Promise<BillStatus | null> {
    const done = await attempt(this.quick.completeAuthorization({ deviceId: this.deviceId, acquirerRef, amount, captureReference: this.captureReference() }));
    if (done.kind === 'answer') return done.value;
    if (done.kind === 'noAnswer') return null;
    // Refused: released or completed meanwhile; what the bill says now decides.
    return this.quick.readBill({ deviceId: this.deviceId, acquirerRef }).catch(() => null);
  }

  /** A completion the acquirer did not answer (pendingCapture): kept, and completed by the workflow once it answers. */
  followCapture(): void {
    void (async () => {
      while (this.pendingCapture !== null && this.state.status === 'AUTHORIZED') {
        const done = await attemptUntilAnswered(
          this.persistent.completeAuthorization({ ...this.billRef(), amount: this.pendingCapture, captureReference: this.captureReference() }),
        );
        const bill = done.kind === 'answer' ? done.value : await this.persistent.readBill(this.billRef());
        await this.apply({ type: 'BILL_OBSERVED', bill, cause: 'COMPLETE', source: 'WORKFLOW', actionReference: this.captureReference() });
        if (this.state.status !== 'AUTHORIZED' || bill.state === 'AUTHORIZED') break;
      }
      this.pendingCapture = null;
    })();
  }

  captureReference(): string {
    return `CAPTURE-${this.pspReference}`;
  }

  /** The answer to a message: the status once its projection is written, and why nothing happened when it did not. */
  async answer(notice?: PaymentNotice, message?: string): Promise<PaymentOutcome> {
    await this.until(() => this.projectedSequence >= this.state.sequence);
    return { status: this.state.status, sequence: this.state.sequence, ...(notice ? { notice } : {}), ...(message ? { message } : {}) };
  }

  /**
   * placeBill's answer. Once the placement is decided, and nothing since (its status event is the
   * first), with the fields its projection wrote and when (PaymentOutcome.placed).
   */
  async placementAnswer(): Promise<PaymentOutcome> {
    const outcome = await this.answer(this.state.status === 'CREATED' ? 'ACQUIRER_UNREACHABLE' : undefined);
    if (this.state.sequence !== 1 || this.projectedSequence !== 1 || this.projectedAt === null) return outcome;
    return { ...outcome, placed: { fields: projectedFields(this.state), occurredAt: this.projectedAt } };
  }

  /** One read of the acquirer at a time; concurrent callers share it. Resolves false when the acquirer did not answer. */
  refresh(source: HistorySource): Promise<boolean> {
    if (this.reading) return this.reading;
    const current = (async (): Promise<boolean> => {
      if (!this.state.acquirerRef || (this.state.status !== 'AWAITING_TERMINAL' && this.state.status !== 'AUTHORIZED')) return true;
      if (this.serialize && this.patches.takes(PATCHES.readAndRecord)) return this.readAndRecord(source);
      const read = await attempt(this.quick.readBill(this.billRef()));
      if (read.kind !== 'answer') return false;
      await this.apply({ type: 'BILL_OBSERVED', bill: read.value, cause: 'READ', source });
      return true;
    })();
    this.reading = current;
    const clear = () => {
      if (this.reading === current) this.reading = null;
    };
    current.then(clear, clear);
    return current;
  }

  /**
   * refresh()'s read since read-and-record-together: the read and its projection in one local
   * activity (core/payment/observation.ts), adopted only if nothing changed the payment while the
   * read was out; otherwise the decision taken meanwhile is written over it.
   */
  private async readAndRecord(source: HistorySource): Promise<boolean> {
    const atRead = this.state;
    const read = await attempt(
      this.quick.readBillAndRecord({
        paymentId: this.paymentId,
        ...this.billRef(),
        state: atRead,
        source,
        ...(this.input.billId ? { billId: this.input.billId } : {}),
      }),
    );
    if (read.kind !== 'answer') return false;
    const { bill, projected } = read.value;
    await this.apply({ type: 'BILL_OBSERVED', bill, cause: 'READ', source }, aheadStands(atRead, this.state, projected) ? projected! : undefined);
    return true;
  }

  /** Withdraws the bill (cancel or operator clear) and applies the acquirer's answer; false when it did not answer. */
  async withdraw(cause: ReadCause, actionReference: string): Promise<boolean> {
    const withdrawn = await attempt<BillStatus>(this.quick.withdrawBill(this.billRef()));
    if (withdrawn.kind !== 'answer') return false;
    await this.apply({ type: 'BILL_OBSERVED', bill: withdrawn.value, cause, source: 'API', actionReference });
    return true;
  }
}
