import type { Db } from '../db/client';
import { notFound } from '../domain/errors';
import { type AcquirerKind, openCredentials } from './credentials';

/**
 * The account a notification path names (docs/acquirers.md, "Notifications per account"): any business's, since the
 * acquirer, not a user, calls; ACTIVE, INACTIVE or removed alike (an inactive account's open
 * payments must still finish, a removed one's refunds still be decided); an unknown one is not
 * found. Only the secret that verifies it is opened.
 */
export interface NotifiedAccount {
  id: string;
  acquirer: AcquirerKind;
  /** stripe: the signing secret of the account's webhook endpoint. */
  webhookSecret?: string;
  /** adyen: the HMAC key (hex) of the account's standard notifications. */
  hmacKey?: string;
  /** adyen: the account's MID, which every item it receives must name (docs/security.md). */
  merchantAccountId?: string;
}

export async function accountForNotification(db: Pick<Db, 'acquirerAccount'>, id: string): Promise<NotifiedAccount> {
  const account = await db.acquirerAccount.findFirst({ where: { id }, select: { id: true, acquirer: true, credentials: true, merchantAccountId: true } });
  if (!account) throw notFound('acquirer account');
  const acquirer = account.acquirer as AcquirerKind;
  if (acquirer === 'stripe') return { id: account.id, acquirer, webhookSecret: openCredentials(account.credentials).webhookSecret };
  if (acquirer === 'adyen')
    return { id: account.id, acquirer, hmacKey: openCredentials(account.credentials).hmacKey, merchantAccountId: account.merchantAccountId };
  return { id: account.id, acquirer };
}
