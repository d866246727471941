import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { PROJECT_ROOT } from '../paths';

/**
 * Applies pending hand-written migrations from prisma/migrations (Prisma's own layout) in name
 * order, each in its own transaction, recorded in "_migrations". An advisory lock lets several
 * processes start at once against one PostgreSQL.
 */
export const MIGRATIONS_DIR = path.join(PROJECT_ROOT, 'prisma/migrations');
const LOCK_KEY = 7_320_411;

export function listMigrations(dir = MIGRATIONS_DIR): { name: string; sql: string }[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(dir, d.name, 'migration.sql')))
    .map((d) => d.name)
    .sort()
    .map((name) => ({ name, sql: fs.readFileSync(path.join(dir, name, 'migration.sql'), 'utf8') }));
}

export async function migrate(databaseUrl: string): Promise<string[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  const applied: string[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
    await client.query('CREATE TABLE IF NOT EXISTS "_migrations" ("name" TEXT PRIMARY KEY, "appliedAt" TIMESTAMPTZ NOT NULL DEFAULT now())');
    const done = new Set((await client.query<{ name: string }>('SELECT "name" FROM "_migrations"')).rows.map((r) => r.name));
    for (const m of listMigrations()) {
      if (done.has(m.name)) continue;
      await client.query('BEGIN');
      try {
        await client.query(m.sql);
        await client.query('INSERT INTO "_migrations" ("name") VALUES ($1)', [m.name]);
        await client.query('COMMIT');
        applied.push(m.name);
      } catch (err) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${m.name} failed: ${(err as Error).message}`);
      }
    }
    await client.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]);
  } finally {
    await client.end();
  }
  return applied;
}
