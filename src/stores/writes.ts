import type { KeyMode } from '../auth/apiKeys';
import { randomBase62 } from '../auth/apiKeys';
import type { Config } from '../config';
import { isUniqueViolation, type Db } from '../db/client';
import { conflict, notFound, type DomainError } from '../domain/errors';
import type { Store, Terminal } from '../generated/prisma/client';
import { deleteGuarded } from './deleteGuard';
import { findStore, findTerminal, isForeignKeyViolation, isRecordGone } from './lookup';
import { storeData, terminalData, type StoreInput, type TerminalInput } from './schemas';

/**
 * Writes of stores and terminals (docs/stores-and-terminals.md) inside one business (`merchantId`). A store and a terminal are
 * replaced and deleted the same way (replaceFound, deleteFound): find the row in its scope, write
 * it, and answer a row that went away meanwhile as not found. Rules: docs/stores-and-terminals.md.
 */
type Place = 'store' | 'terminal';

export interface PlaceDeps {
  db: Db;
  config: Pick<Config, 'DELETE_GUARD_HOURS'>;
}

export const newStoreExternalId = (): string => `store_${randomBase62(20)}`;
export const newTerminalExternalId = (): string => `term_${randomBase62(20)}`;

/** The serial number index (merchant, lower(serialNumber)) is the only unique rule a terminal write can break. */
const duplicateSerial = (): DomainError => conflict('serialNumber: another terminal of this business already has this serial number (compared without case)');

/** The write of a found row; gone meanwhile is not found, a unique clash is the place's own conflict. */
async function replaceFound<T>(what: Place, write: () => Promise<T>, onDuplicate?: () => DomainError): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (onDuplicate && isUniqueViolation(err)) throw onDuplicate();
    if (isRecordGone(err)) throw notFound(what);
    throw err;
  }
}

/** The guarded delete of a found row (recent payments refuse it unless forced: docs/stores-and-terminals.md, "Decisions"). */
async function deleteFound<T extends { id: string }>(deps: PlaceDeps, what: Place, row: T, force: boolean): Promise<T> {
  await deleteGuarded(deps.db, what, row.id, { force, hours: deps.config.DELETE_GUARD_HOURS });
  return row;
}

export function createStore(db: Db, merchantId: string, mode: KeyMode, input: StoreInput): Promise<Store> {
  return db.store.create({ data: { merchantId, mode, externalId: newStoreExternalId(), status: 'ACTIVE', ...storeData(input) } });
}

export async function replaceStore(db: Db, merchantId: string, mode: KeyMode, storeExternalId: string, input: StoreInput): Promise<Store> {
  const store = await findStore(db, merchantId, storeExternalId, mode);
  return replaceFound('store', () => db.store.update({ where: { id: store.id }, data: storeData(input) }));
}

/** Removes a store with its terminals and their device links; answers the removed store. */
export async function deleteStore(deps: PlaceDeps, merchantId: string, mode: KeyMode, storeExternalId: string, force: boolean): Promise<Store> {
  return deleteFound(deps, 'store', await findStore(deps.db, merchantId, storeExternalId, mode), force);
}

export async function createTerminal(db: Db, store: Store, input: TerminalInput): Promise<Terminal> {
  try {
    return await db.terminal.create({
      data: { merchantId: store.merchantId, storeId: store.id, externalId: newTerminalExternalId(), status: 'ACTIVE', ...terminalData(input) },
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicateSerial();
    if (isForeignKeyViolation(err)) throw notFound('store'); // deleted meanwhile
    throw err;
  }
}

/** Replaces the terminal's own fields; the device link is untouched. */
export async function replaceTerminal(db: Db, store: Store, terminalExternalId: string, input: TerminalInput): Promise<Terminal> {
  const terminal = await findTerminal(db, store, terminalExternalId);
  return replaceFound('terminal', () => db.terminal.update({ where: { id: terminal.id }, data: terminalData(input) }), duplicateSerial);
}

/** Removes a terminal and its device link; answers the removed terminal. */
export async function deleteTerminal(deps: PlaceDeps, store: Store, terminalExternalId: string, force: boolean): Promise<Terminal> {
  return deleteFound(deps, 'terminal', await findTerminal(deps.db, store, terminalExternalId), force);
}
