import Decimal from 'decimal.js';
import type { BillState, BillStatus } from '../../src/acquirer/port';
import { initialState, type PaymentEvent, type PaymentState, tipped, totalOf, transition } from '../../core/payment/transition';
import { captureRefusal, refundRefusal, refundableLeft } from '../../core/payment/rules';
import { tipRows } from '../../src/tips/rows';
import { totalsOf } from '../../src/settlement/reconcile';
import { StoreInput } from '../../src/stores/schemas';
import { CreatePaymentBody } from '../../src/payments/schemas';
import { describeZodError } from '../../src/http/validation';
import { expectedFeeOf } from '../../src/fees/expectedFee';

/** Tips in the pure parts (docs/tips.md): the state machine, the rules, the validation, the report and the totals. */
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

describe('the tip in the transition', () => {
  it('asked: the tip arrives with the approval; captured the total, the tip projected', () => {
    const r = transition(
      awaiting({ tipAsked: true }),
      observed(bill('CAPTURED', { tipAmount: '6.00', authorizedAmount: '46.00', capturedAmount: '46.00' })),
      ctx,
    );
    expect(r.state).toMatchObject({ status: 'CAPTURED', amount: '40', tipAmount: '6', capturedAmount: '46.00' });
    expect(r.state.requestedAmount).toBeUndefined(); // the tip is not a partial authorisation
    expect(r.effects[0]).toMatchObject({ type: 'RECORD_STATUS_EVENT', fields: { tipAmount: '6', capturedAmount: '46.00' } });
  });

  it('asked, no amount from the acquirer: captured is the amount plus the tip', () => {
    const r = transition(awaiting({ tipAsked: true }), observed(bill('CAPTURED', { tipAmount: '6' })), ctx);
    expect(r.state).toMatchObject({ tipAmount: '6', capturedAmount: '46' });
  });

  it('not asked: a tip in the answer is ignored; a tip the POS sent stays what it is', () => {
    expect(tipped(awaiting(), bill('CAPTURED', { tipAmount: '6' }))).toEqual({});
    const pos = transition(awaiting({ tipAmount: '2.5' }), observed(bill('CAPTURED', { tipAmount: '9' })), ctx);
    expect(pos.state).toMatchObject({ tipAmount: '2.5', capturedAmount: '42.5' });
  });

  it('a zero tip chosen is no tip', () => {
    const r = transition(awaiting({ tipAsked: true }), observed(bill('CAPTURED', { tipAmount: '0' })), ctx);
    expect(r.state.tipAmount).toBeUndefined();
    expect(r.state.capturedAmount).toBe('40');
  });

  it('one-step terminal: the completion takes the total with the tip', () => {
    const r = transition(awaiting({ tipAsked: true, twoStep: false }), observed(bill('AUTHORIZED', { tipAmount: '6', authorizedAmount: '46' })), ctx);
    expect(r.effects).toEqual([{ type: 'COMPLETE_AUTHORIZATION', amount: '46', acquirerRef: 'sbx_1' }]);
  });

  it('a partial authorisation with a tip: the sale part is what the card approved less the tip', () => {
    const r = transition(awaiting({ tipAsked: true }), observed(bill('CAPTURED', { tipAmount: '5', authorizedAmount: '30' })), ctx);
    expect(r.state).toMatchObject({ amount: '25', requestedAmount: '40', tipAmount: '5', capturedAmount: '30' });
  });

  it('two-step: AUTHORIZED with the tip; the capture may take up to the total, by default all of it', () => {
    const authorized = transition(
      awaiting({ tipAsked: true, twoStep: true }),
      observed(bill('AUTHORIZED', { tipAmount: '6', authorizedAmount: '46' })),
      ctx,
    ).state;
    expect(authorized).toMatchObject({ status: 'AUTHORIZED', amount: '40', tipAmount: '6', capturedAmount: null });
    expect(captureRefusal(authorized, {}, '46')).toBeUndefined();
    expect(captureRefusal(authorized, {}, '46.01')).toMatchObject({ code: 'invalid', message: expect.stringContaining('46') });
    expect(totalOf(authorized)).toBe('46');
  });

  it('refunds are bounded by the total less what was refunded', () => {
    const captured = { ...awaiting({ tipAmount: '6' }), status: 'CAPTURED' as const, capturedAt: ctx.now, capturedAmount: '46' };
    expect(refundableLeft(captured, {}).toFixed()).toBe('46');
    expect(refundRefusal({ ...captured, refundedAmount: '10' }, {}, '36')).toBeUndefined();
    expect(refundRefusal({ ...captured, refundedAmount: '10' }, {}, '36.01')).toMatchObject({ code: 'conflict' });
  });
});

