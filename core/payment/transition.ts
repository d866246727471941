import Decimal from 'decimal.js';
import type { BillStatus } from '../acquirer';
import { type HistorySource, isFinal, isRefundable, isSettleable, type PaymentMode, type PaymentStatus, REASONS } from './statuses';
import { eventTypeForEntry } from '../webhooks/eventTypes';

/**
 * The payment state machine (docs/payments.md, "States and transitions") as one pure function:
 * (state, event) -> (new state, effects). The workflow applies it and runs the effects as
 * activities; tests call it without Temporal. Final states never change, except the void that
 * turns CAPTURED into CANCELLED.
 */
export interface PaymentState {
  status: PaymentStatus;
  /** Sequence of the last status event written to the history (0: none yet). */
  sequence: number;
  acquirerRef: string | null;
  paymentMethod: PaymentMode | null;
  cardBrand: string | null;
  last4: string | null;
  reason: string | null;
  refusalReason: string | null;
  /** The payment's previousStatus field: CAPTURED once a void made it CANCELLED. */
  previousStatus: PaymentStatus | null;
  capturedAt: string | null;
  /** Set once by settlement (docs/settlement.md); absent in runs started before settlement existed. */
  settledAt?: string | null;
  /**
   * The payment's amount (exact decimal text): what was asked, until a card approves less
   * (partial authorisation), then what it approved. Projected only when it changes.
   */
  amount: string;
  /** The amount asked, once a card approved less than it (partial authorisation); absent otherwise. */
  requestedAmount?: string;
  /**
   * The tip on top of amount (exact decimal text, docs/tips.md): the POS's from the start, or the
   * one the customer chose, with the acquirer's approval. Absent: none (and in older runs).
   */
  tipAmount?: string;
  /** The payment asked the terminal for a tip: the acquirer's answer carries it. Not projected. */
  tipAsked?: boolean;
  /** Two-step: when the acquirer approved the authorisation (its window runs from it). */
  authorizedAt: string | null;
  /** Exact decimal captured, tip included: the total, or what a two-step completion took. */
  capturedAmount: string | null;
  /** Exact decimal: the sum of succeeded refunds. */
  refundedAmount: string;
  /**
   * The terminal's configuration: false on a one-step terminal, whose authorisation is completed
   * at once (docs/payments.md); absent in runs from before two-step completion, which follow what
   * the device says. Not projected.
   */
  twoStep?: boolean;
}

/**
 * Why the workflow asked the acquirer; decides what a WITHDRAWN or RELEASED bill means.
 * COMPLETE, RELEASE and AUTH_EXPIRY are answers about a two-step authorisation.
 */
export type ReadCause = 'READ' | 'CANCEL' | 'CLEAR' | 'EXPIRY' | 'PROBE' | 'COMPLETE' | 'RELEASE' | 'AUTH_EXPIRY';

export type PaymentEvent =
  /** send-bill answered ON_DEVICE. */
  | { type: 'BILL_PLACED'; acquirerRef: string }
  /** send-bill answered DEVICE_BUSY or MODE_UNSUPPORTED: refused at creation. */
  | { type: 'PLACEMENT_REFUSED'; refusalReason: string; actionReference: string }
  /** The acquirer rejected the bill as malformed: a processing problem. */
  | { type: 'PLACEMENT_FAILED'; reason: string; actionReference: string }
  /**
   * What the acquirer says about the bill (a read, or the answer to withdraw). `completion`: the
   * same observation once the COMPLETE_AUTHORIZATION it decided was carried out, with the
   * completed bill when the acquirer answered (ANSWERED) or the bill as first seen (UNANSWERED).
   */
  | { type: 'BILL_OBSERVED'; bill: BillStatus; cause: ReadCause; source: HistorySource; actionReference?: string; completion?: 'ANSWERED' | 'UNANSWERED' }
  /** The acquirer refuses every question about the bill (it does not know it): a processing problem. */
  | { type: 'BILL_UNKNOWN'; actionReference: string; source: HistorySource }
  /** The probe after a placement that never got an answer found no bill of ours. */
  | { type: 'NOT_PLACED'; actionReference: string }
  /** terminal:clear could not reach the acquirer: the operator's decision stands. */
  | { type: 'OPERATOR_CLEARED'; actionReference: string }
  /** The acquirer confirmed a reversal of the capture. */
  | { type: 'VOID_CONFIRMED'; voidReference: string; source: HistorySource }
  /** A settlement batch the acquirer reported this payment in (docs/settlement.md). */
  | { type: 'SETTLED'; batchId: string }
  /** The acquirer paid a refund back to the customer. */
  | { type: 'REFUND_SUCCEEDED'; refundId: string; amount: string; actionReference: string; source: HistorySource };

