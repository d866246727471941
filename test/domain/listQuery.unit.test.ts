import { dateRange, dateWhere, instant, listArgs, newestFirst, pageArgs, PagingQuery } from '../../src/domain/listQuery';
import { z } from '../../src/domain/zod';
import { amountText } from '../../src/money/amountText';
import { minorUnitsOf, supportedMinorUnitsOf } from '../../src/money/currencies';
import { percentFee } from '../../src/money/fee';
import Decimal from 'decimal.js';

/** The list-query and money kits (docs/architecture.md, "Where each kind of rule lives"). */
describe('list-query kit', () => {
  it('pages with its default and maximum, in the words every list answers', () => {
    expect(PagingQuery.parse({})).toEqual({ page: 0, size: 20 });
    expect(PagingQuery.parse({ page: '2', size: '100' })).toEqual({ page: 2, size: 100 });
    expect(PagingQuery.safeParse({ size: '101' }).error?.issues.map((i) => i.message)).toEqual(['must be at most 100']);
    expect(PagingQuery.safeParse({ page: '-1' }).error?.issues.map((i) => i.message)).toEqual(['must be 0 or more']);
  });

  it('turns a query into Prisma arguments', () => {
    expect(pageArgs({ page: 3, size: 20 })).toEqual({ skip: 60, take: 20 });
    expect(newestFirst('openedAt')).toEqual([{ openedAt: 'desc' }, { id: 'desc' }]);
    expect(listArgs('createdAt', { page: 0, size: 5 })).toEqual({ orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: 0, take: 5 });
    const from = new Date('2026-01-01T00:00:00Z');
    expect(dateWhere('createdAt', {})).toEqual({});
    expect(dateWhere('createdAt', { from })).toEqual({ createdAt: { gte: from } });
    expect(dateWhere('date', { from: '2026-01-01', to: '2026-02-01' })).toEqual({ date: { gte: '2026-01-01', lt: '2026-02-01' } });
  });

  it('reads a period of ISO dates or date-times with an offset', () => {
    const q = z.strictObject(dateRange(', ISO 8601 date or date-time'));
    expect(q.parse({ from: '2026-01-01', to: '2026-01-02T10:00:00+02:00' })).toEqual({
      from: new Date('2026-01-01T00:00:00Z'),
      to: new Date('2026-01-02T08:00:00Z'),
    });
    expect(instant.safeParse('2026-01-01T10:00:00').error?.issues[0]?.message).toBe('must be an ISO 8601 date or date-time');
  });
});

describe('money kit', () => {
  it("gives a currency's digits, 2 outside the list unless told", () => {
    expect(minorUnitsOf('EUR')).toBe(2);
    expect(minorUnitsOf('JPY')).toBe(0);
    expect(minorUnitsOf('XXX')).toBe(2);
    expect(minorUnitsOf('XXX', 3)).toBe(3);
    expect(() => supportedMinorUnitsOf('XXX', () => new RangeError('no'))).toThrow(RangeError);
    expect(amountText(new Decimal('12.5'), 'EUR')).toBe('12.50');
    expect(amountText(new Decimal('1.2345'), 'XXX')).toBe('1.2345');
  });

  it('prices a fee: percent rounded half up to the minor unit, plus fixed', () => {
    expect(percentFee('12.50', 'EUR', '1.40', '0.10').toFixed()).toBe('0.28');
    expect(percentFee('1250', 'JPY', '0.90', '0').toFixed()).toBe('11');
  });
});