describe('validation', () => {
  const message = (schema: typeof StoreInput | typeof CreatePaymentBody, input: unknown) => {
    const r = schema.safeParse(input);
    return r.success ? null : describeZodError(r.error, '');
  };
  const store = { name: 'Café', country: 'DE', timezone: 'Europe/Berlin' };
  it('store tipping: 1 to 3 whole percentages from 1 to 100, each named in brackets', () => {
    expect(message(StoreInput, { ...store, tipping: { enabled: true, percentages: [10, 15, 20], allowCustom: false } })).toBeNull();
    expect(message(StoreInput, { ...store, tipping: { percentages: [10, 15.5] } })).toMatch(/^tipping\.percentages\[1\]: /);
    expect(message(StoreInput, { ...store, tipping: { percentages: [10, 101] } })).toMatch(/^tipping\.percentages\[1\]: /);
    expect(message(StoreInput, { ...store, tipping: { percentages: [0] } })).toMatch(/^tipping\.percentages\[0\]: /);
    expect(message(StoreInput, { ...store, tipping: { percentages: [] } })).toMatch(/^tipping\.percentages: /);
    expect(message(StoreInput, { ...store, tipping: { percentages: [5, 10, 15, 20] } })).toMatch(/^tipping\.percentages: /);
    expect(message(StoreInput, { ...store, tipping: { enabled: 'yes' } })).toMatch(/^tipping\.enabled: /);
    expect(message(StoreInput, { ...store, tipping: { other: 1 } })).toMatch(/^tipping\.other: unknown field/);
  });
  const payment = { merchantExternalId: 'm', storeExternalId: 's', terminalExternalId: 't', amount: 40, currency: 'EUR' };
  it('payment: tip only "ASK"; tipAmount 0 or more, at most the amount, the currency decimals; not both', () => {
    expect(message(CreatePaymentBody, { ...payment, tip: 'ASK' })).toBeNull();
    expect(message(CreatePaymentBody, { ...payment, tipAmount: 0 })).toBeNull();
    expect(message(CreatePaymentBody, { ...payment, tipAmount: 40 })).toBeNull();
    expect(message(CreatePaymentBody, { ...payment, tip: 'YES' })).toMatch(/^tip: /);
    expect(message(CreatePaymentBody, { ...payment, tipAmount: -1 })).toMatch(/^tipAmount: /);
    expect(message(CreatePaymentBody, { ...payment, tipAmount: 40.01 })).toMatch(/^tipAmount: must be at most the amount/);
    expect(message(CreatePaymentBody, { ...payment, tipAmount: 1.005 })).toMatch(/^tipAmount: must have at most 2 decimal places/);
    expect(message(CreatePaymentBody, { ...payment, tipAmount: '5' })).toMatch(/^tipAmount: /);
    expect(message(CreatePaymentBody, { ...payment, tip: 'ASK', tipAmount: 5 })).toMatch(/^tip: must not be sent together with tipAmount/);
  });
});

