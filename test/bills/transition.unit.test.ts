import { giveBackStepOf } from '../../core/bill/statuses';
import { availableOf, paidOf } from '../../core/bill/tenders';
import { type BillEvent, type BillOutcome, type BillState, billTransition, initialBillState, type TenderNews } from '../../core/bill/transition';

/** The bill's decisions (docs/bills.md), one pure function: what a POS and the merchant see follows from these. */
const AT = '2026-11-28T12:00:00.000Z';

function apply(state: BillState, ...events: BillEvent[]): { state: BillState; effects: string[] } {
  let effects: string[] = [];
  for (const event of events) {
    const out: BillOutcome = billTransition(state, event);
    if (out.refusal) throw new Error(`refused: ${out.refusal.message}`);
    state = out.state;
    effects = out.effects.map((e) => (e.type === 'EMIT_EVENT' ? e.eventType : e.type));
  }
  return { state, effects };
}
const refusalOf = (state: BillState, event: BillEvent) => {
  const out = billTransition(state, event);
  if (!out.refusal) throw new Error('expected a refusal');
  return out.refusal;
};
const news = (paymentId: string, status: TenderNews['status'], amount: string, more: Partial<TenderNews> = {}): BillEvent => ({
  type: 'TENDER_CHANGED',
  tender: { paymentId, status, method: 'CARD', amount, requestedAmount: amount, refundedAmount: '0', tipAmount: '0', ...more },
});
const open = (paymentId: string, amount: string, sequenceNumber?: number): BillEvent => ({ type: 'OPEN_TENDER', paymentId, amount, sequenceNumber });

describe('tenders of one bill', () => {
  it('split between two cards: the second may ask only what the first does not hold, and the bill is PAID once both are captured', () => {
    let { state } = apply(initialBillState('40.00'), open('a', '20.00'));
    expect(availableOf(state.amount, state.tenders).toFixed(2)).toBe('20.00');
    expect(refusalOf(state, open('b', '25.00'))).toMatchObject({ kind: 'invalid', field: 'amount', message: expect.stringContaining('at most 20') });
    ({ state } = apply(state, open('b', '20.00'), news('a', 'CAPTURED', '20.00')));
    expect(state.status).toBe('OPEN');
    const paid = apply(state, news('b', 'CAPTURED', '20.00'));
    expect(paid.state.status).toBe('PAID');
    expect(paid.effects).toEqual(['RECORD', 'BILL_PAID']);
    expect(paid.state.tenders.map((t) => t.sequenceNumber)).toEqual([1, 2]);
  });

  it('a card approving less than asked leaves the rest owed, and cash at the till pays it', () => {
    let { state } = apply(initialBillState('40.00'), open('a', '40.00'), news('a', 'CAPTURED', '25.00', { requestedAmount: '40.00' }));
    expect(state.status).toBe('OPEN');
    expect(availableOf(state.amount, state.tenders).toFixed(2)).toBe('15.00');
    const paid = apply(state, { type: 'TILL_TENDER', method: 'CASH', amount: '15.00', reference: 'drawer 2' });
    expect(paid.state.status).toBe('PAID');
    expect(paid.state.tenders[1]).toMatchObject({ paymentId: null, method: 'CASH', status: 'RECEIVED', sequenceNumber: 2, reference: 'drawer 2' });
    state = paid.state;
    expect(refusalOf(state, { type: 'TILL_TENDER', method: 'CASH', amount: '1.00', reference: null })).toMatchObject({ kind: 'conflict' });
    // The till's retry under the same reference is the tender it recorded: nothing added, even on a PAID bill.
    expect(apply(state, { type: 'TILL_TENDER', method: 'CASH', amount: '15', reference: 'drawer 2' }).state.tenders).toHaveLength(2);
    expect(refusalOf(state, { type: 'TILL_TENDER', method: 'OTHER', amount: '15.00', reference: 'drawer 2' })).toMatchObject({
      kind: 'conflict',
      field: 'reference',
    });
  });

  it('a refused or cancelled tender frees what it held; a tip never counts toward the bill', () => {
    let { state } = apply(initialBillState('30.00'), open('a', '30.00'));
    expect(availableOf(state.amount, state.tenders).toFixed()).toBe('0');
    ({ state } = apply(state, news('a', 'REFUSED', '30.00')));
    expect(availableOf(state.amount, state.tenders).toFixed(2)).toBe('30.00');
    ({ state } = apply(state, open('b', '30.00'), news('b', 'CAPTURED', '29.00', { requestedAmount: '30.00', tipAmount: '5.00' })));
    expect(state.status).toBe('OPEN');
    expect(paidOf(state.tenders).toFixed(2)).toBe('29.00');
  });

  it('a refund outside the bill lowers what it has of a captured tender', () => {
    const { state } = apply(initialBillState('50.00'), open('a', '20.00'), news('a', 'PARTIALLY_REFUNDED', '20.00', { refundedAmount: '5.00' }));
    expect(paidOf(state.tenders).toFixed(2)).toBe('15.00');
    expect(availableOf(state.amount, state.tenders).toFixed(2)).toBe('35.00');
  });

  it('sequence numbers: the next one is assigned, a taken one is refused, the same payment again changes nothing', () => {
    const { state } = apply(initialBillState('90.00'), open('a', '10.00', 5), open('b', '10.00'));
    expect(state.tenders.map((t) => t.sequenceNumber)).toEqual([5, 6]);
    expect(refusalOf(state, open('c', '10.00', 6))).toMatchObject({ kind: 'conflict', field: 'sequenceNumber' });
    const again = billTransition(state, open('a', '10.00', 5));
    expect(again.refusal).toBeUndefined();
    if (!again.refusal) expect(again.effects).toEqual([]);
    expect(refusalOf(state, open('d', '0'))).toMatchObject({ kind: 'invalid', field: 'amount' });
  });
});

