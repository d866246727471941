import fs from 'node:fs';
import type { ManagedChild } from '../../src/process/child';

/** Stops the lane's dev server and prints how long the lane took (docs/architecture.md, "Tests: lanes and where they live"). */
export default async function globalTeardown(): Promise<void> {
  const lane = (globalThis as any).__ISP_WORKFLOWS__ as { root?: string; server?: ManagedChild; startedAt: number } | undefined;
  if (!lane) return;
  // Only what this lane started: with `npm test` the stack lane's server is the stack lane's to stop.
  await lane.server?.stop();
  if (lane.root) fs.rmSync(lane.root, { recursive: true, force: true });
  console.log(`workflow lane: ${((Date.now() - lane.startedAt) / 1000).toFixed(1)} s from its set-up to its teardown`);
}
