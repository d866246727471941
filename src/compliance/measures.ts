import Decimal from 'decimal.js';
import { Prisma } from '../generated/prisma/client';
import type { Db } from '../db/client';
import type { AlertScope, Measure } from './decision';

/**
 * What a compliance ratio measures, per target, as ranges of indexes (migration 0025): payments
 * by (merchantId, storeExternalId, capturedAt) or (acquirerAccountId, capturedAt), disputes by
 * (merchantId, storeExternalId, openedAt) or (acquirerAccountId, openedAt), succeeded refunds by
 * (merchantId, status, decidedAt) joined to their payment by key. Nothing scans every payment.
 */
export type Target =
  | { merchantId: string; mode: string; scope: Extract<AlertScope, 'STORE'>; storeExternalId: string }
  | { merchantId: string; mode: string; scope: Extract<AlertScope, 'ACQUIRER_ACCOUNT'>; acquirerAccountId: string };

export const targetKey = (t: Target): string => JSON.stringify([t.merchantId, t.mode, t.scope, t.scope === 'STORE' ? t.storeExternalId : t.acquirerAccountId]);

const paymentsOf = (t: Target, alias: string): Prisma.Sql =>
  t.scope === 'STORE'
    ? Prisma.sql`${Prisma.raw(alias)}."merchantId" = ${t.merchantId} AND ${Prisma.raw(alias)}."storeExternalId" = ${t.storeExternalId}`
    : Prisma.sql`${Prisma.raw(alias)}."acquirerAccountId" = ${t.acquirerAccountId} AND ${Prisma.raw(alias)}."merchantId" = ${t.merchantId}`;

export interface Measures {
  chargebacks: Measure;
  refunds: Measure;
}

export async function measure(db: Db, t: Target, since: Date): Promise<Measures> {
  const [captured] = await db.$queryRaw<{ n: number; total: Decimal | null }[]>`
    SELECT count(*)::int AS n, sum(COALESCE(p."capturedAmount", p."amount")) AS total FROM "Payment" p
    WHERE ${paymentsOf(t, 'p')} AND p."mode" = ${t.mode} AND p."capturedAt" >= ${since}`;
  const [disputes] = await db.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM "Dispute" d WHERE ${paymentsOf(t, 'd')} AND d."mode" = ${t.mode} AND d."openedAt" >= ${since}`;
  const [refunds] = await db.$queryRaw<{ n: number; total: Decimal | null }[]>`
    SELECT count(*)::int AS n, sum(r."amount") AS total FROM "Refund" r JOIN "Payment" p ON p."id" = r."paymentId"
    WHERE r."merchantId" = ${t.merchantId} AND r."status" = 'SUCCEEDED' AND r."decidedAt" >= ${since} AND r."mode" = ${t.mode} AND ${paymentsOf(t, 'p')}`;
  return {
    chargebacks: { count: disputes?.n ?? 0, numerator: disputes?.n ?? 0, denominator: captured?.n ?? 0 },
    refunds: { count: refunds?.n ?? 0, numerator: new Decimal(refunds?.total?.toString() ?? 0), denominator: new Decimal(captured?.total?.toString() ?? 0) },
  };
}
