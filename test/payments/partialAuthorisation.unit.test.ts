import type { BillState, BillStatus } from '../../src/acquirer/port';
import { approved, initialState, type PaymentEvent, type PaymentState, transition } from '../../core/payment/transition';

/** Partial authorisation in the pure state machine (issue 42, point 3): the approved amount becomes the payment's amount. */
const ctx = { now: '2026-11-28T10:00:00.000Z' };
const bill = (state: BillState, extra: Partial<BillStatus> = {}): BillStatus => ({ acquirerRef: 'sbx_1', state, ...extra });
const awaiting = (over: Partial<PaymentState> = {}): PaymentState =>
  initialState({ status: 'AWAITING_TERMINAL', sequence: 1, acquirerRef: 'sbx_1', paymentMethod: 'CARD', amount: '40', ...over });
const observed = (b: BillStatus, completion?: 'ANSWERED' | 'UNANSWERED'): PaymentEvent => ({
  type: 'BILL_OBSERVED',
  bill: b,
  cause: 'READ',
  source: 'TERMINAL',
  ...(completion ? { completion } : {}),
});

describe('partial authorisation in the transition', () => {
  it('CAPTURED for less than asked: amount and capturedAmount the approved amount, requestedAmount the amount asked, both projected', () => {
    const r = transition(awaiting(), observed(bill('CAPTURED', { authorizedAmount: '25.00', capturedAmount: '25.00' })), ctx);
    expect(r.state).toMatchObject({ status: 'CAPTURED', amount: '25', requestedAmount: '40', capturedAmount: '25.00' });
    expect(r.effects[0]).toMatchObject({ type: 'RECORD_STATUS_EVENT', fields: { status: 'CAPTURED', amount: '25', requestedAmount: '40' } });
  });

  it('CAPTURED with an approved amount but no captured amount captures what was approved', () => {
    const r = transition(awaiting(), observed(bill('CAPTURED', { authorizedAmount: '25' })), ctx);
    expect(r.state).toMatchObject({ amount: '25', requestedAmount: '40', capturedAmount: '25' });
  });

  it('the whole amount (or none named) changes nothing: no requestedAmount in the state or the projection', () => {
    for (const b of [bill('CAPTURED'), bill('CAPTURED', { authorizedAmount: '40.00' }), bill('CAPTURED', { authorizedAmount: '41' })]) {
      const r = transition(awaiting(), observed(b), ctx);
      expect(r.state).toMatchObject({ status: 'CAPTURED', amount: '40', capturedAmount: '40' });
      expect(r.state.requestedAmount).toBeUndefined();
      expect(r.effects[0]).not.toMatchObject({ fields: { requestedAmount: expect.anything() } });
    }
  });

  it('two-step: AUTHORIZED for the approved amount; the completion from AUTHORIZED keeps it', () => {
    const authorized = transition(awaiting({ twoStep: true }), observed(bill('AUTHORIZED', { authorizedAmount: '25' })), ctx).state;
    expect(authorized).toMatchObject({ status: 'AUTHORIZED', amount: '25', requestedAmount: '40', capturedAmount: null });
    const captured = transition(authorized, observed(bill('CAPTURED', { authorizedAmount: '25', capturedAmount: '20' })), ctx).state;
    expect(captured).toMatchObject({ status: 'CAPTURED', amount: '25', requestedAmount: '40', capturedAmount: '20' });
  });

  it('a one-step terminal whose device authorised less completes the approved amount, then shows it captured', () => {
    const observedBill = bill('AUTHORIZED', { authorizedAmount: '25' });
    const r = transition(awaiting({ twoStep: false }), observed(observedBill), ctx);
    expect(r.effects).toEqual([{ type: 'COMPLETE_AUTHORIZATION', amount: '25', acquirerRef: 'sbx_1' }]);
    const done = transition(awaiting({ twoStep: false }), observed(bill('CAPTURED', { authorizedAmount: '25', capturedAmount: '25' }), 'ANSWERED'), ctx);
    expect(done.state).toMatchObject({ status: 'CAPTURED', amount: '25', requestedAmount: '40', capturedAmount: '25' });
    const unanswered = transition(awaiting({ twoStep: false }), observed(observedBill, 'UNANSWERED'), ctx);
    expect(unanswered.state).toMatchObject({ status: 'AUTHORIZED', amount: '25', requestedAmount: '40' });
  });

  it('a refund of everything approved makes the payment REFUNDED', () => {
    const captured = transition(awaiting(), observed(bill('CAPTURED', { authorizedAmount: '25' })), ctx).state;
    const r = transition(captured, { type: 'REFUND_SUCCEEDED', refundId: 'r1', amount: '25', actionReference: 'REFUND-r1', source: 'API' }, ctx);
    expect(r.state).toMatchObject({ status: 'REFUNDED', refundedAmount: '25' });
  });

  it('approved(): only below the amount, above zero, and once', () => {
    expect(approved(awaiting(), bill('CAPTURED', { authorizedAmount: '0' }))).toEqual({});
    expect(approved(awaiting(), bill('CAPTURED', { authorizedAmount: '39.99' }))).toEqual({ amount: '39.99', requestedAmount: '40' });
    expect(approved(awaiting({ amount: '25', requestedAmount: '40' }), bill('CAPTURED', { authorizedAmount: '10' }))).toEqual({});
  });
});
