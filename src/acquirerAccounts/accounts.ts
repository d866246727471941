import { auditFor, type AuditSource } from '../audit/audit';
import { randomBase62 } from '../auth/apiKeys';
import type { Db } from '../db/client';
import { conflict, invalid, notFound } from '../domain/errors';
import type { AcquirerAccount } from '../generated/prisma/client';
import { OPEN_STATUSES } from '../../core/payment/statuses';
import { type AcquirerKind, type AccountMode, checkCredentials, hintsOf, sealCredentials } from './credentials';
import type { AccountRecord, CreateAccountBody, UpdateAccountBody } from './schemas';
import { routesNaming } from './routes';

/**
 * A business's acquirer accounts (docs/acquirers.md, "Accounts"): created, read, changed and removed by ADMIN, every
 * change audited without secret values. Another business's account is not found.
 */
export interface AccountDeps {
  db: Db;
  /** NODE_ENV=production: a live sandbox account is refused. */
  production: boolean;
}

export const newAccountId = (): string => `acct_${randomBase62(20)}`;
export const notificationPathOf = (id: string): string => `/internal/acquirer/${id}/notifications`;

/**
 * 409 when another account of the business (removed ones aside) has the name, whatever the case:
 * two accounts read alike in payouts, balances and routes (docs/security.md, issue 37). Creations
 * and renames of one business wait for each other (the business's row is locked), so two at once
 * cannot both take a name.
 */
async function checkNameFree(tx: Pick<Db, 'acquirerAccount' | '$executeRaw'>, merchantId: string, name: string, except?: string): Promise<void> {
  // NO KEY: the payments and stores whose foreign keys name the business do not wait for it.
  await tx.$executeRaw`SELECT 1 FROM "Merchant" WHERE "id" = ${merchantId} FOR NO KEY UPDATE`;
  const taken = await tx.acquirerAccount.findFirst({
    where: { merchantId, deletedAt: null, name: { equals: name, mode: 'insensitive' }, ...(except ? { id: { not: except } } : {}) },
    select: { id: true, name: true },
  });
  if (taken) throw conflict(`name: acquirer account ${taken.id} of this business is already called '${taken.name}' (names are unique whatever the case)`);
}

export function toAccountRecord(a: AcquirerAccount): AccountRecord {
  return {
    id: a.id,
    name: a.name,
    acquirer: a.acquirer as AcquirerKind,
    mode: a.mode as AccountMode,
    merchantAccountId: a.merchantAccountId,
    status: a.status as AccountRecord['status'],
    credentials: a.credentialHints as Record<string, string>,
    notificationPath: notificationPathOf(a.id),
    createdAt: a.createdAt.toISOString(),
    updatedAt: a.updatedAt.toISOString(),
  };
}

export async function createAccount(deps: AccountDeps, by: AuditSource, body: CreateAccountBody): Promise<AcquirerAccount> {
  if (body.acquirer === 'sandbox' && body.mode === 'live' && deps.production) {
    throw invalid('mode: a live sandbox account cannot take real money; the service runs in production');
  }
  const credentials = checkCredentials(body.acquirer, body.mode, body.credentials);
  return deps.db.$transaction(async (tx) => {
    await checkNameFree(tx, by.merchantId, body.name);
    const account = await tx.acquirerAccount.create({
      data: {
        id: newAccountId(),
        merchantId: by.merchantId,
        name: body.name,
        acquirer: body.acquirer,
        mode: body.mode,
        merchantAccountId: body.merchantAccountId,
        credentials: sealCredentials(credentials),
        credentialHints: hintsOf(credentials),
      },
    });
    await auditFor(tx, by, {
      action: 'ACQUIRER_ACCOUNT_CREATED',
      target: { type: 'ACQUIRER_ACCOUNT', id: account.id },
      details: {
        name: account.name,
        acquirer: account.acquirer,
        mode: account.mode,
        merchantAccountId: account.merchantAccountId,
        credentialFields: Object.keys(credentials),
      },
    });
    return account;
  });
}

