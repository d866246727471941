/**
 * The embedded database as a process of its own: PGlite (PostgreSQL compiled to WebAssembly)
 * persisted in DATA_DIR, served on a loopback port with pglite-socket, so the API, the worker
 * and the operator CLI reach it through the same PostgreSQL driver as a real server.
 * Prints `listening <url>` on stdout once it accepts connections.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { servePglite } from './pgliteServer';

async function main(): Promise<void> {
  const dataDir = path.resolve(process.env.DATA_DIR ?? './data');
  const host = process.env.HOST ?? '127.0.0.1';
  const port = Number(process.env.EMBEDDED_DB_PORT ?? 5433);
  const dbDir = path.join(dataDir, 'pglite');
  fs.mkdirSync(dbDir, { recursive: true });

  const db = await PGlite.create(dbDir);
  // Several clients share PGlite's one session, one request cycle or transaction at a time.
  const server = await servePglite(db, host, port);
  process.stdout.write(`listening postgresql://postgres:postgres@${host}:${port}/postgres?sslmode=disable\n`);

  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    await server.close().catch(() => undefined);
    await db.close().catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  // The parent's death closes our stdin: never outlive it as an orphan.
  process.stdin.on('end', () => void stop());
  process.stdin.resume();
}

main().catch((err) => {
  process.stderr.write(`embedded database failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
