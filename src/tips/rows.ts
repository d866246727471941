import Decimal from 'decimal.js';

/**
 * The tips report's arithmetic (docs/tips.md, "The tips report"), pure so the unit lane proves it:
 * captured payments grouped by business date, store, cashier and currency, counted whether tipped
 * or not, with the tips they charged. What happened later (a refund) changes nothing here: the
 * report says what was charged.
 */
export interface TippedSale {
  businessDate: string;
  storeExternalId: string;
  /** null: the payment carried no cashier; it counts under null. */
  cashierId: string | null;
  currency: string;
  /** Exact decimal text. */
  tipAmount: string;
}

export interface TipRow {
  businessDate: string;
  storeExternalId: string;
  cashierId: string | null;
  currency: string;
  count: number;
  /** Exact decimal text. */
  tipAmount: string;
}

/** Rows newest business date first, then store, cashier (null last) and currency: a stable order for paging. */
export function tipRows(sales: readonly TippedSale[]): TipRow[] {
  const rows = new Map<string, { row: TipRow; sum: Decimal }>();
  for (const s of sales) {
    const key = JSON.stringify([s.businessDate, s.storeExternalId, s.cashierId, s.currency]);
    const found = rows.get(key) ?? {
      row: { businessDate: s.businessDate, storeExternalId: s.storeExternalId, cashierId: s.cashierId, currency: s.currency, count: 0, tipAmount: '0' },
      sum: new Decimal(0),
    };
    found.row.count += 1;
    found.sum = found.sum.plus(s.tipAmount);
    rows.set(key, found);
  }
  return [...rows.values()].map(({ row, sum }) => ({ ...row, tipAmount: sum.toFixed() })).sort(byRow);
}

function byRow(a: TipRow, b: TipRow): number {
  return (
    b.businessDate.localeCompare(a.businessDate) ||
    a.storeExternalId.localeCompare(b.storeExternalId) ||
    (a.cashierId === b.cashierId ? 0 : a.cashierId === null ? 1 : b.cashierId === null ? -1 : a.cashierId.localeCompare(b.cashierId)) ||
    a.currency.localeCompare(b.currency)
  );
}
