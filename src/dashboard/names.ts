import type { Db } from '../db/client';
import { SETTLEABLE_STATUSES } from '../../core/payment/statuses';

/**
 * What the dashboard shows people instead of ids (issue 31): the business's stores and terminals by
 * name, read once per page rather than once per row, and the filters' suggestions. Users' display
 * names come with the same read: who closed a batch or refunded reads as a person.
 */
export async function nameDirectory(db: Db, merchantId: string) {
  const [stores, users] = await Promise.all([
    db.store.findMany({
      where: { merchantId },
      orderBy: [{ name: 'asc' }, { externalId: 'asc' }],
      select: {
        externalId: true,
        name: true,
        mode: true,
        status: true,
        terminals: { orderBy: [{ label: 'asc' }, { externalId: 'asc' }], select: { externalId: true, label: true, status: true } },
      },
    }),
    db.user.findMany({ where: { merchantId }, orderBy: { username: 'asc' }, select: { username: true, displayName: true } }),
  ]);
  return { stores, users };
}

/**
 * Stores with something waiting for settlement (what a close would claim: captured payments and
 * succeeded refunds of the store's mode in no batch yet), for the close's store picker. The same
 * conditions as `openBatch` (src/settlement/batches.ts), without its cut-off: a manual close
 * claims everything up to now.
 */
export async function storesWaitingForSettlement(db: Db, merchantId: string) {
  const statuses = [...SETTLEABLE_STATUSES];
  const rows = await db.$queryRaw<{ externalId: string; name: string; mode: string; payments: number; refunds: number }[]>`
    SELECT s."externalId", s."name", s."mode",
      (SELECT count(*)::int FROM "Payment" p
        WHERE p."storeId" = s."id" AND p."mode" = s."mode" AND p."status" = ANY(${statuses}) AND p."acquirerRef" IS NOT NULL AND p."capturedAt" IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM "SettlementLine" l WHERE l."type" = 'PAYMENT' AND l."paymentId" = p."id")) AS payments,
      (SELECT count(*)::int FROM "Refund" r JOIN "Payment" p ON p."id" = r."paymentId"
        WHERE p."storeId" = s."id" AND r."mode" = s."mode" AND r."status" = 'SUCCEEDED' AND r."decidedAt" IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM "SettlementLine" l WHERE l."type" = 'REFUND' AND l."refundId" = r."id")) AS refunds
    FROM "Store" s
    WHERE s."merchantId" = ${merchantId}
    ORDER BY s."name", s."externalId"`;
  return rows.filter((r) => r.payments + r.refunds > 0).map((r) => ({ ...r, payments: Number(r.payments), refunds: Number(r.refunds) }));
}