describe('giving a bill back', () => {
  it('cancel: CANCELLING while a tender still holds money, then CANCELLED once each is given back; cash is left to hand back at the till', () => {
    let { state, effects } = apply(
      initialBillState('40.00'),
      open('a', '20.00'),
      news('a', 'CAPTURED', '20.00'),
      { type: 'TILL_TENDER', method: 'CASH', amount: '10.00', reference: null },
      { type: 'CANCEL', at: AT },
    );
    expect(state.status).toBe('CANCELLING');
    expect(effects).toEqual(['RECORD', 'GIVE_BACK']);
    ({ state, effects } = apply(state, { type: 'GIVEN_BACK', at: AT }));
    expect(state.status).toBe('CANCELLING'); // the captured card is not given back yet
    expect(effects).toEqual([]);
    ({ state } = apply(state, news('a', 'CANCELLED', '20.00'), { type: 'GIVEN_BACK', at: AT }));
    expect(state).toMatchObject({ status: 'CANCELLED', closedAt: AT });
  });

  it('a tender captured while the bill is being given back is given back too', () => {
    const { state } = apply(initialBillState('40.00'), open('a', '40.00'), { type: 'CANCEL', at: AT });
    const late = apply(state, news('a', 'CAPTURED', '40.00'));
    expect(late.state.status).toBe('CANCELLING');
    expect(late.effects).toEqual(['RECORD', 'GIVE_BACK']);
  });

  it('expiry gives back an open bill and ends EXPIRED; a paid bill does not expire; a bill not OPEN cannot be cancelled', () => {
    const expired = apply(initialBillState('10.00'), open('a', '5.00'), news('a', 'AUTHORIZED', '5.00'), { type: 'EXPIRY_DUE', at: AT });
    expect(expired.state).toMatchObject({ status: 'CANCELLING', givingBackAs: 'EXPIRED' });
    const done = apply(expired.state, news('a', 'CANCELLED', '5.00'), { type: 'GIVEN_BACK', at: AT });
    expect(done.state.status).toBe('EXPIRED');
    expect(done.effects).toEqual(['RECORD', 'BILL_EXPIRED']);

    const paid = apply(initialBillState('10.00'), { type: 'TILL_TENDER', method: 'OTHER', amount: '10.00', reference: 'voucher 9' }).state;
    expect(apply(paid, { type: 'EXPIRY_DUE', at: AT }).state.status).toBe('PAID');
    expect(refusalOf(paid, { type: 'CANCEL', at: AT })).toMatchObject({ kind: 'conflict', message: expect.stringContaining('PAID') });
    expect(refusalOf(expired.state, { type: 'CANCEL', at: AT })).toMatchObject({ kind: 'conflict' });
  });

  it('each tender status maps to its give-back step', () => {
    expect(
      [
        'CREATED',
        'AWAITING_TERMINAL',
        'AUTHORIZED',
        'CAPTURED',
        'PARTIALLY_REFUNDED',
        'SETTLED',
        'RECEIVED',
        'REFUNDED',
        'CANCELLED',
        'REFUSED',
        'EXPIRED',
      ].map((s) => giveBackStepOf(s as never)),
    ).toEqual(['CANCEL', 'CANCEL', 'RELEASE', 'VOID_OR_REFUND', 'REFUND_REST', 'REFUND_REST', 'RETURN_AT_TILL', null, null, null, null]);
  });
});
