import { Prisma } from '../generated/prisma/client';
import type { AcquirerDispute } from '../acquirer/port';
import type { AdyenDisputeNotice } from '../acquirer/adyen/disputes';
import type { Db } from '../db/client';
import { disputeStatusRank } from '../../core/dispute/statuses';

/**
 * Adyen's disputes as its verified notifications told them (table AdyenDisputeNotice), per acquirer
 * account: Adyen's Disputes API reads nothing back, so this is what the Adyen adapter's getDispute
 * answers. A notice is the account's whose notification path received it, never the MID the item
 * names (docs/security.md, "Adyen's dispute notifications"). A notice never moves a dispute back
 * (an older or out-of-order notification changes nothing), a replayed item changes nothing at all,
 * and the adapter marks what its own accepted calls did (defended: under review; accepted).
 */
export interface AdyenDisputeBook {
  read(disputePspReference: string): Promise<AcquirerDispute | null>;
  /** After Adyen took a defense or an acceptance: the dispute's state until its next notification. */
  mark(disputePspReference: string, status: 'UNDER_REVIEW' | 'ACCEPTED'): Promise<void>;
}

const keyOf = (acquirerAccountId: string, disputePspReference: string) => ({
  acquirerAccountId_disputePspReference: { acquirerAccountId, disputePspReference },
});

/** The book of one acquirer account: it reads and marks only that account's notices. */
export function adyenDisputeBook(db: Db, acquirerAccountId: string): AdyenDisputeBook {
  return {
    async read(disputePspReference) {
      const row = await db.adyenDisputeNotice.findUnique({ where: keyOf(acquirerAccountId, disputePspReference) });
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
    async mark(disputePspReference, status) {
      const key = keyOf(acquirerAccountId, disputePspReference);
      const row = await db.adyenDisputeNotice.findUnique({ where: key, select: { status: true } });
      if (row && disputeStatusRank(row.status) < disputeStatusRank(status))
        await db.adyenDisputeNotice.update({ where: key, data: { status, updatedAt: new Date() } });
    },
  };
}

/**
 * Keeps a verified notice of the account's payment whose bill is `acquirerRef`, once per item: an
 * item whose signed fields were seen before on the account (its digest) is a replay and changes
 * nothing, whatever its unsigned fields say. The first notice opens the record (received: the
 * dispute's opening; its due date the default defense period on); a later new one moves it on,
 * never back, at the same rank in the order new items arrived. The item's digest and the notice
 * change commit together. True when the item was new.
 */
export async function recordAdyenDisputeNotice(db: Db, notice: AdyenDisputeNotice, acquirerRef: string, acquirerAccountId: string): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const taken = await tx.adyenDisputeItem.createMany({
      data: [{ acquirerAccountId, digest: notice.digest, disputePspReference: notice.disputePspReference, eventCode: notice.eventCode }],
      skipDuplicates: true,
    });
    if (taken.count === 0) return false; // a replay
    const key = keyOf(acquirerAccountId, notice.disputePspReference);
    const row = await tx.adyenDisputeNotice.findUnique({ where: key });
    if (!row) {
      await tx.adyenDisputeNotice.create({
        data: {
          acquirerAccountId,
          merchantAccount: notice.merchantAccount,
          disputePspReference: notice.disputePspReference,
          paymentPspReference: notice.paymentPspReference,
          acquirerRef,
          status: notice.status,
          reason: notice.reason,
          amount: new Prisma.Decimal(notice.amount),
          currency: notice.currency,
          openedAt: new Date(notice.eventDate),
          dueBy: new Date(notice.dueBy),
          eventCode: notice.eventCode,
          eventDate: new Date(notice.eventDate),
        },
      });
      return true;
    }
    // A new item moves it on: a status further along, or another at the same rank (arrival order).
    if (disputeStatusRank(notice.status) >= disputeStatusRank(row.status))
      await tx.adyenDisputeNotice.update({
        where: key,
        data: { status: notice.status, eventCode: notice.eventCode, eventDate: new Date(notice.eventDate), updatedAt: new Date() },
      });
    return true;
  });
}
