/**
 * The workflow lane's one Temporal dev server (the project's own CLI, src/temporal/devServer.ts)
 * and one workflow bundle for the whole run (docs/architecture.md, "Tests: lanes and where they
 * live"): every file connects to it with TestWorkflowEnvironment.createFromExistingServer, and its
 * Worker loads the bundle instead of bundling the sources again.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/process/freePort';
import { startTemporalDevServer } from '../../src/temporal/devServer';
import { cachedWorkflowBundle } from '../../scripts/workflow-bundle';

export default async function globalSetup(): Promise<void> {
  const startedAt = Date.now();
  if (process.env.TEST_TEMPORAL_KIND === 'dev-server' && process.env.TEST_TEMPORAL_ADDRESS && process.env.TEST_WORKFLOW_BUNDLE) {
    // `npm test`: the stack lane set up first in this run (jest orders set-ups by its test order);
    // its dev server and bundle serve this lane too, one dev server per run ("Known sharp edges"),
    // as this lane's serve the stack lane when this set-up runs first (test/setup/globalSetup.ts).
    process.env.WORKFLOW_LANE_BUNDLE = process.env.TEST_WORKFLOW_BUNDLE;
    process.env.WORKFLOW_LANE_TEMPORAL_ADDRESS = process.env.TEST_TEMPORAL_ADDRESS;
    (globalThis as any).__ISP_WORKFLOWS__ = { startedAt };
    return;
  }
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'isp-workflows-'));
  const port = await freePort();
  const [server, bundle] = await Promise.all([startTemporalDevServer({ host: '127.0.0.1', port, namespace: 'default' }), cachedWorkflowBundle()]);
  (globalThis as any).__ISP_WORKFLOWS__ = { root, server, startedAt };
  // Names of their own: with `npx jest` both lanes set up in one process (the stack lane sets TEST_*).
  process.env.WORKFLOW_LANE_BUNDLE = bundle;
  process.env.WORKFLOW_LANE_TEMPORAL_ADDRESS = `127.0.0.1:${port}`;
}
