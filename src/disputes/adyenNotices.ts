import { Prisma } from '../generated/prisma/client';
import type { AcquirerDispute } from '../acquirer/port';
import type { AdyenDisputeNotice } from '../acquirer/adyen/disputes';
import type { Db } from '../db/client';
import { disputeStatusRank } from '../../core/dispute/statuses';

/**
 * Adyen's disputes as its verified notifications told them (table AdyenDisputeNotice): Adyen's
 * Disputes API reads nothing back, so this is what the Adyen adapter's getDispute answers. A
 * notice never moves a dispute back (an older or out-of-order notification changes nothing), and
 * the adapter marks what its own accepted calls did (defended: under review; accepted).
 */
export interface AdyenDisputeBook {
  read(merchantAccount: string, disputePspReference: string): Promise<AcquirerDispute | null>;
  /** After Adyen took a defense or an acceptance: the dispute's state until its next notification. */
  mark(merchantAccount: string, disputePspReference: string, status: 'UNDER_REVIEW' | 'ACCEPTED'): Promise<void>;
}

export function adyenDisputeBook(db: Db): AdyenDisputeBook {
  return {
    async read(merchantAccount, disputePspReference) {
      const row = await db.adyenDisputeNotice.findUnique({ where: { merchantAccount_disputePspReference: { merchantAccount, disputePspReference } } });
      if (!row) return null;
      return {
        disputeId: row.disputePspReference,
        acquirerRef: row.acquirerRef,
        status: row.status as AcquirerDispute['status'],
        reason: row.reason as AcquirerDispute['reason'],
        amount: row.amount.toFixed(),
        currency: row.currency,
        openedAt: row.openedAt.toISOString(),
        dueBy: row.dueBy.toISOString(),
      };
    },
    async mark(merchantAccount, disputePspReference, status) {
      const key = { merchantAccount_disputePspReference: { merchantAccount, disputePspReference } };
      const row = await db.adyenDisputeNotice.findUnique({ where: key, select: { status: true } });
      if (row && disputeStatusRank(row.status) < disputeStatusRank(status))
        await db.adyenDisputeNotice.update({ where: key, data: { status, updatedAt: new Date() } });
    },
  };
}

/**
 * Keeps a verified notice of the payment whose bill is `acquirerRef`: the first opens the record
 * (its event date the dispute's opening, its defense period the due date); a later one moves it
 * on, never back.
 */
export async function recordAdyenDisputeNotice(db: Db, notice: AdyenDisputeNotice, acquirerRef: string): Promise<void> {
  const dueBy = new Date(notice.dueBy ?? notice.eventDate);
  await db.adyenDisputeNotice.upsert({
    where: { merchantAccount_disputePspReference: { merchantAccount: notice.merchantAccount, disputePspReference: notice.disputePspReference } },
    create: {
      merchantAccount: notice.merchantAccount,
      disputePspReference: notice.disputePspReference,
      paymentPspReference: notice.paymentPspReference,
      acquirerRef,
      status: notice.status,
      reason: notice.reason,
      amount: new Prisma.Decimal(notice.amount),
      currency: notice.currency,
      openedAt: new Date(notice.eventDate),
      dueBy,
      eventCode: notice.eventCode,
      eventDate: new Date(notice.eventDate),
    },
    update: {},
  });
  // A later word moves it on: a status further along, or the same with a newer due date.
  const key = { merchantAccount_disputePspReference: { merchantAccount: notice.merchantAccount, disputePspReference: notice.disputePspReference } };
  const row = await db.adyenDisputeNotice.findUniqueOrThrow({ where: key });
  const further = disputeStatusRank(notice.status) > disputeStatusRank(row.status);
  const newer = new Date(notice.eventDate) > row.eventDate;
  if (further || (newer && disputeStatusRank(notice.status) === disputeStatusRank(row.status)))
    await db.adyenDisputeNotice.update({
      where: key,
      data: {
        status: notice.status,
        eventCode: notice.eventCode,
        eventDate: new Date(notice.eventDate),
        ...(notice.dueBy ? { dueBy } : {}),
        updatedAt: new Date(),
      },
    });
}
