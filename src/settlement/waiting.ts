import type { Db } from '../db/client';
import { Prisma } from '../generated/prisma/client';
import { paymentClaimable, refundClaimable } from './claimable';

/** A batch being closed: CLOSING while it claims and asks for the report, SETTLING while its payments are settled one by one. */
const IN_PROGRESS = ['CLOSING', 'SETTLING'];

/**
 * The stores a close would settle something in, by name, for the dashboard's close picker (issue
 * 31), and each store's close in progress: how many of its batch's payments are settled so far.
 * "Waiting" is what `openBatch` (src/settlement/batches.ts) would claim now (./claimable.ts).
 */
export async function storesWaitingForSettlement(db: Db, merchantId: string) {
  const scope = { storeId: Prisma.sql`s."id"`, mode: Prisma.sql`s."mode"`, until: null };
  const rows = await db.$queryRaw<{ externalId: string; name: string; mode: string; payments: number; refunds: number }[]>`
    SELECT s."externalId", s."name", s."mode",
      (SELECT count(*)::int FROM "Payment" p WHERE ${paymentClaimable(scope)}) AS payments,
      (SELECT count(*)::int FROM "Refund" r JOIN "Payment" p ON p."id" = r."paymentId" WHERE ${refundClaimable(scope)}) AS refunds
    FROM "Store" s
    WHERE s."merchantId" = ${merchantId}
    ORDER BY s."name", s."externalId"`;
  const closing = await closesInProgress(db, merchantId);
  return rows
    .map((r) => ({ ...r, payments: Number(r.payments), refunds: Number(r.refunds), closing: closing.get(r.externalId) ?? null }))
    .filter((r) => r.payments + r.refunds > 0 || r.closing);
}

/** Per store, its batch being closed: payments claimed (`total`) and settled so far (`settled`). */
async function closesInProgress(db: Db, merchantId: string) {
  const batches = await db.settlementBatch.findMany({
    where: { merchantId, status: { in: IN_PROGRESS } },
    select: { id: true, storeExternalId: true, status: true },
  });
  // One query for every close in progress: payment lines claimed, and of those the settled ones (appliedAt set).
  const counts = await db.settlementLine.groupBy({
    by: ['batchId'],
    where: { batchId: { in: batches.map((b) => b.id) }, type: 'PAYMENT' },
    _count: { _all: true, appliedAt: true },
  });
  const byBatch = new Map(counts.map((c) => [c.batchId, c._count]));
  return new Map(
    batches.map((b) => [
      b.storeExternalId,
      { batchId: b.id, status: b.status, total: byBatch.get(b.id)?._all ?? 0, settled: byBatch.get(b.id)?.appliedAt ?? 0 },
    ]),
  );
}
