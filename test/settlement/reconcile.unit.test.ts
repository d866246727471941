import { chargebackNet, reconcile, totalsOf } from '../../src/settlement/reconcile';
import { initialState, transition } from '../../core/payment/transition';

/** The pure parts of settlement (docs/settlement.md, "Reconciliation"): matching a report, totals in exact decimal, the settle transition. */
const item = (acquirerRef: string, amount: string, over: Record<string, unknown> = {}) => ({
  type: 'PAYMENT' as const,
  acquirerRef,
  amount,
  currency: 'EUR',
  feeAmount: '0.10',
  occurredAt: '2026-01-01T00:00:00Z',
  deviceId: 'd',
  ...over,
});

describe('reconcile', () => {
  it('sorts the report into matched, mismatched, missing and unclaimed', () => {
    const claims = [
      { type: 'PAYMENT' as const, key: 'a', paymentId: 'pa', amount: '10', currency: 'EUR' },
      { type: 'PAYMENT' as const, key: 'b', paymentId: 'pb', amount: '20', currency: 'EUR' },
      { type: 'PAYMENT' as const, key: 'c', paymentId: 'pc', amount: '30', currency: 'EUR' },
      { type: 'REFUND' as const, key: 'RF-1', refundId: 'r1', paymentId: 'pa', amount: '5', currency: 'EUR' },
    ];
    const r = reconcile(claims, [
      item('a', '10.00'),
      item('b', '19.99'),
      item('x', '7'),
      item('a', '5', { type: 'REFUND', refundReference: 'RF-1', feeAmount: '0' }),
    ]);
    expect(r.matched.map((m) => [m.claim.key, m.mismatch])).toEqual([
      ['a', false],
      ['b', true],
      ['RF-1', false],
    ]);
    expect(r.missing.map((c) => c.key)).toEqual(['c']);
    expect(r.unclaimed.map((i) => i.acquirerRef)).toEqual(['x']);
  });
});

describe('totalsOf', () => {
  it('adds exactly per currency: net = gross - refunds - fees; expected fees count a line without a contract at its charged fee', () => {
    const lines = [
      { type: 'PAYMENT', amount: '0.1', feeAmount: '0.01', expectedFeeAmount: '0.005', currency: 'EUR' },
      { type: 'PAYMENT', amount: '0.2', feeAmount: '0.01', currency: 'EUR' },
      { type: 'REFUND', amount: '0.05', feeAmount: '0', currency: 'EUR' },
      { type: 'PAYMENT', amount: '1000', feeAmount: '14', currency: 'JPY' },
    ];
    expect(totalsOf(lines)).toEqual([
      {
        currency: 'EUR',
        paymentCount: 2,
        grossAmount: '0.3',
        refundCount: 1,
        refundAmount: '0.05',
        feeAmount: '0.02',
        chargebackAmount: '0',
        expectedFeeAmount: '0.015',
        tipAmount: '0',
        netAmount: '0.23',
      },
      {
        currency: 'JPY',
        paymentCount: 1,
        grossAmount: '1000',
        refundCount: 0,
        refundAmount: '0',
        feeAmount: '14',
        chargebackAmount: '0',
        expectedFeeAmount: '14',
        tipAmount: '0',
        netAmount: '986',
      },
    ]);
  });

  it("a dispute's debit counts against the net, its reversal gives it back: net = gross - refunds - fees - chargebacks", () => {
    const lines = [
      { type: 'PAYMENT', amount: '100', feeAmount: '1.5', currency: 'EUR' },
      { type: 'REFUND', amount: '10', feeAmount: '0', currency: 'EUR' },
      { type: 'CHARGEBACK', amount: '25.5', feeAmount: '0', currency: 'EUR' },
      { type: 'CHARGEBACK', amount: '0.1', feeAmount: '0', currency: 'EUR' },
      { type: 'CHARGEBACK_REVERSAL', amount: '0.1', feeAmount: '0', currency: 'EUR' },
    ];
    expect(totalsOf(lines)).toEqual([
      {
        currency: 'EUR',
        paymentCount: 1,
        grossAmount: '100',
        refundCount: 1,
        refundAmount: '10',
        feeAmount: '1.5',
        chargebackAmount: '25.5',
        expectedFeeAmount: '1.5',
        tipAmount: '0',
        netAmount: '63',
      },
    ]);
    // a batch with only a reversal (the dispute won after its debit was in an earlier batch) has a negative chargebackAmount
    expect(totalsOf([{ type: 'CHARGEBACK_REVERSAL', amount: '25.5', feeAmount: '0', currency: 'EUR' }])[0]).toMatchObject({
      paymentCount: 0,
      refundCount: 0,
      chargebackAmount: '-25.5',
      netAmount: '25.5',
    });
  });

  it('chargeback lines net minus their amount, reversals plus it', () => {
    expect(chargebackNet('CHARGEBACK', '25.5')).toBe('-25.5');
    expect(chargebackNet('CHARGEBACK_REVERSAL', '25.5')).toBe('25.5');
    expect(chargebackNet('CHARGEBACK', '25.5', '15')).toBe('-40.5');
  });
});

describe('the settle transition', () => {
  const now = '2026-11-23T03:00:00.000Z';
  it('CAPTURED becomes SETTLED with settledAt, one history entry and one event', () => {
    const r = transition(initialState({ status: 'CAPTURED', sequence: 2 }), { type: 'SETTLED', batchId: 'b1' }, { now });
    expect(r.state).toMatchObject({ status: 'SETTLED', settledAt: now, sequence: 3 });
    expect(r.effects.map((e) => e.type)).toEqual(['RECORD_STATUS_EVENT', 'UPSERT_STATUS_SEARCH_ATTRIBUTE', 'PUBLISH_PAYMENT_EVENT']);
    expect(r.effects[0]).toMatchObject({ event: { status: 'SETTLED', previousStatus: 'CAPTURED', actionReference: 'SETTLE-b1' }, fields: { settledAt: now } });
    // applied once: a second settle changes nothing
    expect(transition(r.state, { type: 'SETTLED', batchId: 'b2' }, { now }).effects).toEqual([]);
  });

  it('a refunded payment keeps its refund status and gains settledAt', () => {
    for (const status of ['PARTIALLY_REFUNDED', 'REFUNDED'] as const) {
      const r = transition(initialState({ status, sequence: 4 }), { type: 'SETTLED', batchId: 'b1' }, { now });
      expect(r.state).toMatchObject({ status, settledAt: now, sequence: 5 });
    }
  });

  it('a payment that is not captured is not settled', () => {
    for (const status of ['AWAITING_TERMINAL', 'CANCELLED', 'AUTHORIZED'] as const) {
      expect(transition(initialState({ status }), { type: 'SETTLED', batchId: 'b1' }, { now }).effects).toEqual([]);
    }
  });
});
