import type { Db } from '../db/client';
import { ACCOUNT_KEY_FIELDS, type Acquirers } from './acquirers';
import type { AcquirerPort } from './port';

/** The acquirer that took a payment row: its account's adapter (one read of the account), else the installation's by name. */
export async function acquirerForPayment(
  db: Pick<Db, 'acquirerAccount'>,
  acquirers: Acquirers,
  payment: { acquirerName: string | null; acquirerAccountId: string | null },
): Promise<AcquirerPort> {
  if (!payment.acquirerAccountId) return acquirers.byName(payment.acquirerName);
  const account = await db.acquirerAccount.findUniqueOrThrow({ where: { id: payment.acquirerAccountId }, select: ACCOUNT_KEY_FIELDS });
  return acquirers.forAccount(account);
}
