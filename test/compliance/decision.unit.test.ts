import { judge, nextStep } from '../../src/compliance/decision';

/** The pure decision of the compliance alerts (docs/disputes.md, "Compliance alerts"): ratio, threshold, minimum count, and the alert's next step. */
const chargebacks = { ratio: '0.01', minCount: 100 };

describe('judge', () => {
  it('breaches above the threshold with at least the minimum count', () => {
    const v = judge({ count: 125, numerator: 125, denominator: 10_000 }, chargebacks);
    expect(v.ratio!.toFixed()).toBe('0.0125');
    expect(v).toMatchObject({ breach: true, clear: false });
  });

  it('does not breach with fewer than the minimum count, however high the ratio', () => {
    expect(judge({ count: 99, numerator: 99, denominator: 100 }, chargebacks)).toMatchObject({ breach: false, clear: false });
  });

  it('exactly at the threshold is not above it: no breach, and clear', () => {
    expect(judge({ count: 100, numerator: 100, denominator: 10_000 }, chargebacks)).toMatchObject({ breach: false, clear: true });
  });

  it('compares exact decimals (amount ratios), rounds the shown ratio to 6 places half up', () => {
    const refunds = { ratio: '0.10', minCount: 20 };
    expect(judge({ count: 20, numerator: '100.01', denominator: '1000' }, refunds)).toMatchObject({ breach: true });
    expect(judge({ count: 20, numerator: '100.00', denominator: '1000' }, refunds)).toMatchObject({ breach: false, clear: true });
    expect(judge({ count: 1, numerator: 1, denominator: 3 }, { ratio: '0.3', minCount: 1 }).ratio!.toFixed()).toBe('0.333333');
    expect(judge({ count: 1, numerator: '0.0000005', denominator: 1 }, refunds).ratio!.toFixed()).toBe('0.000001');
  });

  it('nothing captured in the window: no ratio; clear only when nothing was disputed or refunded either', () => {
    expect(judge({ count: 3, numerator: 3, denominator: 0 }, chargebacks)).toEqual({ ratio: null, breach: false, clear: false });
    expect(judge({ count: 0, numerator: 0, denominator: 0 }, chargebacks)).toEqual({ ratio: null, breach: false, clear: true });
  });
});

describe('nextStep', () => {
  const breach = judge({ count: 200, numerator: 200, denominator: 1000 }, chargebacks);
  const between = judge({ count: 5, numerator: 5, denominator: 100 }, chargebacks); // above, too few to raise
  const under = judge({ count: 200, numerator: 1, denominator: 1000 }, chargebacks);
  it('raises only when none is open and the ratio breaches', () => {
    expect(nextStep(false, breach)).toBe('RAISE');
    expect(nextStep(false, between)).toBe('NONE');
    expect(nextStep(false, under)).toBe('NONE');
  });
  it('keeps an open alert up to date while above, resolves it once at or under the threshold', () => {
    expect(nextStep(true, breach)).toBe('UPDATE');
    expect(nextStep(true, between)).toBe('UPDATE');
    expect(nextStep(true, under)).toBe('RESOLVE');
    expect(nextStep(true, judge({ count: 1, numerator: 1, denominator: 0 }, chargebacks))).toBe('NONE');
  });
});