describe('reports', () => {
  it('tips rows: per business date, store, cashier and currency; count tipped or not; newest first, null cashier last', () => {
    const sale = (businessDate: string, cashierId: string | null, tipAmount: string, currency = 'EUR') => ({
      businessDate,
      storeExternalId: 's1',
      cashierId,
      currency,
      tipAmount,
    });
    expect(
      tipRows([
        sale('2026-11-27', 'ann', '6'),
        sale('2026-11-28', null, '0'),
        sale('2026-11-28', 'bob', '1.10'),
        sale('2026-11-28', 'bob', '0.20'),
        sale('2026-11-28', 'bob', '0'),
      ]),
    ).toEqual([
      { businessDate: '2026-11-28', storeExternalId: 's1', cashierId: 'bob', currency: 'EUR', count: 3, tipAmount: '1.3' },
      { businessDate: '2026-11-28', storeExternalId: 's1', cashierId: null, currency: 'EUR', count: 1, tipAmount: '0' },
      { businessDate: '2026-11-27', storeExternalId: 's1', cashierId: 'ann', currency: 'EUR', count: 1, tipAmount: '6' },
    ]);
  });

  it('batch totals: tipAmount of the payment lines, contained in grossAmount', () => {
    const [t] = totalsOf([
      { type: 'PAYMENT', amount: '46', feeAmount: '0.74', tipAmount: '6', currency: 'EUR' },
      { type: 'PAYMENT', amount: '10', feeAmount: '0.24', currency: 'EUR' },
      { type: 'REFUND', amount: '20', feeAmount: '0', tipAmount: '0', currency: 'EUR' },
    ]);
    expect(t).toMatchObject({ grossAmount: '56', tipAmount: '6', refundAmount: '20', feeAmount: '0.98', netAmount: '35.02' });
  });
});

/**
 * Sales, tips, refunds, fees and payouts add up to the cent, whatever the mix (a seeded loop: the
 * repository has no property-testing library). A payout pays a batch's net; what the merchant got
 * is what the cards were charged less refunds and fees, and what the cards were charged is sales
 * plus tips.
 */
describe('the books add up', () => {
  function random(seed: number) {
    let s = seed >>> 0;
    return () => {
      s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
      return s / 2 ** 32;
    };
  }
  it('for 500 seeded days of payments', () => {
    const next = random(40);
    const cents = (max: number) => new Decimal(Math.floor(next() * max)).dividedBy(100);
    for (let day = 0; day < 500; day++) {
      const lines: { type: string; amount: string; feeAmount: string; tipAmount: string; currency: string }[] = [];
      let sales = new Decimal(0);
      let tips = new Decimal(0);
      let refunds = new Decimal(0);
      let fees = new Decimal(0);
      const count = 1 + Math.floor(next() * 8);
      for (let i = 0; i < count; i++) {
        const amount = cents(20_000).plus(0.01);
        const tip =
          next() < 0.5
            ? new Decimal(0)
            : amount
                .times([10, 15, 20][Math.floor(next() * 3)])
                .dividedBy(100)
                .toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
        const total = new Decimal(totalOf({ amount: amount.toFixed(), tipAmount: tip.toFixed() }));
        const fee = new Decimal(
          expectedFeeOf([{ paymentMode: 'CARD', cardBrand: null, percent: '1.40', fixed: '0.10' }], {
            paymentMode: 'CARD',
            cardBrand: 'VISA',
            capturedAmount: total.toFixed(),
            currency: 'EUR',
          })!,
        );
        // the fee is priced on the total charged, tip included
        expect(fee.toFixed(2)).toBe(total.times('0.014').toDecimalPlaces(2, Decimal.ROUND_HALF_UP).plus('0.10').toFixed(2));
        lines.push({ type: 'PAYMENT', amount: total.toFixed(), feeAmount: fee.toFixed(), tipAmount: tip.toFixed(), currency: 'EUR' });
        sales = sales.plus(amount);
        tips = tips.plus(tip);
        fees = fees.plus(fee);
        if (next() < 0.3) {
          const refund = Decimal.min(total, cents(total.times(100).toNumber() + 1));
          if (refund.gt(0)) {
            lines.push({ type: 'REFUND', amount: refund.toFixed(), feeAmount: '0', tipAmount: '0', currency: 'EUR' });
            refunds = refunds.plus(refund);
          }
        }
      }
      const [t] = totalsOf(lines);
      expect(t.grossAmount).toBe(sales.plus(tips).toFixed());
      expect(t.tipAmount).toBe(tips.toFixed());
      expect(t.netAmount).toBe(sales.plus(tips).minus(refunds).minus(fees).toFixed());
      // the payout is the net, to the cent: nothing lost or made up in rounding
      expect(new Decimal(t.netAmount).decimalPlaces()).toBeLessThanOrEqual(2);
    }
  });
});
