import Decimal from 'decimal.js';
import { giveBackStepOf, type BillStatus, type TenderMethod, type TenderStatus, type TillTenderMethod, TILL_TENDER_STATUS } from './statuses';
import { availableOf, type BillTender, nextSequenceNumber, paidOf, repeatedTillTender } from './tenders';

/**
 * Where a bill goes on each event (docs/bills.md): one pure function `(state, event) -> (state,
 * effects)` or a refusal the caller answers with. The bill workflow applies it and runs its effects
 * in order: the row first, then the give-back, then the webhook event.
 *
 *   OPEN --tenders add up to the amount--> PAID
 *   OPEN --CANCEL--> CANCELLING --every tender given back--> CANCELLED
 *   OPEN --EXPIRY_DUE--> CANCELLING --every tender given back--> EXPIRED
 */
export type BillEventType = 'BILL_PAID' | 'BILL_CANCELLED' | 'BILL_EXPIRED';
export const BILL_EVENT_TYPES: readonly BillEventType[] = ['BILL_PAID', 'BILL_CANCELLED', 'BILL_EXPIRED'];

export interface BillState {
  status: BillStatus;
  amount: string;
  tenders: BillTender[];
  /** What the bill becomes once given back: CANCELLED on request, EXPIRED at its expiry. */
  givingBackAs: 'CANCELLED' | 'EXPIRED' | null;
  closedAt: string | null;
}

/** What a payment's workflow says of a tender (its row as it stands: the bill re-reads it, a signal is only a nudge). */
export interface TenderNews {
  paymentId: string;
  status: TenderStatus;
  method: TenderMethod | null;
  amount: string;
  requestedAmount: string;
  refundedAmount: string;
  tipAmount: string;
}

export type BillEvent =
  | { type: 'OPEN_TENDER'; paymentId: string; amount: string; sequenceNumber?: number }
  | { type: 'TILL_TENDER'; method: TillTenderMethod; amount: string; reference: string | null }
  | { type: 'TENDER_CHANGED'; tender: TenderNews }
  | { type: 'CANCEL'; at: string }
  | { type: 'EXPIRY_DUE'; at: string }
  | { type: 'GIVEN_BACK'; at: string };

export type BillEffect =
  /** Write the bill's row and its tenders. */
  | { type: 'RECORD' }
  /** Take the next give-back step of every tender that still holds money. */
  | { type: 'GIVE_BACK' }
  | { type: 'EMIT_EVENT'; eventType: BillEventType };

/** Why a request about a bill is refused: `invalid` names the field (400), `conflict` is the bill's state (409). */
export interface BillRefusal {
  kind: 'invalid' | 'conflict';
  field?: string;
  message: string;
}

export type BillOutcome = { state: BillState; effects: BillEffect[]; refusal?: undefined } | { refusal: BillRefusal };

export const initialBillState = (amount: string): BillState => ({ status: 'OPEN', amount, tenders: [], givingBackAs: null, closedAt: null });

const notOpen = (state: BillState): BillRefusal => ({ kind: 'conflict', message: `the bill is ${state.status}, not OPEN` });
export const referenceTaken = (reference: string): BillRefusal => ({
  kind: 'conflict',
  field: 'reference',
  message: `tender ${reference} of this bill was recorded with another method or amount`,
});

/** A new tender's amount: at most what is left once open tenders' holds are counted. */
function amountRefusal(state: BillState, amount: string): BillRefusal | undefined {
  const available = availableOf(state.amount, state.tenders);
  if (new Decimal(amount).lte(0)) return { kind: 'invalid', field: 'amount', message: 'must be greater than zero' };
  if (new Decimal(amount).gt(available)) {
    return { kind: 'invalid', field: 'amount', message: `must be at most ${available.toFixed()}, what remains of the bill less what its open tenders hold` };
  }
  return undefined;
}

/** Once paid in full, an open bill is PAID (tips apart). */
function paidIfDue(state: BillState, effects: BillEffect[]): { state: BillState; effects: BillEffect[] } {
  if (state.status !== 'OPEN' || paidOf(state.tenders).lt(state.amount)) return { state, effects };
  return {
    state: { ...state, status: 'PAID' },
    effects: [...effects.filter((e) => e.type !== 'RECORD'), { type: 'RECORD' }, { type: 'EMIT_EVENT', eventType: 'BILL_PAID' }],
  };
}