/** One append-only history entry (docs/payments.md, "Reading payments"), numbered by the workflow. */
export interface StatusEvent {
  sequence: number;
  status: PaymentStatus;
  previousStatus: PaymentStatus;
  actionReference: string;
  source: HistorySource;
  occurredAt: string;
}

/** Payment row fields written together with a status event. */
export type ProjectedFields = Pick<
  PaymentState,
  | 'status'
  | 'acquirerRef'
  | 'paymentMethod'
  | 'cardBrand'
  | 'last4'
  | 'reason'
  | 'refusalReason'
  | 'previousStatus'
  | 'capturedAt'
  | 'authorizedAt'
  | 'capturedAmount'
  | 'refundedAmount'
> & {
  settledAt?: string | null;
  /** Written once a card approved less than asked: the approved amount and the amount asked. */
  amount?: string;
  requestedAmount?: string;
  /** Written once the customer chose a tip on the terminal. */
  tipAmount?: string;
};

/** A refund decided together with a status event: its row is written in the same transaction. */
export interface DecidedRefund {
  id: string;
  status: 'SUCCEEDED' | 'FAILED';
  decidedAt: string;
}

export type Effect =
  /**
   * A one-step terminal's device authorised: complete the authorisation at the acquirer for the
   * whole amount, then apply the observation again with its `completion` (the status waits for
   * the answer: nothing else comes with this effect). Unanswered, the completion is kept and
   * followed until the acquirer answers.
   */
  | { type: 'COMPLETE_AUTHORIZATION'; amount: string; acquirerRef: string }
  | { type: 'RECORD_STATUS_EVENT'; event: StatusEvent; fields: ProjectedFields; refund?: DecidedRefund }
  | { type: 'UPSERT_STATUS_SEARCH_ATTRIBUTE'; status: PaymentStatus }
  /**
   * The status event's webhook event. `announces` false: its status has none (AWAITING_TERMINAL,
   * EXPIRED): nothing to publish (runs from before no-publish-without-event still ran the step).
   */
  | { type: 'PUBLISH_PAYMENT_EVENT'; sequence: number; announces: boolean; refundId?: string };

export interface TransitionResult {
  state: PaymentState;
  effects: Effect[];
}

export interface TransitionContext {
  /** ISO time of the event (workflow time). */
  now: string;
}

export function initialState(init: Partial<PaymentState> & Pick<PaymentState, 'status'>): PaymentState {
  return {
    sequence: 0,
    acquirerRef: null,
    paymentMethod: null,
    cardBrand: null,
    last4: null,
    reason: null,
    refusalReason: null,
    previousStatus: null,
    capturedAt: null,
    amount: '0',
    authorizedAt: null,
    capturedAmount: null,
    refundedAmount: '0',
    ...init,
  };
}

const DECLINED_AT_TERMINAL = 'declined at the terminal';
const declinedBecause = (words: string | undefined): string => (words ? `${DECLINED_AT_TERMINAL}: ${words}` : DECLINED_AT_TERMINAL);

