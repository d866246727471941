import type { Db } from '../db/client';
import { ACCOUNT_KEY_FIELDS, type Acquirers } from './acquirers';
import type { AcquirerPort } from './port';

/**
 * The acquirer a record names (a payment that it took, a payout that it paid): its acquirer
 * account's adapter, the account read each time so a rotated credential is used at once, else the
 * installation's acquirer by name. The one way from a record to its adapter.
 */
export async function acquirerOfRecord(
  db: Pick<Db, 'acquirerAccount'>,
  acquirers: Acquirers,
  record: { acquirerName: string | null; acquirerAccountId: string | null },
): Promise<AcquirerPort> {
  if (!record.acquirerAccountId) return acquirers.byName(record.acquirerName);
  const account = await db.acquirerAccount.findUniqueOrThrow({ where: { id: record.acquirerAccountId }, select: ACCOUNT_KEY_FIELDS });
  return acquirers.forAccount(account);
}
