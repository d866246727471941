import { tipsPerDay, totalOf } from '../../dashboard/src/tips/perDay';
import type { TipsRow } from '../../dashboard/src/tips/report';

const row = (businessDate: string, cashierId: string | null, currency: string, count: number, tipAmount: number | string): TipsRow => ({
  businessDate,
  storeExternalId: 'store_1',
  cashierId,
  currency,
  count,
  tipAmount,
});

/** The tips chart's figures (docs/dashboard.md, "Tips"): the report's rows summed per currency and day, to the cent. */
describe('tipsPerDay', () => {
  it('sums the stores and cashiers of a day, per currency, oldest day first', () => {
    const days = tipsPerDay([
      row('2026-11-28', 'ben', 'EUR', 1, 2.5),
      row('2026-11-27', 'ann', 'EUR', 2, 6),
      row('2026-11-28', null, 'EUR', 1, 1),
      row('2026-11-28', 'ann', 'JPY', 3, 300),
    ]);
    expect([...days.keys()]).toEqual(['EUR', 'JPY']);
    expect(days.get('EUR')!.map((d) => [d.businessDate, d.count, d.tipAmount])).toEqual([
      ['2026-11-27', 2, '6.0000'],
      ['2026-11-28', 2, '3.5000'],
    ]);
    expect(days.get('JPY')![0]).toMatchObject({ businessDate: '2026-11-28', count: 3, tipAmount: '300.0000', tipValue: 300 });
  });

  it('adds amounts exactly, with no binary fraction left over', () => {
    // 0.1 + 0.2 in binary floating point is 0.30000000000000004.
    const days = tipsPerDay([row('2026-11-28', 'a', 'EUR', 1, 0.1), row('2026-11-28', 'b', 'EUR', 1, '0.2')]);
    expect(days.get('EUR')![0]!.tipAmount).toBe('0.3000');
    expect(totalOf([...days.get('EUR')!, ...tipsPerDay([row('2026-11-29', 'a', 'EUR', 1, '0.0001')]).get('EUR')!])).toBe('0.3001');
  });

  it('has no day for no rows', () => {
    expect(tipsPerDay([]).size).toBe(0);
  });
});