/** Every tender the service can give back is given back (cash and other tenders are handed back at the till). */
export const allGivenBack = (tenders: readonly BillTender[]): boolean =>
  tenders.every((t) => {
    const step = giveBackStepOf(t.status);
    return step === null || step === 'RETURN_AT_TILL';
  });

export function billTransition(state: BillState, event: BillEvent): BillOutcome {
  const unchanged = { state, effects: [] as BillEffect[] };
  switch (event.type) {
    case 'OPEN_TENDER': {
      if (state.tenders.some((t) => t.paymentId === event.paymentId)) return unchanged; // the same request again
      if (state.status !== 'OPEN') return { refusal: notOpen(state) };
      const refused = amountRefusal(state, event.amount);
      if (refused) return { refusal: refused };
      if (event.sequenceNumber !== undefined && state.tenders.some((t) => t.sequenceNumber === event.sequenceNumber)) {
        return { refusal: { kind: 'conflict', field: 'sequenceNumber', message: `tender ${event.sequenceNumber} of this bill already exists` } };
      }
      const tender: BillTender = {
        paymentId: event.paymentId,
        sequenceNumber: event.sequenceNumber ?? nextSequenceNumber(state.tenders),
        method: null,
        status: 'CREATED',
        amount: event.amount,
        requestedAmount: event.amount,
        refundedAmount: '0',
        tipAmount: '0',
        reference: null,
      };
      return { state: { ...state, tenders: [...state.tenders, tender] }, effects: [{ type: 'RECORD' }] };
    }
    case 'TILL_TENDER': {
      // A till's retry after a lost answer is the same tender: its reference names it (docs/bills.md).
      const repeat = repeatedTillTender(state.tenders, event);
      if (repeat) return repeat.same ? unchanged : { refusal: referenceTaken(event.reference!) };
      if (state.status !== 'OPEN') return { refusal: notOpen(state) };
      const refused = amountRefusal(state, event.amount);
      if (refused) return { refusal: refused };
      const tender: BillTender = {
        paymentId: null,
        sequenceNumber: nextSequenceNumber(state.tenders),
        method: event.method,
        status: TILL_TENDER_STATUS,
        amount: event.amount,
        requestedAmount: event.amount,
        refundedAmount: '0',
        tipAmount: '0',
        reference: event.reference,
      };
      return paidIfDue({ ...state, tenders: [...state.tenders, tender] }, [{ type: 'RECORD' }]);
    }
    case 'TENDER_CHANGED': {
      const news = event.tender;
      const index = state.tenders.findIndex((t) => t.paymentId === news.paymentId);
      if (index < 0) return unchanged; // not a tender of this bill
      const before = state.tenders[index]!;
      const after: BillTender = { ...before, ...news, method: news.method ?? before.method };
      if (JSON.stringify(after) === JSON.stringify(before)) return unchanged;
      const tenders = state.tenders.map((t, i) => (i === index ? after : t));
      const next = { ...state, tenders };
      if (state.status === 'CANCELLING') return { state: next, effects: [{ type: 'RECORD' }, { type: 'GIVE_BACK' }] };
      return paidIfDue(next, [{ type: 'RECORD' }]);
    }
    case 'CANCEL':
      if (state.status !== 'OPEN') return { refusal: notOpen(state) };
      return { state: { ...state, status: 'CANCELLING', givingBackAs: 'CANCELLED' }, effects: [{ type: 'RECORD' }, { type: 'GIVE_BACK' }] };
    case 'EXPIRY_DUE':
      if (state.status !== 'OPEN') return unchanged;
      return { state: { ...state, status: 'CANCELLING', givingBackAs: 'EXPIRED' }, effects: [{ type: 'RECORD' }, { type: 'GIVE_BACK' }] };
    case 'GIVEN_BACK': {
      if (state.status !== 'CANCELLING' || !state.givingBackAs || !allGivenBack(state.tenders)) return unchanged;
      const status = state.givingBackAs;
      return {
        state: { ...state, status, closedAt: event.at },
        effects: [{ type: 'RECORD' }, { type: 'EMIT_EVENT', eventType: status === 'CANCELLED' ? 'BILL_CANCELLED' : 'BILL_EXPIRED' }],
      };
    }
  }
}
