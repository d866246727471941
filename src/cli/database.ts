/**
 * The database of the operator CLI: the same one `npm start` uses, found the same way.
 *
 * - DATABASE_URL set: that PostgreSQL (pending migrations are applied first, as a start would).
 * - Otherwise the embedded database. While the service runs, it serves it on HOST:EMBEDDED_DB_PORT
 *   to several clients, so the CLI connects there. When nothing listens there, the CLI starts the
 *   embedded database itself on the same DATA_DIR and port, migrates it, does its work and stops
 *   it again. Anything else on that port (a refusal other than "nothing listens", a timeout) is
 *   an error: opening the same DATA_DIR twice could damage it.
 */
import { Client } from 'pg';
import type { Config } from '../config';
import { createDb, type Db } from '../db/client';
import { startEmbeddedDatabase } from '../db/embedded';
import { migrate } from '../db/migrate';
import { CliError } from './output';

const PROBE_TIMEOUT_MS = 3000;

/** How the CLI reached the database (reported by tests and useful when debugging). */
export type DatabaseSource = 'external' | 'running-embedded' | 'own-embedded';

export interface DatabaseSession {
  db: Db;
  source: DatabaseSource;
  close(): Promise<void>;
}

/** The URL the embedded database answers on (src/db/embeddedServer.ts prints the same). */
export function embeddedDatabaseUrl(host: string, port: number): string {
  return `postgresql://postgres:postgres@${host}:${port}/postgres?sslmode=disable`;
}

function isConnectionRefused(err: unknown): boolean {
  const e = err as { code?: string; errors?: unknown[] };
  if (e?.code === 'ECONNREFUSED') return true;
  return Array.isArray(e?.errors) && e.errors.length > 0 && e.errors.every(isConnectionRefused);
}

/** 'up' when a database answers at url, 'absent' when nothing listens; throws on anything else. */
async function probe(url: string, where: string): Promise<'up' | 'absent'> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: PROBE_TIMEOUT_MS, query_timeout: PROBE_TIMEOUT_MS });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return 'up';
  } catch (err) {
    if (isConnectionRefused(err)) return 'absent';
    throw new CliError(`the embedded database at ${where} did not answer: ${(err as Error).message}`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function openDatabase(config: Config): Promise<DatabaseSession> {
  if (config.DATABASE_URL) {
    try {
      await migrate(config.DATABASE_URL);
    } catch (err) {
      // Never echo the URL: it carries the password.
      throw new CliError(`cannot use the database named by DATABASE_URL: ${(err as Error).message}`);
    }
    const db = createDb(config.DATABASE_URL, { poolSize: 2 });
    return { db, source: 'external', close: () => db.$disconnect() };
  }
  const where = `${config.HOST}:${config.EMBEDDED_DB_PORT}`;
  const url = embeddedDatabaseUrl(config.HOST, config.EMBEDDED_DB_PORT);
  if ((await probe(url, where)) === 'up') {
    // The running service applied its migrations when it started.
    const db = createDb(url, { poolSize: 1 });
    return { db, source: 'running-embedded', close: () => db.$disconnect() };
  }
  const embedded = await startEmbeddedDatabase({ dataDir: config.dataDir, host: config.HOST, port: config.EMBEDDED_DB_PORT });
  try {
    await migrate(embedded.url);
  } catch (err) {
    await embedded.child.stop();
    throw err;
  }
  const db = createDb(embedded.url, { poolSize: 1 });
  return {
    db,
    source: 'own-embedded',
    close: async () => {
      await db.$disconnect().catch(() => undefined);
      await embedded.child.stop();
    },
  };
}

/** Runs fn with the database and always lets go of it (and of an embedded database the CLI started). */
export async function withDatabase<T>(config: Config, fn: (db: Db, source: DatabaseSource) => Promise<T>): Promise<T> {
  const session = await openDatabase(config);
  try {
    return await fn(session.db, session.source);
  } finally {
    await session.close();
  }
}