export function transition(state: PaymentState, event: PaymentEvent, ctx: TransitionContext): TransitionResult {
  const unchanged: TransitionResult = { state, effects: [] };
  const from = state.status;

  if (event.type === 'VOID_CONFIRMED') {
    if (from !== 'CAPTURED') return unchanged; // a second confirmation, or a void that raced nothing
    return change(state, { status: 'CANCELLED', previousStatus: 'CAPTURED' }, event.voidReference, event.source, ctx);
  }
  if (event.type === 'SETTLED') {
    // Once only; a refunded payment keeps its refund status and only gains settledAt.
    if (state.settledAt || !isSettleable(from)) return unchanged;
    return change(state, { status: from === 'CAPTURED' ? 'SETTLED' : from, settledAt: ctx.now }, `SETTLE-${event.batchId}`, 'WORKFLOW', ctx);
  }
  if (event.type === 'REFUND_SUCCEEDED') {
    if (!isRefundable(from)) return unchanged;
    // The refund's own status event: refundedAmount grows; REFUNDED once nothing captured is left.
    const refunded = new Decimal(state.refundedAmount).plus(event.amount);
    const status: PaymentStatus = refunded.gte(state.capturedAmount ?? 0) ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
    return change(state, { status, refundedAmount: refunded.toFixed() }, event.actionReference, event.source, ctx, {
      refund: { id: event.refundId, status: 'SUCCEEDED', decidedAt: ctx.now },
    });
  }
  if (isFinal(from)) return unchanged; // final states never change

  switch (event.type) {
    case 'BILL_PLACED':
      if (from !== 'CREATED') return unchanged;
      return change(state, { status: 'AWAITING_TERMINAL', acquirerRef: event.acquirerRef }, event.acquirerRef, 'API', ctx);

    case 'PLACEMENT_REFUSED':
      if (from !== 'CREATED') return unchanged;
      // A refusal at creation is answered in the 201 itself; PAYMENT_REFUSED is for declines at the terminal.
      return change(state, { status: 'REFUSED', refusalReason: event.refusalReason }, event.actionReference, 'API', ctx, { publish: false });

    case 'PLACEMENT_FAILED':
      if (from !== 'CREATED') return unchanged;
      return change(state, { status: 'FAILED', reason: event.reason }, event.actionReference, 'WORKFLOW', ctx);

    case 'NOT_PLACED':
      if (from !== 'CREATED') return unchanged;
      return change(state, { status: 'FAILED', reason: REASONS.acquirerUnreachable }, event.actionReference, 'WORKFLOW', ctx);

    case 'BILL_UNKNOWN':
      if (from !== 'CREATED' && from !== 'AWAITING_TERMINAL') return unchanged;
      return change(state, { status: 'FAILED', reason: REASONS.acquirerRejected }, event.actionReference, event.source, ctx);

    case 'OPERATOR_CLEARED':
      if (from !== 'CREATED' && from !== 'AWAITING_TERMINAL') return unchanged;
      return change(state, { status: 'CANCELLED', reason: REASONS.clearedByOperator }, event.actionReference, 'API', ctx);

    case 'BILL_OBSERVED':
      return observe(state, event, ctx);
  }
}

