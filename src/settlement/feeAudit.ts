import Decimal from 'decimal.js';
import type { Db } from '../db/client';
import { Prisma } from '../generated/prisma/client';
import { SHOWN_STATUSES } from './records';

/**
 * The fee audit over a period (docs/payouts-and-fees.md, "The fee audit in settlement"; issue 27): of the batches a filter selects (store,
 * mode, business dates from inclusive, to exclusive), per currency the fees the acquirers charged,
 * the fees the cost contracts give (a line without a contract counting its charged fee, as batch
 * totals do) and the difference, what the merchant would claim back. Exact decimals.
 */
export interface FeeAuditFilter {
  storeExternalId?: string;
  mode?: string;
  from?: string;
  to?: string;
}

export interface FeeAuditTotals {
  currency: string;
  batchCount: number;
  feeAmount: string;
  expectedFeeAmount: string;
  overContractAmount: string;
}

export async function feeAudit(db: Db, merchantId: string, f: FeeAuditFilter): Promise<FeeAuditTotals[]> {
  const and = [
    Prisma.sql`b."merchantId" = ${merchantId}`,
    Prisma.sql`b."status" = ANY(${SHOWN_STATUSES})`,
    ...(f.storeExternalId ? [Prisma.sql`b."storeExternalId" = ${f.storeExternalId}`] : []),
    ...(f.mode ? [Prisma.sql`b."mode" = ${f.mode}`] : []),
    ...(f.from ? [Prisma.sql`b."date" >= ${f.from}`] : []),
    ...(f.to ? [Prisma.sql`b."date" < ${f.to}`] : []),
  ];
  const rows = await db.$queryRaw<{ currency: string; batches: bigint; fees: Decimal | null; expected: Decimal | null }[]>`
    SELECT l."currency", COUNT(DISTINCT b."id") AS "batches", SUM(l."feeAmount") AS "fees",
      SUM(COALESCE(l."expectedFeeAmount", l."feeAmount")) AS "expected"
    FROM "SettlementLine" l JOIN "SettlementBatch" b ON b."id" = l."batchId"
    WHERE ${Prisma.join(and, ' AND ')}
    GROUP BY l."currency" ORDER BY l."currency"`;
  return rows.map((r) => {
    const fees = new Decimal(r.fees?.toString() ?? '0');
    const expected = new Decimal(r.expected?.toString() ?? '0');
    return {
      currency: r.currency,
      batchCount: Number(r.batches),
      feeAmount: fees.toFixed(),
      expectedFeeAmount: expected.toFixed(),
      overContractAmount: fees.minus(expected).toFixed(),
    };
  });
}
