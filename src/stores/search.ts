import type { Db } from '../db/client';
import type { Paging } from '../domain/paging';
import { Prisma, type Store, type Terminal } from '../generated/prisma/client';
import { normalizeCountry } from './places';
import { PAGE_SIZE_DEFAULT } from '../domain/listQuery';
import { type ListQuery, type StoreSearchQuery } from './schemas';

/**
 * Store search and the ordered lists. Ordering is done by the database with the "C" collation
 * and ASCII case folding, so the embedded database and any PostgreSQL server (whatever its
 * locale) return the same order: case-insensitive A-Z, other characters by code point.
 */

export type StoreSort = 'name' | '-name' | 'createdAt' | '-createdAt';

export interface StoreFilter {
  q?: string;
  status?: string;
  /** Upper-case alpha-2. */
  country?: string;
  hasTerminals?: boolean;
}

const byName = (column: string, direction: 'ASC' | 'DESC') =>
  Prisma.raw(`lower(${column} COLLATE "C") COLLATE "C" ${direction}, ${column} COLLATE "C" ${direction}`);

const STORE_ORDER: Record<StoreSort, Prisma.Sql> = {
  name: Prisma.sql`${byName('s."name"', 'ASC')}, s."externalId" ASC`,
  '-name': Prisma.sql`${byName('s."name"', 'DESC')}, s."externalId" DESC`,
  createdAt: Prisma.sql`s."createdAt" ASC, s."externalId" ASC`,
  '-createdAt': Prisma.sql`s."createdAt" DESC, s."externalId" DESC`,
};

/** `q` as a LIKE pattern matching it anywhere, with LIKE's own wildcards taken literally. */
const containsPattern = (q: string): string => `%${q.replace(/[\\%_]/g, '\\$&')}%`;

/** `mode` undefined: both modes (a signed-in dashboard user sees live and test stores alike). */
function storeWhere(merchantId: string, mode: string | undefined, f: StoreFilter): Prisma.Sql {
  const conditions: Prisma.Sql[] = [Prisma.sql`s."merchantId" = ${merchantId}`];
  if (mode !== undefined) conditions.push(Prisma.sql`s."mode" = ${mode}`);
  if (f.q !== undefined && f.q.trim() !== '') {
    const p = containsPattern(f.q.trim());
    conditions.push(Prisma.sql`(s."name" ILIKE ${p} OR s."city" ILIKE ${p} OR s."externalId" ILIKE ${p} OR s."postalCode" ILIKE ${p})`);
  }
  if (f.status) conditions.push(Prisma.sql`s."status" = ${f.status}`);
  if (f.country) conditions.push(Prisma.sql`s."country" = ${f.country}`);
  if (f.hasTerminals !== undefined) {
    const exists = Prisma.sql`EXISTS (SELECT 1 FROM "Terminal" t WHERE t."storeId" = s."id")`;
    conditions.push(f.hasTerminals ? exists : Prisma.sql`NOT ${exists}`);
  }
  return Prisma.join(conditions, ' AND ');
}

/** A validated search query (StoreSearchQuery) as filter, order and page: the same for every caller. */
export function searchOfQuery(query: StoreSearchQuery): { filter: StoreFilter; sort: StoreSort; paging: Paging } {
  return {
    filter: {
      q: query.q,
      status: query.status,
      country: query.country === undefined ? undefined : normalizeCountry(query.country),
      hasTerminals: query.hasTerminals === undefined ? undefined : query.hasTerminals === 'true',
    },
    sort: query.sort ?? 'name',
    paging: pagingOfQuery(query),
  };
}

/** A validated page and size (defaults applied): every list of stores or terminals is one page. */
export function pagingOfQuery(query: ListQuery): Paging {
  return { page: query.page === undefined ? 0 : Number(query.page), size: query.size === undefined ? PAGE_SIZE_DEFAULT : Number(query.size) };
}

/** Loads rows by id and returns them in the order of `ids`. */
function inOrder<T extends { id: string }>(ids: string[], rows: T[]): T[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is T => r !== undefined);
}

const limitOf = (paging: Paging): Prisma.Sql => Prisma.sql`LIMIT ${paging.size} OFFSET ${paging.page * paging.size}`;

/** One page of stores and the count of all that match: no caller reads an unbounded list. */
export async function searchStores(
  db: Db,
  merchantId: string,
  mode: string | undefined,
  filter: StoreFilter,
  sort: StoreSort,
  paging: Paging,
): Promise<{ stores: Store[]; total: number }> {
  const where = storeWhere(merchantId, mode, filter);
  const idRows = await db.$queryRaw<{ id: string }[]>`SELECT s."id" FROM "Store" s WHERE ${where} ORDER BY ${STORE_ORDER[sort]} ${limitOf(paging)}`;
  const ids = idRows.map((r) => r.id);
  const [row] = await db.$queryRaw<{ count: bigint | number }[]>`SELECT count(*) AS "count" FROM "Store" s WHERE ${where}`;
  const rows = ids.length ? await db.store.findMany({ where: { id: { in: ids } } }) : [];
  return { stores: inOrder(ids, rows), total: Number(row?.count ?? 0) };
}

/** One page of a store's terminals ordered by label, in the same collation as store names, and their count. */
export async function listTerminals(db: Db, storeId: string, paging: Paging): Promise<{ terminals: Terminal[]; total: number }> {
  const idRows = await db.$queryRaw<{ id: string }[]>`
    SELECT t."id" FROM "Terminal" t WHERE t."storeId" = ${storeId}
    ORDER BY ${byName('t."label"', 'ASC')}, t."externalId" ASC ${limitOf(paging)}`;
  const ids = idRows.map((r) => r.id);
  const total = await db.terminal.count({ where: { storeId } });
  const rows = ids.length ? await db.terminal.findMany({ where: { id: { in: ids } } }) : [];
  return { terminals: inOrder(ids, rows), total };
}
