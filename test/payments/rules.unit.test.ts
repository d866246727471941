import { captureRefusal, cancelRefusal, type PaymentFacts, refundableLeft, refundRefusal, settleRefusal, voidRefusal } from '../../core/payment/rules';
import { chargedBackTotal } from '../../core/dispute/statuses';

/** The operation rules (core/payment/rules.ts): what the API's pre-checks and the workflow's validators both ask. */
const captured: PaymentFacts = {
  status: 'CAPTURED',
  amount: '10',
  previousStatus: 'AWAITING_TERMINAL',
  capturedAt: '2026-11-25T10:00:00.000Z',
  capturedAmount: '10',
  refundedAmount: '0',
  settledAt: null,
};
const authorized: PaymentFacts = { ...captured, status: 'AUTHORIZED', capturedAt: null, capturedAmount: null };
const window = { nowMs: Date.parse('2026-11-25T10:30:00.000Z'), voidWindowMs: 60 * 60_000 };

describe('capture', () => {
  it('an AUTHORIZED payment, all or part of it', () => {
    expect(captureRefusal(authorized, {})).toBeUndefined();
    expect(captureRefusal(authorized, {}, '4.5')).toBeUndefined();
  });
  it('400 for an amount above the authorised one or not above 0; 409 for another status or a capture under way', () => {
    expect(captureRefusal(authorized, {}, '10.01')).toEqual({ code: 'invalid', message: 'amount: 10.01 is more than the authorised 10' });
    expect(captureRefusal(authorized, {}, '0')).toMatchObject({ code: 'invalid', message: expect.stringMatching(/^amount:/) });
    expect(captureRefusal(captured, {})).toEqual({ code: 'conflict', message: 'capture not permitted: the payment is CAPTURED, not AUTHORIZED' });
    expect(captureRefusal(authorized, { captureUnderWay: true })).toMatchObject({ code: 'conflict' });
  });
});

describe('cancel', () => {
  it('refused only for an authorisation whose capture is under way', () => {
    expect(cancelRefusal(authorized, {})).toBeUndefined();
    expect(cancelRefusal(authorized, { captureUnderWay: true })).toMatchObject({ code: 'conflict', message: expect.stringMatching(/already decided/) });
  });
});

describe('void', () => {
  it('a CAPTURED payment inside its window with no refund under way', () => {
    expect(voidRefusal(captured, {}, window)).toBeUndefined();
  });
  it('409 otherwise, saying why', () => {
    expect(voidRefusal({ ...captured, status: 'CANCELLED', previousStatus: 'CAPTURED' }, {}, window)?.message).toMatch(/already voided/);
    expect(voidRefusal(authorized, {}, window)?.message).toBe('void not permitted: the payment is AUTHORIZED, not CAPTURED');
    expect(voidRefusal(captured, {}, { ...window, nowMs: window.nowMs + 31 * 60_000 })?.message).toMatch(/void window of 60 minutes/);
    expect(voidRefusal(captured, { refundUnderWay: true }, window)).toMatchObject({ code: 'conflict', message: expect.stringMatching(/refund/) });
  });
});

describe('refund', () => {
  it('what is left after succeeded and pending refunds', () => {
    expect(refundRefusal(captured, {}, '10')).toBeUndefined();
    expect(refundRefusal({ ...captured, status: 'PARTIALLY_REFUNDED', refundedAmount: '4' }, { pendingRefundTotal: '5' }, '1')).toBeUndefined();
    expect(refundRefusal({ ...captured, status: 'PARTIALLY_REFUNDED', refundedAmount: '4' }, { pendingRefundTotal: '5' }, '1.01')).toEqual({
      code: 'conflict',
      message: 'amount: 1.01 is more than the 1 still refundable',
    });
    expect(refundRefusal(captured, { pendingRefundTotal: '10' })).toEqual({ code: 'conflict', message: 'amount: nothing is left to refund' });
  });
  it('never while a void is under way (issue 22), nor for a status that is not refundable', () => {
    expect(refundRefusal(captured, { voidUnderWay: true }, '1')).toEqual({
      code: 'conflict',
      message: 'refund not permitted: a void of this payment is under way',
    });
    expect(refundRefusal(authorized, {})?.message).toMatch(/release it \(cancel\) or capture it first/);
    expect(refundRefusal({ ...captured, status: 'CANCELLED', previousStatus: 'CAPTURED' }, {})?.message).toMatch(/voided/);
  });
});

describe('settle', () => {
  it('a captured or refunded payment, or one settled already (applied once by transition)', () => {
    expect(settleRefusal(captured)).toBeUndefined();
    expect(settleRefusal({ ...captured, status: 'REFUNDED' })).toBeUndefined();
    expect(settleRefusal(authorized)).toEqual({ code: 'conflict', message: 'settlement not permitted: the payment is AUTHORIZED' });
  });
});

describe('after a chargeback (docs/refunds.md, "After a chargeback")', () => {
  it('counts only LOST, ACCEPTED and EXPIRED disputes', () => {
    const disputes = [
      { status: 'LOST', amount: '3' },
      { status: 'ACCEPTED', amount: '2' },
      { status: 'EXPIRED', amount: '1' },
      { status: 'WON', amount: '4' },
      { status: 'NEEDS_RESPONSE', amount: '5' },
    ];
    expect(chargedBackTotal(disputes)).toBe('6');
  });
  it('a whole chargeback leaves nothing to refund and no void', () => {
    expect(refundRefusal(captured, { chargedBack: '10' }, '10')).toMatchObject({ code: 'conflict', message: expect.stringContaining('chargeback') });
    expect(refundRefusal(captured, { chargedBack: '10' })).toMatchObject({ code: 'conflict', message: expect.stringContaining('nothing is left') });
    expect(voidRefusal(captured, { chargedBack: '10' }, window)).toMatchObject({ code: 'conflict', message: expect.stringContaining('chargeback') });
    expect(voidRefusal(captured, {}, window)).toBeUndefined();
  });
  it('a partial chargeback leaves the rest, less refunds and pending refunds', () => {
    const p = { ...captured, refundedAmount: '2' };
    expect(refundableLeft(p, { chargedBack: '5', pendingRefundTotal: '1' }).toFixed()).toBe('2');
    expect(refundRefusal(p, { chargedBack: '5', pendingRefundTotal: '1' }, '2')).toBeUndefined();
    expect(refundRefusal(p, { chargedBack: '5', pendingRefundTotal: '1' }, '2.01')).toMatchObject({ code: 'conflict' });
    expect(refundableLeft(p, { chargedBack: '20' }).toFixed()).toBe('0');
  });
});
