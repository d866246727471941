import { Prisma } from '../generated/prisma/client';
import { SETTLEABLE_STATUSES } from '../../core/payment/statuses';

/**
 * What a settlement close claims, in one place: the captured payments (alias `p`) and the
 * succeeded refunds (alias `r`, joined to their payment `p`) of a store's own mode that no batch
 * holds yet. `openBatch` claims them up to the close's `until`; the close picker counts what is
 * waiting now (`until` null). `store` is either values or the columns of an outer query.
 */
export interface ClaimScope {
  storeId: Prisma.Sql;
  mode: Prisma.Sql;
  until: Date | null;
}

export function paymentClaimable({ storeId, mode, until }: ClaimScope): Prisma.Sql {
  const captured = until ? Prisma.sql`p."capturedAt" <= ${until}` : Prisma.sql`p."capturedAt" IS NOT NULL`;
  return Prisma.sql`p."storeId" = ${storeId} AND p."mode" = ${mode} AND p."status" = ANY(${[...SETTLEABLE_STATUSES]})
    AND ${captured} AND p."acquirerRef" IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM "SettlementLine" l WHERE l."type" = 'PAYMENT' AND l."paymentId" = p."id")`;
}

export function refundClaimable({ storeId, mode, until }: ClaimScope): Prisma.Sql {
  const decided = until ? Prisma.sql`r."decidedAt" <= ${until}` : Prisma.sql`r."decidedAt" IS NOT NULL`;
  return Prisma.sql`p."storeId" = ${storeId} AND r."mode" = ${mode} AND r."status" = 'SUCCEEDED' AND ${decided}
    AND NOT EXISTS (SELECT 1 FROM "SettlementLine" l WHERE l."type" = 'REFUND' AND l."refundId" = r."id")`;
}
