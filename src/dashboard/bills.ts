import type { Db } from '../db/client';
import type { BillRow } from '../bills/record';
import { toBillRecord } from '../bills/record';
import { isGivingBack, tenderGiveBack, type TenderGiveBack } from '../../core/bill/givenBack';
import type { TenderStatus } from '../../core/bill/statuses';

/**
 * Bills as the dashboard shows them (docs/dashboard.md, "Bills"): the bill record every endpoint
 * returns (src/bills/record.ts) with its mode, since a dashboard user sees live and test bills alike.
 */
export function toDashboardBill(row: BillRow) {
  return { ...toBillRecord(row), mode: row.mode };
}

/**
 * One bill for its page: each tender with what its give-back did (or the step still to take) once
 * the bill is cancelled or expired (core/bill/givenBack.ts), null before. A card tender cancelled
 * says how by the status its payment was cancelled from, read from the payment's row.
 */
export async function billDetail(db: Db, row: BillRow) {
  const bill = toDashboardBill(row);
  const none: TenderGiveBack = { givenBack: null, giveBackStep: null };
  if (!isGivingBack(row.status)) return { ...bill, tenders: bill.tenders.map((t) => ({ ...t, ...none })) };
  const paymentIds = bill.tenders.flatMap((t) => (t.paymentId ? [t.paymentId] : []));
  const payments = await db.payment.findMany({ where: { id: { in: paymentIds }, billId: row.id }, select: { id: true, previousStatus: true } });
  const cancelledFrom = new Map(payments.map((p) => [p.id, p.previousStatus]));
  return {
    ...bill,
    tenders: bill.tenders.map((t) => ({ ...t, ...tenderGiveBack(t.status as TenderStatus, t.paymentId ? (cancelledFrom.get(t.paymentId) ?? null) : null) })),
  };
}
