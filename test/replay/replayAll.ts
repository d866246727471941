import fs from 'node:fs';
import path from 'node:path';
import { Worker } from '@temporalio/worker';
import { cachedWorkflowBundle } from '../../scripts/workflow-bundle';
import { historyFromFile } from './historyFile';

/**
 * The replay harness every replay test uses (docs/architecture.md, "Tests: lanes and where they
 * live"; docs/payments.md, "Replay test"): read a folder's committed histories, check that each
 * path has one, replay them against the workflow code as it is now.
 */

/** Replays histories against the workflows as they are now: how many replayed, and each failure named by its workflow id. */
export async function replayAll(
  replayName: string,
  histories: Parameters<typeof Worker.runReplayHistories>[1],
): Promise<{ replayed: number; failures: string[] }> {
  const failures: string[] = [];
  let replayed = 0;
  // The workflows as they are now, bundled once for every replay test (not once per file).
  const codePath = await cachedWorkflowBundle();
  for await (const result of Worker.runReplayHistories({ workflowBundle: { codePath }, replayName }, histories)) {
    replayed += 1;
    if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
  }
  return { replayed, failures };
}

const fileOf = (dir: string, name: string) => path.join(dir, `${name}.json`);

/** The committed history `name` of the folder `dir`. */
export const readHistory = (dir: string, name: string) => historyFromFile(fs.readFileSync(fileOf(dir, name), 'utf8'));

/** A test that the folder holds a history for every path and no other; `check` looks into each one's text. */
export function itHasHistoryForEvery(title: string, dir: string, paths: readonly string[], check?: (text: string) => void): void {
  it(title, () => {
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(files.map((f) => f.replace(/\.json$/, '')).sort()).toEqual([...paths].sort());
    if (check) for (const name of paths) check(fs.readFileSync(fileOf(dir, name), 'utf8'));
  });
}

/** A test that replays every path's committed history without a determinism error. */
export function itReplaysEvery(
  replayName: string,
  dir: string,
  paths: readonly string[],
  timeoutMs = 120_000,
  title = 'replays every committed history without a determinism error',
): void {
  it(
    title,
    async () => {
      const { replayed, failures } = await replayAll(
        replayName,
        paths.map((name) => ({ workflowId: name, history: readHistory(dir, name) })),
      );
      expect(failures).toEqual([]);
      expect(replayed).toBe(paths.length);
    },
    timeoutMs,
  );
}
