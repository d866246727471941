/**
 * The "no write on a 4xx" probe: a loopback HTTP server of the fuzz runner (not part of the app)
 * that digests the business tables, so a schemathesis hook can snapshot them before each call and
 * the custom check can compare after a 4xx.
 *
 *   GET /snapshot                      -> { at, tables: { Payment: { rows, digest }, ... } }
 *   GET /recent?since=ISO&tables=A,B   -> { A: [rows written since], ... } (secrets left out)
 *
 * Only the rows of the fuzz run's own merchants are digested (a shared DATABASE_URL stays out of
 * it). Columns that legitimately change on reads are left out of the digest: ApiKey.lastUsedAt
 * and Session.lastSeenAt (each written at most once a minute by any authenticated request,
 * refused or not: a refused request is still the key or the session in use, and the session's
 * idle timeout counts from it).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';

interface TableSpec {
  name: string;
  /** Rows that belong to the run's merchants; $1 is the array of merchant ids. */
  scope: string;
  /** Columns left out of the digest. */
  volatile?: string[];
  /** Timestamp columns that tell which rows a write touched (for the failure report). */
  touched: string[];
  /** What orders the rows: "id" unless the table has none of that name. */
  key?: string;
}

// $1 is replaced by the literal array of merchant ids: every probe query is one simple-protocol
// message, which the embedded database's socket server runs whole (see runQuery).
const byMerchant = '"merchantId" = ANY($1)';
const deliveryScope = `("configId" IN (SELECT "id" FROM "WebhookConfig" WHERE ${byMerchant}) OR "eventId" IN (SELECT "id" FROM "WebhookEvent" WHERE ${byMerchant}))`;

export const TABLES: TableSpec[] = [
  { name: 'Merchant', scope: '"id" = ANY($1)', touched: ['createdAt', 'updatedAt'] },
  { name: 'User', scope: byMerchant, touched: ['createdAt', 'updatedAt', 'deletedAt'] },
  { name: 'Session', scope: `"userId" IN (SELECT "id" FROM "User" WHERE ${byMerchant})`, volatile: ['lastSeenAt'], touched: ['createdAt', 'revokedAt'] },
  { name: 'ApiKey', scope: byMerchant, volatile: ['lastUsedAt'], touched: ['createdAt', 'revokedAt'] },
  { name: 'Store', scope: byMerchant, touched: ['createdAt', 'updatedAt'] },
  { name: 'Terminal', scope: byMerchant, touched: ['createdAt', 'updatedAt', 'linkedAt'] },
  { name: 'Payment', scope: byMerchant, touched: ['createdAt', 'updatedAt'] },
  { name: 'PaymentHistory', scope: `"paymentId" IN (SELECT "id" FROM "Payment" WHERE ${byMerchant})`, touched: ['occurredAt'] },
  { name: 'WebhookConfig', scope: byMerchant, touched: ['createdAt', 'updatedAt', 'deletedAt'] },
  { name: 'WebhookEvent', scope: byMerchant, touched: ['createdAt'] },
  { name: 'WebhookDelivery', scope: deliveryScope, touched: ['createdAt', 'updatedAt'] },
  { name: 'WebhookAttempt', scope: `"deliveryId" IN (SELECT "id" FROM "WebhookDelivery" WHERE ${deliveryScope})`, touched: ['requestedAt'] },
  { name: 'AuditLog', scope: byMerchant, touched: ['createdAt'] },
  // Acquirer accounts (sealed credentials included: a rotation is a write) and routes, one row per mode.
  { name: 'AcquirerAccount', scope: byMerchant, touched: ['createdAt', 'updatedAt', 'deletedAt'] },
  { name: 'AcquirerRoutes', scope: byMerchant, touched: ['updatedAt'], key: '"merchantId" || \'/\' || "mode"' },
];

/** Never printed in a failure report. */
const SECRET_COLUMNS = new Set(['passwordHash', 'keyHash', 'tokenHash', 'secret', 'mfaSecret', 'credentials']);

