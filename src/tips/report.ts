import type { Db } from '../db/client';
import { z } from '../domain/zod';
import { businessDate as businessDateSchema, dateRange, PagingQuery } from '../domain/listQuery';
import { type Page, pageOf } from '../domain/paging';
import { currencyCode } from '../domain/fields';
import { csvText } from '../security/csvCell';
import { addDays, businessDate } from '../settlement/businessDate';
import { type TipRow, tipRows } from './rows';

/**
 * The tips report (docs/tips.md, "The tips report"): per business date (docs/settlement.md, "The
 * business date": the store's time zone and SETTLEMENT_CUTOFF_HOUR), store, cashier and currency,
 * the payments captured and the tips they charged. A payment counts once it was captured and was
 * not voided; a refund later leaves it counted, tip and all (the tip was charged and is the
 * cashier's to be paid out). Only the mode asked for (live by default): test money never mixes
 * with live money.
 */
export const TipsQuery = PagingQuery.extend({
  ...dateRange(' business date YYYY-MM-DD', businessDateSchema),
  storeExternalId: z.string().min(1).max(200).optional(),
  currency: currencyCode().optional(),
  mode: z.enum(['live', 'test'], { error: 'must be live or test' }).optional().openapi({ description: 'Default live' }),
  format: z.enum(['json', 'csv'], { error: 'must be json or csv' }).optional().openapi({ description: 'csv: the same rows as CSV with a header row' }),
}).strict();
export type TipsQuery = z.infer<typeof TipsQuery>;

export const TipRowSchema = z
  .object({
    businessDate: z.string().openapi({ description: "YYYY-MM-DD in the store's time zone, before SETTLEMENT_CUTOFF_HOUR the day before" }),
    storeExternalId: z.string(),
    cashierId: z.string().nullable().openapi({ description: 'As sent at creation; null for payments without one' }),
    currency: z.string(),
    count: z.number().int().openapi({ description: 'The payments captured, tipped or not' }),
    tipAmount: z.number().openapi({ description: 'The tips they charged; a later refund does not change it' }),
  })
  .openapi('TipRow');

/** Statuses of a payment that was captured and kept (a voided one gave everything back). */
const CHARGED = ['CAPTURED', 'SETTLED', 'PARTIALLY_REFUNDED', 'REFUNDED'];

/** The rows of the period, all of them (the page is cut by the caller). */
export async function tipReport(db: Db, merchantId: string, q: TipsQuery, cutoffHour: number): Promise<TipRow[]> {
  // A business date is at most a day and a half away from its instants: two days either side narrow the read.
  const widened = {
    ...(q.from ? { gte: new Date(`${addDays(q.from, -2)}T00:00:00Z`) } : {}),
    ...(q.to ? { lt: new Date(`${addDays(q.to, 2)}T00:00:00Z`) } : {}),
  };
  const payments = await db.payment.findMany({
    where: {
      merchantId,
      mode: q.mode ?? 'live',
      status: { in: CHARGED },
      capturedAt: { not: null, ...widened },
      ...(q.storeExternalId ? { storeExternalId: q.storeExternalId } : {}),
      ...(q.currency ? { currency: q.currency.toUpperCase() } : {}),
    },
    select: { storeExternalId: true, cashierId: true, currency: true, capturedAt: true, tipAmount: true, store: { select: { timezone: true } } },
  });
  const sales = payments
    .map((p) => ({
      // A store deleted since: its payments keep their UTC dates.
      businessDate: businessDate(p.capturedAt!, p.store?.timezone ?? 'UTC', cutoffHour),
      storeExternalId: p.storeExternalId,
      cashierId: p.cashierId,
      currency: p.currency,
      tipAmount: p.tipAmount.toFixed(),
    }))
    .filter((s) => (!q.from || s.businessDate >= q.from) && (!q.to || s.businessDate < q.to));
  return tipRows(sales);
}

export interface TipRecord extends Omit<TipRow, 'tipAmount'> {
  tipAmount: number;
}

export function tipsPage(rows: TipRow[], q: TipsQuery): Page<TipRecord> {
  const content = rows.slice(q.page * q.size, (q.page + 1) * q.size).map((r) => ({ ...r, tipAmount: Number(r.tipAmount) }));
  return pageOf(content, rows.length, q);
}

const CSV_COLUMNS = ['businessDate', 'storeExternalId', 'cashierId', 'currency', 'count', 'tipAmount'] as const;

/** Every row of the period as CSV with a header row, exact decimals (cells made safe by src/security/csvCell.ts). */
export function tipsCsv(rows: TipRow[]): string {
  return csvText(
    CSV_COLUMNS,
    rows.map((r) => CSV_COLUMNS.map((c) => (c === 'cashierId' ? (r.cashierId ?? '') : r[c]))),
  );
}
