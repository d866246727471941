import type { Db } from '../db/client';
import { notFound } from '../domain/errors';
import type { Page } from '../domain/paging';
import { pageOf } from '../domain/paging';
import { dateWhere, listArgs } from '../domain/listQuery';
import type { Dispute, Prisma } from '../generated/prisma/client';
import { type DisputeListQuery, type DisputeRecord, toDisputeRecord } from './record';

/** A dispute of the caller's business (live or test alike); another business's is not found. */
export async function findOwnDispute(db: Db, merchantId: string, id: string): Promise<Dispute> {
  const dispute = await db.dispute.findFirst({ where: { id, merchantId } });
  if (!dispute) throw notFound('dispute');
  return dispute;
}

/** The business's disputes, newest first (openedAt), filtered, one page. */
export async function listDisputes(db: Db, merchantId: string, q: DisputeListQuery): Promise<Page<DisputeRecord>> {
  const where: Prisma.DisputeWhereInput = {
    merchantId,
    ...(q.status ? { status: q.status } : {}),
    ...(q.storeExternalId ? { storeExternalId: q.storeExternalId } : {}),
    ...(q.paymentId ? { paymentId: q.paymentId } : {}),
    ...dateWhere('openedAt', q),
  };
  const [total, rows] = await Promise.all([db.dispute.count({ where }), db.dispute.findMany({ where, ...listArgs('openedAt', q) })]);
  return pageOf(rows.map(toDisputeRecord), total, q);
}
