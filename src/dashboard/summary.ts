import Decimal from 'decimal.js';
import type { Db } from '../db/client';
import { Prisma } from '../generated/prisma/client';

/**
 * The dashboard's home figures for one period (normally the viewer's today): per store and
 * currency the payments taken and what was captured, and per hour how many payments ended in
 * each status. Amounts are summed exactly in the database and leave as JSON numbers.
 */
export interface StoreFigures {
  storeExternalId: string;
  currency: string;
  payments: number;
  captured: number;
  capturedAmount: number;
  refused: number;
  open: number;
}

/** Statuses in which the money was taken (post-sale statuses count: the sale happened). */
const TAKEN = ['CAPTURED', 'SETTLED', 'PARTIALLY_REFUNDED', 'REFUNDED'];
const OPEN = ['CREATED', 'AWAITING_TERMINAL', 'AUTHORIZED'];

export async function dashboardSummary(db: Db, merchantId: string, mode: string | undefined, from: Date, to: Date) {
  const where = { merchantId, ...(mode ? { mode } : {}), createdAt: { gte: from, lt: to } };
  const groups = await db.payment.groupBy({
    by: ['storeExternalId', 'currency', 'status'],
    where,
    _count: { _all: true },
    _sum: { amount: true },
  });
  const stores = new Map<string, StoreFigures & { sum: Decimal }>();
  for (const g of groups) {
    const key = `${g.storeExternalId}\u0000${g.currency}`;
    const s = stores.get(key) ?? {
      storeExternalId: g.storeExternalId,
      currency: g.currency,
      payments: 0,
      captured: 0,
      capturedAmount: 0,
      refused: 0,
      open: 0,
      sum: new Decimal(0),
    };
    const n = g._count._all;
    s.payments += n;
    if (TAKEN.includes(g.status)) {
      s.captured += n;
      s.sum = s.sum.plus(g._sum.amount?.toString() ?? 0);
    }
    if (g.status === 'REFUSED') s.refused += n;
    if (OPEN.includes(g.status)) s.open += n;
    stores.set(key, s);
  }
  const modeSql = mode ? Prisma.sql`AND "mode" = ${mode}` : Prisma.empty;
  const hours = await db.$queryRaw<{ hour: Date; status: string; count: number }[]>`
    SELECT date_trunc('hour', "createdAt") AS hour, "status", count(*)::int AS count
    FROM "Payment"
    WHERE "merchantId" = ${merchantId} AND "createdAt" >= ${from} AND "createdAt" < ${to} ${modeSql}
    GROUP BY 1, 2 ORDER BY 1, 2`;
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    stores: [...stores.values()]
      .sort((a, b) => a.storeExternalId.localeCompare(b.storeExternalId) || a.currency.localeCompare(b.currency))
      .map(({ sum, ...s }) => ({ ...s, capturedAmount: Number(sum.toFixed()) })),
    hours: hours.map((h) => ({ hour: new Date(h.hour).toISOString(), status: h.status, count: Number(h.count) })),
  };
}
