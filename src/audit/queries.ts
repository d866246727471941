import type { Db } from '../db/client';
import { pageOf, type Page } from '../domain/paging';
import { listArgs } from '../domain/listQuery';
import { toAuditLogRecord } from './record';

/** The audit log of one merchant, newest first, optionally of one action, one page. */
export async function listAuditLog(
  db: Db,
  merchantId: string,
  action: string | undefined,
  paging: { page: number; size: number },
): Promise<Page<ReturnType<typeof toAuditLogRecord>>> {
  const where = { merchantId, ...(action ? { action } : {}) };
  const [entries, total] = await Promise.all([db.auditLog.findMany({ where, ...listArgs('createdAt', paging) }), db.auditLog.count({ where })]);
  return pageOf(entries.map(toAuditLogRecord), total, paging);
}
