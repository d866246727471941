import Decimal from 'decimal.js';
import type { Db } from '../db/client';
import type { Page } from '../domain/paging';
import { pageOf } from '../domain/paging';
import { listArgs, PagingQuery } from '../domain/listQuery';
import { z } from '../domain/zod';
import type { ComplianceAlert, Prisma } from '../generated/prisma/client';
import { ALERT_SCOPES, ALERT_STATUSES, ALERT_TYPES } from './decision';

/** A compliance alert as the API and its events show it (docs/disputes.md, "Compliance alerts"): ratio and threshold as decimals (0.0125). */
export const AlertRecordSchema = z
  .object({
    id: z.string(),
    type: z.enum(ALERT_TYPES).openapi({ description: 'CHARGEBACK_RATIO: disputes opened over payments captured; REFUND_RATIO: refunded over captured amount' }),
    scope: z.enum(ALERT_SCOPES),
    storeExternalId: z.string().nullable().openapi({ description: 'The store, when scope is STORE' }),
    acquirerAccountId: z.string().nullable().openapi({ description: 'The acquirer account (MID), when scope is ACQUIRER_ACCOUNT' }),
    windowDays: z.number().openapi({ description: 'The rolling window the ratio is measured over (COMPLIANCE_WINDOW_DAYS)' }),
    count: z
      .number()
      .int()
      .openapi({ description: 'Disputes opened (CHARGEBACK_RATIO) or refunds succeeded (REFUND_RATIO) in the window, at the last evaluation' }),
    ratio: z.number().openapi({ description: 'At the last evaluation (when resolved: the one that resolved it), 6 decimal places' }),
    threshold: z.number(),
    status: z.enum(ALERT_STATUSES),
    raisedAt: z.string(),
    resolvedAt: z.string().nullable(),
  })
  .openapi('ComplianceAlert');
export type AlertRecord = z.infer<typeof AlertRecordSchema>;

const num = (d: Decimal.Value): number => Number(new Decimal(d).toFixed());

export function toAlertRecord(a: ComplianceAlert): AlertRecord {
  return {
    id: a.id,
    type: a.type as AlertRecord['type'],
    scope: a.scope as AlertRecord['scope'],
    storeExternalId: a.storeExternalId,
    acquirerAccountId: a.acquirerAccountId,
    windowDays: num(a.windowDays),
    count: a.count,
    ratio: num(a.ratio),
    threshold: num(a.threshold),
    status: a.status as AlertRecord['status'],
    raisedAt: a.raisedAt.toISOString(),
    resolvedAt: a.resolvedAt?.toISOString() ?? null,
  };
}

export const AlertListQuery = PagingQuery.extend({
  status: z.enum(ALERT_STATUSES, { message: `must be one of ${ALERT_STATUSES.join(', ')}` }).optional(),
}).strict();
export type AlertListQuery = z.infer<typeof AlertListQuery>;

/** The business's alerts (live and test alike, as disputes), newest raised first. */
export async function listAlerts(db: Db, merchantId: string, q: AlertListQuery): Promise<Page<AlertRecord>> {
  const where: Prisma.ComplianceAlertWhereInput = { merchantId, ...(q.status ? { status: q.status } : {}) };
  const [total, rows] = await Promise.all([db.complianceAlert.count({ where }), db.complianceAlert.findMany({ where, ...listArgs('raisedAt', q) })]);
  return pageOf(rows.map(toAlertRecord), total, q);
}
