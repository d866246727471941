/**
 * One Temporal dev server and one database for the whole jest run (docs/architecture.md, "Known
 * sharp edges": several dev servers or runtimes per run cause 'Core is shut down' failures). With DATABASE_URL set, tests run against
 * that PostgreSQL; otherwise against the embedded database in a temporary folder.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedDatabase } from '../../src/db/embedded';
import { migrate } from '../../src/db/migrate';
import { freePort } from '../../src/process/freePort';
import { startTemporalDevServer } from '../../src/temporal/devServer';
import type { ManagedChild } from '../../src/process/child';

export default async function globalSetup(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'isp-test-'));
  const children: ManagedChild[] = [];
  (globalThis as any).__ISP_TEST__ = { root, children };

  const temporalPort = await freePort();
  const [temporal, databaseUrl] = await Promise.all([
    startTemporalDevServer({ host: '127.0.0.1', port: temporalPort, namespace: 'default' }),
    process.env.DATABASE_URL
      ? Promise.resolve(process.env.DATABASE_URL)
      : freePort().then(async (port) => {
          const db = await startEmbeddedDatabase({ dataDir: path.join(root, 'db'), host: '127.0.0.1', port });
          children.push(db.child);
          return db.url;
        }),
  ]);
  children.push(temporal);
  await migrate(databaseUrl);

  process.env.TEST_DATABASE_URL = databaseUrl;
  process.env.TEST_TEMPORAL_ADDRESS = `127.0.0.1:${temporalPort}`;
  process.env.TEST_ROOT = root;
  process.env.TEST_DATABASE_KIND = process.env.DATABASE_URL ? 'postgresql' : 'embedded';
}