/** What the acquirer's answer about the bill means for the payment. */
function observe(state: PaymentState, event: Extract<PaymentEvent, { type: 'BILL_OBSERVED' }>, ctx: TransitionContext): TransitionResult {
  const { bill, cause, source } = event;
  const from = state.status;
  const ref = event.actionReference ?? bill.acquirerRef;
  const unchanged: TransitionResult = { state, effects: [] };
  const acquirerRef = state.acquirerRef ?? bill.acquirerRef;
  const tender = (): Partial<PaymentState> => ({
    acquirerRef,
    // An open mode starts as CARD and is corrected to the tender the terminal reports.
    paymentMethod: bill.paymentMethod ?? state.paymentMethod,
    cardBrand: bill.cardBrand ?? null,
    last4: bill.last4 ?? null,
    ...approved(state, bill),
    ...tipped(state, bill),
  });

  /** The acquirer captured the bill: at its capture time, for the amount it captured (all it approved, tip included, unless it says). */
  const captured = (): TransitionResult => {
    const sale = { ...state, ...tender() };
    return change(
      state,
      {
        status: 'CAPTURED',
        ...tender(),
        capturedAt: bill.capturedAt ?? bill.decidedAt ?? ctx.now,
        capturedAmount: bill.capturedAmount ?? totalOf(sale),
      },
      ref,
      source,
      ctx,
    );
  };

  if (from === 'AUTHORIZED') {
    // Two-step: the capture, the release and the expiry of the window (or the device itself) decide; the acquirer reports which.
    switch (bill.state) {
      case 'CAPTURED':
        // Completed: the void window runs from this capture, not from the authorisation.
        return captured();
      case 'CANCELLED':
      case 'WITHDRAWN':
        return change(state, { status: 'CANCELLED' }, ref, source, ctx);
      case 'RELEASED':
        // The hold is gone: released on request, or by the service when the authorisation window passed.
        return change(
          state,
          { status: 'CANCELLED', previousStatus: 'AUTHORIZED', reason: cause === 'AUTH_EXPIRY' ? REASONS.authorizationExpired : state.reason },
          ref,
          source,
          ctx,
        );
      case 'EXPIRED':
        return change(state, { status: 'EXPIRED' }, ref, source, ctx);
      default:
        return unchanged;
    }
  }

  // CREATED (a run that learns of a bill it placed before) or AWAITING_TERMINAL.
  switch (bill.state) {
    case 'WAITING':
      if (from === 'CREATED') return change(state, { status: 'AWAITING_TERMINAL', acquirerRef }, bill.acquirerRef, source, ctx);
      return unchanged;
    case 'AUTHORIZED':
      // Only a terminal linked two-step authorises: a one-step terminal's authorisation is completed at once.
      // All the card approved: less than asked after a partial authorisation.
      if (state.twoStep === false && event.completion === undefined)
        return {
          state,
          effects: [
            { type: 'COMPLETE_AUTHORIZATION', amount: totalOf({ ...state, ...approved(state, bill), ...tipped(state, bill) }), acquirerRef: bill.acquirerRef },
          ],
        };
      return change(state, { status: 'AUTHORIZED', ...tender(), authorizedAt: bill.decidedAt ?? ctx.now }, ref, source, ctx);
    case 'CAPTURED':
      return captured();
    case 'DECLINED':
      // The acquirer's own words, when it gave any (Adyen's refusal reason, Stripe's decline message).
      return change(state, { status: 'REFUSED', acquirerRef, refusalReason: declinedBecause(bill.errorMessage) }, ref, source, ctx);
    case 'CANCELLED':
      return change(state, { status: 'CANCELLED', acquirerRef, reason: REASONS.cancelledAtTerminal }, ref, source, ctx);
    case 'ERROR':
      return change(state, { status: 'ERROR', acquirerRef, reason: REASONS.terminalError }, ref, source, ctx);
    case 'EXPIRED':
      return change(state, { status: 'EXPIRED', acquirerRef }, ref, source, ctx);
    case 'RELEASED':
      return unchanged; // only an authorisation is released; it never reaches a bill still waiting
    case 'WITHDRAWN':
      switch (cause) {
        case 'EXPIRY':
          return change(state, { status: 'EXPIRED', acquirerRef }, ref, source, ctx);
        case 'PROBE':
          return change(state, { status: 'FAILED', acquirerRef, reason: REASONS.acquirerUnreachable }, ref, source, ctx);
        case 'CLEAR':
          return change(state, { status: 'CANCELLED', acquirerRef, reason: REASONS.clearedByOperator }, ref, source, ctx);
        default:
          // Withdrawn by a cancel of ours (this one, or an earlier one whose answer was lost).
          return change(state, { status: 'CANCELLED', acquirerRef }, ref, source, ctx);
      }
  }
}

/**
 * A partial authorisation: the card approved less than the payment's amount. The amount becomes
 * what it approved and requestedAmount keeps what was asked; nothing changes when the acquirer
 * names no amount, the whole amount or more, or once the sale was decided (a two-step completion
 * answers from AUTHORIZED, where the amount is already the approved one).
 */
