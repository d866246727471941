import type { Db } from '../db/client';

/**
 * What the dashboard shows people instead of ids (issue 31): the business's stores and terminals by
 * name, read once per page rather than once per row, and the filters' suggestions. Users' display
 * names come with the same read: who closed a batch or refunded reads as a person; and the
 * acquirer accounts' names (nothing else of them: no MID, no credential), so FINANCE reads its
 * payouts and balances by account name without the ADMIN-only accounts area. A removed account
 * is not named (src/acquirerAccounts/accounts.ts `deleteAccount`); a deactivated one still is.
 */
export async function nameDirectory(db: Db, merchantId: string) {
  const [stores, users, accounts] = await Promise.all([
    db.store.findMany({
      where: { merchantId },
      orderBy: [{ name: 'asc' }, { externalId: 'asc' }],
      select: {
        externalId: true,
        name: true,
        mode: true,
        status: true,
        terminals: { orderBy: [{ label: 'asc' }, { externalId: 'asc' }], select: { externalId: true, label: true, status: true } },
      },
    }),
    db.user.findMany({ where: { merchantId }, orderBy: { username: 'asc' }, select: { id: true, username: true, displayName: true } }),
    db.acquirerAccount.findMany({
      // A removed account is gone from every list (docs/security.md, issue 37): as in the accounts area.
      where: { merchantId, deletedAt: null },
      orderBy: [{ name: 'asc' }, { id: 'asc' }],
      select: { id: true, name: true, acquirer: true, mode: true },
    }),
  ]);
  return { stores, users, accounts };
}