const q = (ident: string): string => `"${ident.replace(/"/g, '""')}"`;

export interface Probe {
  url: string;
  close(): Promise<void>;
}

export async function startProbe(databaseUrl: string, merchantIds: string[]): Promise<Probe> {
  for (const id of merchantIds) if (!/^[0-9a-f-]{36}$/i.test(id)) throw new Error(`probe: unexpected merchant id ${id}`);
  const merchants = `ARRAY[${merchantIds.map((id) => `'${id}'`).join(',')}]::text[]`;
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  /**
   * A query without parameters (simple protocol, one message), retried a few times: the embedded
   * database multiplexes every client onto one session, and another client's statements can
   * upset ours in between.
   */
  const runQuery = async <R extends object>(sql: string): Promise<R[]> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return (await db.query<R>(sql.replace(/\$1/g, merchants))).rows;
      } catch (err) {
        if (attempt >= 5) throw err;
        await new Promise((r) => setTimeout(r, 100 * attempt));
      }
    }
  };
  const columns = new Map<string, string[]>();
  const rows = await runQuery<{ table_name: string; column_name: string }>(
    `SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name IN (${TABLES.map((t) => `'${t.name}'`).join(',')})
      ORDER BY table_name, ordinal_position`,
  );
  for (const r of rows) columns.set(r.table_name, [...(columns.get(r.table_name) ?? []), r.column_name]);
  for (const t of TABLES) if (!columns.get(t.name)?.length) throw new Error(`probe: table ${t.name} not found`);

  // One statement for every table: row count and an md5 over the rows in key order.
  const snapshotSql = TABLES.map((t) => {
    const cols = columns
      .get(t.name)!
      .filter((c) => !t.volatile?.includes(c))
      .map(q)
      .join(', ');
    return `SELECT '${t.name}' AS t, count(*)::int AS n, md5(coalesce(string_agg(r, E'\\n' ORDER BY k), '')) AS d
              FROM (SELECT (${t.key ?? '"id"'})::text AS k, ROW(${cols})::text AS r FROM ${q(t.name)} WHERE ${t.scope}) x`;
  }).join('\nUNION ALL\n');

  const snapshot = async (): Promise<object> => {
    // The clock first: a row written after it shows in /recent?since=at.
    const [at] = await runQuery<{ at: Date }>('SELECT clock_timestamp() AS at');
    const res = await runQuery<{ t: string; n: number; d: string }>(snapshotSql);
    const tables: Record<string, { rows: number; digest: string }> = {};
    for (const r of res) tables[r.t] = { rows: r.n, digest: r.d };
    return { at: at!.at.toISOString(), tables };
  };

  const recent = async (since: Date, names: string[]): Promise<object> => {
    const out: Record<string, unknown[]> = {};
    for (const t of TABLES.filter((x) => names.includes(x.name))) {
      const cols = columns
        .get(t.name)!
        .filter((c) => !SECRET_COLUMNS.has(c))
        .map(q)
        .join(', ');
      const when = t.touched.map((c) => `${q(c)} >= '${since.toISOString()}'::timestamptz`).join(' OR ');
      out[t.name] = await runQuery(`SELECT ${cols} FROM ${q(t.name)} WHERE ${t.scope} AND (${when}) ORDER BY ${t.key ?? '"id"'} DESC LIMIT 5`);
    }
    return out;
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://probe');
    const answer = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const work =
      url.pathname === '/snapshot'
        ? snapshot()
        : url.pathname === '/recent'
          ? recent(new Date(url.searchParams.get('since') ?? 0), (url.searchParams.get('tables') ?? '').split(','))
          : undefined;
    if (!work) return answer(404, { error: 'unknown probe path' });
    work.then(
      (body) => answer(200, body),
      (err: Error) => answer(500, { error: err.message }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.end().catch(() => undefined);
    },
  };
}