export function listAccounts(db: Db, merchantId: string): Promise<AcquirerAccount[]> {
  return db.acquirerAccount.findMany({ where: { merchantId, deletedAt: null }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}

export async function ownAccount(db: Pick<Db, 'acquirerAccount'>, merchantId: string, id: string): Promise<AcquirerAccount> {
  const account = await db.acquirerAccount.findFirst({ where: { id, merchantId, deletedAt: null } });
  if (!account) throw notFound('acquirer account');
  return account;
}

/** Rename, rotate credentials (replaced at once), (de)activate. Deactivating an account a route names: 409. */
export async function updateAccount(deps: AccountDeps, by: AuditSource, id: string, body: UpdateAccountBody): Promise<AcquirerAccount> {
  return deps.db.$transaction(async (tx) => {
    // Locks the row: a concurrent route save that names it waits, and sees the new status.
    await tx.$executeRaw`SELECT 1 FROM "AcquirerAccount" WHERE "id" = ${id} AND "merchantId" = ${by.merchantId} FOR UPDATE`;
    const account = await ownAccount(tx, by.merchantId, id);
    if (body.name !== undefined && body.name !== account.name) await checkNameFree(tx, by.merchantId, body.name, id);
    const credentials =
      body.credentials === undefined ? undefined : checkCredentials(account.acquirer as AcquirerKind, account.mode as AccountMode, body.credentials);
    if (body.status === 'INACTIVE' && account.status !== 'INACTIVE') {
      const naming = await routesNaming(tx, by.merchantId, id);
      if (naming.length) throw conflict(`acquirer account ${id} is named by the ${naming.join(' and ')} routes; take it out of them before deactivating it`);
    }
    const updated = await tx.acquirerAccount.update({
      where: { id },
      data: {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.status !== undefined ? { status: body.status } : {}),
        ...(credentials ? { credentials: sealCredentials(credentials), credentialHints: hintsOf(credentials), revision: { increment: 1 } } : {}),
        updatedAt: new Date(),
      },
    });
    await auditFor(tx, by, {
      action: 'ACQUIRER_ACCOUNT_UPDATED',
      target: { type: 'ACQUIRER_ACCOUNT', id },
      details: {
        ...(body.name !== undefined && body.name !== account.name ? { name: { from: account.name, to: body.name } } : {}),
        ...(body.status !== undefined && body.status !== account.status ? { status: { from: account.status, to: body.status } } : {}),
        ...(credentials ? { credentialsRotated: Object.keys(credentials) } : {}),
      },
    });
    return updated;
  });
}

/** Removes an account no route names and no open payment uses (409 otherwise): hidden from then on, kept for the payments it took. */
export async function deleteAccount(deps: AccountDeps, by: AuditSource, id: string): Promise<void> {
  await deps.db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT 1 FROM "AcquirerAccount" WHERE "id" = ${id} AND "merchantId" = ${by.merchantId} FOR UPDATE`;
    const account = await ownAccount(tx, by.merchantId, id);
    const naming = await routesNaming(tx, by.merchantId, id);
    if (naming.length) throw conflict(`acquirer account ${id} is named by the ${naming.join(' and ')} routes; take it out of them first`);
    const open = await tx.payment.count({ where: { acquirerAccountId: id, status: { in: [...OPEN_STATUSES] } } });
    if (open) throw conflict(`acquirer account ${id} is used by ${open} open payment${open === 1 ? '' : 's'}; remove it once they are final`);
    // Kept for the payments it took: their refunds and settlement still go to it.
    await tx.acquirerAccount.update({ where: { id }, data: { deletedAt: new Date(), status: 'INACTIVE' } });
    await auditFor(tx, by, {
      action: 'ACQUIRER_ACCOUNT_DELETED',
      target: { type: 'ACQUIRER_ACCOUNT', id },
      details: { name: account.name, acquirer: account.acquirer, mode: account.mode, merchantAccountId: account.merchantAccountId },
    });
  });
}
