/**
 * One Temporal dev server and one database for the whole jest run (docs/architecture.md, "Known
 * sharp edges": several dev servers or runtimes per run cause 'Core is shut down' failures). With
 * DATABASE_URL set, tests run against that PostgreSQL; otherwise against the embedded database in
 * a temporary folder. With TEMPORAL_ADDRESS set, they run against that Temporal (CI: a real server
 * on PostgreSQL, scripts/with-temporal-server.sh) instead of a dev server of their own.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedDatabase } from '../../src/db/embedded';
import { migrate } from '../../src/db/migrate';
import { freePort } from '../../src/process/freePort';
import { startTemporalDevServer } from '../../src/temporal/devServer';
import { cachedWorkflowBundle } from '../../scripts/workflow-bundle';
import type { ManagedChild } from '../../src/process/child';

export default async function globalSetup(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'isp-test-'));
  const children: ManagedChild[] = [];
  (globalThis as any).__ISP_TEST__ = { root, children };

  const external = process.env.TEMPORAL_ADDRESS || undefined;
  // The workflow lane set up first in this run (`npm test`; jest orders set-ups by its test order):
  // its dev server (started with the same arguments) and bundle serve this lane too, one dev server per run.
  const lane = external ? undefined : laneServer();
  const devServerPort = external || lane ? 0 : await freePort();
  // The workflow code bundled once (per version of the sources: cachedWorkflowBundle): every stack and
  // child worker loads it (WORKFLOW_BUNDLE) instead of bundling the same sources again at each start.
  const [temporal, databaseUrl, bundle] = await Promise.all([
    external || lane ? Promise.resolve(undefined) : startTemporalDevServer({ host: '127.0.0.1', port: devServerPort, namespace: 'default' }),
    process.env.DATABASE_URL
      ? Promise.resolve(process.env.DATABASE_URL)
      : freePort().then(async (port) => {
          const db = await startEmbeddedDatabase({ dataDir: path.join(root, 'db'), host: '127.0.0.1', port });
          children.push(db.child);
          return db.url;
        }),
    lane ? Promise.resolve(lane.bundle) : cachedWorkflowBundle(),
  ]);
  if (temporal) children.push(temporal);
  await migrate(databaseUrl);

  process.env.TEST_WORKFLOW_BUNDLE = bundle;
  process.env.TEST_DATABASE_URL = databaseUrl;
  process.env.TEST_TEMPORAL_ADDRESS = external ?? lane?.address ?? `127.0.0.1:${devServerPort}`;
  // The run's own dev server has settings a real server keeps at production values (src/temporal/dynamicConfig.ts).
  process.env.TEST_TEMPORAL_KIND = external ? 'external' : 'dev-server';
  process.env.TEST_ROOT = root;
  process.env.TEST_DATABASE_KIND = process.env.DATABASE_URL ? 'postgresql' : 'embedded';
}

/** The workflow lane's dev server and bundle when its set-up ran first in this run (test/workflows/globalSetup.ts). */
function laneServer(): { address: string; bundle: string } | undefined {
  const address = process.env.WORKFLOW_LANE_TEMPORAL_ADDRESS;
  const bundle = process.env.WORKFLOW_LANE_BUNDLE;
  return address && bundle ? { address, bundle } : undefined;
}