export function approved(state: PaymentState, bill: BillStatus): Partial<Pick<PaymentState, 'amount' | 'requestedAmount'>> {
  if (bill.authorizedAmount === undefined || state.requestedAmount !== undefined) return {};
  // What the card approved includes the tip (docs/tips.md): the sale's part is what remains of it.
  const authorized = new Decimal(bill.authorizedAmount).minus(tipped(state, bill).tipAmount ?? state.tipAmount ?? 0);
  if (authorized.lte(0) || authorized.gte(state.amount)) return {};
  return { amount: authorized.toFixed(), requestedAmount: state.amount };
}

/**
 * The tip the customer chose on the terminal (docs/tips.md): taken from the acquirer's answer
 * only when the payment asked for one, and only while none is known yet; a tip the POS sent
 * stays what it is, whatever the acquirer repeats.
 */
export function tipped(state: PaymentState, bill: BillStatus): Partial<Pick<PaymentState, 'tipAmount'>> {
  if (!state.tipAsked || bill.tipAmount === undefined || state.tipAmount !== undefined) return {};
  const tip = new Decimal(bill.tipAmount);
  return tip.gt(0) ? { tipAmount: tip.toFixed() } : {};
}

/** What the card is charged: the amount and the tip on top (docs/tips.md). */
export function totalOf(s: Pick<PaymentState, 'amount' | 'tipAmount'>): string {
  // Without a tip, the amount's own text (as payments before tips had it).
  if (s.tipAmount === undefined || new Decimal(s.tipAmount).isZero()) return s.amount;
  return new Decimal(s.amount).plus(s.tipAmount).toFixed();
}

/** Builds the new state and its effects: one history entry, the status search attribute, the webhook event. */
function change(
  state: PaymentState,
  patch: Partial<PaymentState> & { status: PaymentStatus },
  actionReference: string,
  source: HistorySource,
  ctx: TransitionContext,
  opts: { publish?: boolean; refund?: DecidedRefund } = {},
): TransitionResult {
  const next: PaymentState = { ...state, ...patch, sequence: state.sequence + 1 };
  const event: StatusEvent = {
    sequence: next.sequence,
    status: next.status,
    previousStatus: state.status,
    actionReference,
    source,
    occurredAt: ctx.now,
  };
  const effects: Effect[] = [
    { type: 'RECORD_STATUS_EVENT', event, fields: projectedFields(next), ...(opts.refund ? { refund: opts.refund } : {}) },
    { type: 'UPSERT_STATUS_SEARCH_ATTRIBUTE', status: next.status },
  ];
  // Which status events announce a webhook event: a refund's always; a status's by its event type (AWAITING_TERMINAL and EXPIRED have none).
  if (opts.publish !== false) {
    const announces = opts.refund !== undefined || eventTypeForEntry(event) !== undefined;
    effects.push({ type: 'PUBLISH_PAYMENT_EVENT', sequence: next.sequence, announces, ...(opts.refund ? { refundId: opts.refund.id } : {}) });
  }
  return { state: next, effects };
}

export function projectedFields(s: PaymentState): ProjectedFields {
  return {
    status: s.status,
    acquirerRef: s.acquirerRef,
    paymentMethod: s.paymentMethod,
    cardBrand: s.cardBrand,
    last4: s.last4,
    reason: s.reason,
    refusalReason: s.refusalReason,
    previousStatus: s.previousStatus,
    capturedAt: s.capturedAt,
    ...(s.settledAt ? { settledAt: s.settledAt } : {}),
    ...(s.requestedAmount !== undefined ? { amount: s.amount, requestedAmount: s.requestedAmount } : {}),
    ...(s.tipAmount !== undefined ? { tipAmount: s.tipAmount } : {}),
    authorizedAt: s.authorizedAt,
    capturedAmount: s.capturedAmount,
    refundedAmount: s.refundedAmount,
  };
}
