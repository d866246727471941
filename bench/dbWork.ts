/**
 * The database's own counters (pg_stat_database, summed over databases): transactions (each
 * statement outside a transaction is one), rows inserted, updated, fetched and returned. Read
 * before and after a window, divided by its lifecycles: a count that does not depend on load.
 * The bench's own reads (shop set-up, these queries) are outside the window.
 */
import { Client } from 'pg';

export type DbCounters = Record<'transactions' | 'rowsInserted' | 'rowsUpdated' | 'rowsFetched' | 'rowsReturned', number>;

export async function dbCounters(databaseUrl: string): Promise<DbCounters | null> {
  const client = new Client({ connectionString: databaseUrl });
  try {
    await client.connect();
    // the counters are flushed to the shared statistics at the end of each transaction of a backend, at most once a second
    const { rows } = await client.query(
      `SELECT sum(xact_commit + xact_rollback)::bigint AS t, sum(tup_inserted)::bigint AS i, sum(tup_updated)::bigint AS u,
              sum(tup_fetched)::bigint AS f, sum(tup_returned)::bigint AS r FROM pg_stat_database`,
    );
    const r = rows[0];
    return { transactions: Number(r.t), rowsInserted: Number(r.i), rowsUpdated: Number(r.u), rowsFetched: Number(r.f), rowsReturned: Number(r.r) };
  } catch {
    return null;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export function perLifecycle(before: DbCounters | null, after: DbCounters | null, lifecycles: number): DbCounters | null {
  if (!before || !after || lifecycles === 0) return null;
  const out = {} as DbCounters;
  for (const k of Object.keys(after) as (keyof DbCounters)[]) out[k] = Math.round(((after[k] - before[k]) / lifecycles) * 10) / 10;
  return out;
}
