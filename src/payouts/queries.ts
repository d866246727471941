import Decimal from 'decimal.js';
import type { Db } from '../db/client';
import { notFound } from '../domain/errors';
import { type Page, pageOf } from '../domain/paging';
import { dateRange, dateWhere, listArgs, PagingQuery } from '../domain/listQuery';
import { z } from '../domain/zod';
import type { Prisma } from '../generated/prisma/client';
import { PayoutStatusSchema, type PayoutRecord, toPayoutRecord } from './record';

/** Reads of payouts and balances (docs/payouts-and-fees.md): the business's own only. */
// Looser than the kit's `instant` (it takes what Date parses, a date-time without an offset too): kept as it was answered.
const instant = z.coerce.date({ message: 'must be an ISO 8601 date or date-time' });

export const PayoutListQuery = PagingQuery.extend({
  acquirerAccountId: z.string().min(1).max(100).optional(),
  status: PayoutStatusSchema.optional(),
  ...dateRange(', ISO 8601 date or date-time, compared with createdAt', instant),
}).strict();
export type PayoutListQuery = z.infer<typeof PayoutListQuery>;

export const PayoutIdParams = z.object({ id: z.uuid('must be a payout id') });

export async function listPayouts(db: Db, merchantId: string, q: PayoutListQuery): Promise<Page<PayoutRecord>> {
  const where: Prisma.PayoutWhereInput = {
    merchantId,
    ...(q.acquirerAccountId ? { acquirerAccountId: q.acquirerAccountId } : {}),
    ...(q.status ? { status: q.status } : {}),
    ...dateWhere('createdAt', q),
  };
  const [total, rows] = await Promise.all([db.payout.count({ where }), db.payout.findMany({ where, ...listArgs('createdAt', q) })]);
  return pageOf(rows.map(toPayoutRecord), total, q);
}

export async function findOwnPayout(db: Db, merchantId: string, id: string): Promise<PayoutRecord> {
  const row = await db.payout.findFirst({ where: { id, merchantId } });
  if (!row) throw notFound('payout');
  return toPayoutRecord(row);
}

export const BalanceRecord = z
  .object({
    acquirerAccountId: z.string().nullable().openapi({ description: 'null: the installation default' }),
    currency: z.string(),
    settledNotPaidOut: z.number().openapi({ description: 'The net of reported batch lines not yet paid out (a failed payout returns here)' }),
    inTransit: z.number().openapi({ description: 'Payouts on their way to the bank' }),
    paidOutLast30Days: z.number().openapi({ description: 'Payouts the bank received in the last 30 days' }),
  })
  .openapi('Balance');
export type BalanceRecord = z.infer<typeof BalanceRecord>;

/**
 * Balances per account and currency: two grouped sums over indexed rows (the business's reported
 * settlement lines; its payouts). settledNotPaidOut = settled net - payouts in transit or paid.
 */
export async function balancesOf(db: Db, merchantId: string, now = new Date()): Promise<BalanceRecord[]> {
  const since = new Date(now.getTime() - 30 * 86_400_000);
  const settled = await db.$queryRaw<{ acquirerAccountId: string | null; currency: string; net: Decimal | null }[]>`
    SELECT l."acquirerAccountId", l."currency", SUM(l."netAmount") AS "net"
    FROM "SettlementLine" l JOIN "SettlementBatch" b ON b."id" = l."batchId"
    WHERE b."merchantId" = ${merchantId} AND l."reported"
    GROUP BY l."acquirerAccountId", l."currency"`;
  const payouts = await db.$queryRaw<{ acquirerAccountId: string | null; currency: string; status: string; total: Decimal; recent: Decimal }[]>`
    SELECT "acquirerAccountId", "currency", "status", SUM("amount") AS "total",
      COALESCE(SUM("amount") FILTER (WHERE "paidAt" >= ${since}), 0) AS "recent"
    FROM "Payout" WHERE "merchantId" = ${merchantId} GROUP BY "acquirerAccountId", "currency", "status"`;
  const key = (account: string | null, currency: string) => `${account ?? ''}\u0000${currency}`;
  const rows = new Map<string, { acquirerAccountId: string | null; currency: string; settled: Decimal; inTransit: Decimal; paid: Decimal; recent: Decimal }>();
  const row = (account: string | null, currency: string) => {
    const k = key(account, currency);
    if (!rows.has(k))
      rows.set(k, { acquirerAccountId: account, currency, settled: new Decimal(0), inTransit: new Decimal(0), paid: new Decimal(0), recent: new Decimal(0) });
    return rows.get(k)!;
  };
  for (const s of settled) row(s.acquirerAccountId, s.currency).settled = new Decimal(s.net?.toString() ?? '0');
  for (const p of payouts) {
    const r = row(p.acquirerAccountId, p.currency);
    if (p.status === 'IN_TRANSIT') r.inTransit = r.inTransit.plus(p.total.toString());
    if (p.status === 'PAID') {
      r.paid = r.paid.plus(p.total.toString());
      r.recent = r.recent.plus(p.recent.toString());
    }
  }
  return [...rows.values()]
    .sort((a, b) => (a.acquirerAccountId ?? '').localeCompare(b.acquirerAccountId ?? '') || a.currency.localeCompare(b.currency))
    .map((r) => ({
      acquirerAccountId: r.acquirerAccountId,
      currency: r.currency,
      settledNotPaidOut: Number(r.settled.minus(r.inTransit).minus(r.paid).toFixed()),
      inTransit: Number(r.inTransit.toFixed()),
      paidOutLast30Days: Number(r.recent.toFixed()),
    }));
}
