import type { KeyMode } from '../auth/apiKeys';
import type { Principal } from '../auth/principal';
import type { Db } from '../db/client';
import type { Store, Terminal } from '../generated/prisma/client';
import { notFound } from '../domain/errors';

/**
 * Scoped reads: a path names a business, a store and a terminal; anything outside the caller's own
 * business is answered as if it did not exist (404), never 403.
 */
export function requireOwnMerchant(principal: Principal, merchantExternalId: string): void {
  if (principal.merchantExternalId !== merchantExternalId) throw notFound('merchant');
}

/**
 * A store of the caller's business in the caller's mode: a test key never sees or changes a live
 * store (nor its terminals), and the other way round; the other mode's store is simply not found.
 */
export async function findStore(db: Db, merchantId: string, storeExternalId: string, mode: KeyMode): Promise<Store> {
  const store = await db.store.findFirst({ where: { merchantId, externalId: storeExternalId, mode } });
  if (!store) throw notFound('store');
  return store;
}

/**
 * A store of the caller's business in whichever mode it was made: a signed-in dashboard user works
 * in both modes, and the store's own mode then scopes what follows, as a key of that mode would.
 */
export async function findStoreOfEitherMode(db: Db, merchantId: string, storeExternalId: string): Promise<Store & { mode: KeyMode }> {
  const store = await db.store.findFirst({ where: { merchantId, externalId: storeExternalId } });
  if (!store) throw notFound('store');
  return { ...store, mode: store.mode === 'test' ? 'test' : 'live' };
}

export async function findTerminal(db: Db, store: Store, terminalExternalId: string): Promise<Terminal> {
  const terminal = await db.terminal.findFirst({ where: { merchantId: store.merchantId, storeId: store.id, externalId: terminalExternalId } });
  if (!terminal) throw notFound('terminal');
  return terminal;
}

/** Prisma's "record to update or delete not found": the row went away between read and write. */
export function isRecordGone(err: unknown): boolean {
  return (err as { code?: string })?.code === 'P2025';
}

/** A foreign key violation: the parent row (a store) went away before the insert. */
export function isForeignKeyViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string }; meta?: { driverAdapterError?: { cause?: { originalCode?: string; kind?: string } } } };
  return (
    e?.code === 'P2003' ||
    e?.code === '23503' ||
    e?.cause?.code === '23503' ||
    e?.meta?.driverAdapterError?.cause?.kind === 'ForeignKeyConstraintViolation' ||
    e?.meta?.driverAdapterError?.cause?.originalCode === '23503'
  );
}
