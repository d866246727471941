import type { Db } from '../db/client';
import { notFound } from '../domain/errors';
import { pageOf, type Page } from '../domain/paging';
import { dateWhere, listArgs } from '../domain/listQuery';
import type { Prisma } from '../generated/prisma/client';
import type { PaymentView } from '../fees/visibility';
import { findOwnPayment, type PaymentScope } from './operations';
import { toHistoryEntry, toPaymentRecord, type PaymentRecord } from './record';

/**
 * The read side of payments (docs/payments.md, "Reading payments"): answered from the database projection only, never from
 * the terminal. A key sees only its business's payments of its own mode (live or test), a dashboard
 * user both modes of its business (PaymentScope); a deleted store or terminal never hides its payments.
 */
function scopeWhere(scope: PaymentScope): Prisma.PaymentWhereInput {
  return { merchantId: scope.merchantId, ...(scope.mode ? { mode: scope.mode } : {}) };
}

/** Status history of one payment, newest first. */
export async function paymentHistory(db: Db, principal: PaymentScope, paymentId: string): Promise<ReturnType<typeof toHistoryEntry>[]> {
  const payment = await findOwnPayment(db, principal, paymentId);
  const entries = await db.paymentHistory.findMany({ where: { paymentId: payment.id }, orderBy: { sequence: 'desc' } });
  return entries.map(toHistoryEntry);
}

export interface PaymentFilter {
  merchantExternalId?: string;
  /** inclusive */
  from?: Date;
  /** exclusive */
  to?: Date;
  status?: string;
  acquirerName?: string;
  /** reference, pspReference or id */
  q?: string;
  storeExternalId?: string;
  terminalExternalId?: string;
}

/** Payments, newest first, filtered, one page, as `view`'s caller may see them; naming another business is not found. */
export async function listPayments(
  db: Db,
  principal: PaymentScope,
  filter: PaymentFilter,
  paging: { page: number; size: number },
  view: PaymentView,
): Promise<Page<PaymentRecord>> {
  if (filter.merchantExternalId !== undefined && filter.merchantExternalId !== principal.merchantExternalId) throw notFound('merchant');
  const where: Prisma.PaymentWhereInput = {
    ...scopeWhere(principal),
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.acquirerName ? { acquirerName: filter.acquirerName } : {}),
    ...(filter.storeExternalId ? { storeExternalId: filter.storeExternalId } : {}),
    ...(filter.terminalExternalId ? { terminalExternalId: filter.terminalExternalId } : {}),
    ...dateWhere('createdAt', filter),
    ...(filter.q ? { OR: [{ reference: filter.q }, { pspReference: filter.q }, { id: filter.q }] } : {}),
  };
  const [total, rows] = await Promise.all([db.payment.count({ where }), db.payment.findMany({ where, ...listArgs('createdAt', paging) })]);
  return pageOf(
    rows.map((row) => toPaymentRecord(row, view)),
    total,
    paging,
  );
}
