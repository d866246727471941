import type { TipsRow } from './report';

/** One business date's tips in one currency: the sum over its stores and cashiers. */
export interface TipsDay {
  businessDate: string;
  count: number;
  /** Exact decimal text (4 places at most, as the API's amounts). */
  tipAmount: string;
  /** The same as a number, for the chart's bar height only. */
  tipValue: number;
}

const SCALE = 10_000;

/** Ten-thousandths as decimal text, by integer arithmetic alone. */
function decimalText(units: number): string {
  const sign = units < 0 ? '-' : '';
  const abs = Math.abs(units);
  return `${sign}${Math.floor(abs / SCALE)}.${String(abs % SCALE).padStart(4, '0')}`;
}

/**
 * The report's rows summed per currency and business date, oldest first, in ten-thousandths so that
 * no binary fraction creeps into a shown total (docs/dashboard.md, "Names, money and long work").
 */
export function tipsPerDay(rows: TipsRow[]): Map<string, TipsDay[]> {
  const sums = new Map<string, Map<string, { count: number; units: number }>>();
  for (const r of rows) {
    const days = sums.get(r.currency) ?? new Map<string, { count: number; units: number }>();
    sums.set(r.currency, days);
    const day = days.get(r.businessDate) ?? { count: 0, units: 0 };
    day.count += r.count;
    day.units += Math.round(Number(r.tipAmount) * SCALE);
    days.set(r.businessDate, day);
  }
  const out = new Map<string, TipsDay[]>();
  for (const currency of [...sums.keys()].sort()) {
    const days = [...sums.get(currency)!.entries()].sort(([a], [b]) => a.localeCompare(b));
    out.set(
      currency,
      days.map(([businessDate, d]) => ({ businessDate, count: d.count, tipAmount: decimalText(d.units), tipValue: d.units / SCALE })),
    );
  }
  return out;
}

/** The tips of several days, exactly. */
export function totalOf(days: TipsDay[]): string {
  return decimalText(days.reduce((n, d) => n + Math.round(Number(d.tipAmount) * SCALE), 0));
}
