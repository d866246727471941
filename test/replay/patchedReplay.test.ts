import fs from 'node:fs';
import path from 'node:path';
import { Worker } from '@temporalio/worker';
import { historyFromFile } from './historyFile';
import { PATCHED_PATHS } from './patchedPaths';

/** Replays the histories of versioned workflow changes (patchedPaths.ts) against the current workflow code. */
const DIR = path.join(__dirname, 'patched');

it('replays every history of a versioned change without a determinism error', async () => {
  const histories = PATCHED_PATHS.map((name) => ({ workflowId: name, history: historyFromFile(fs.readFileSync(path.join(DIR, `${name}.json`), 'utf8')) }));
  const failures: string[] = [];
  let replayed = 0;
  for await (const result of Worker.runReplayHistories({ workflowsPath: require.resolve('../../workflows'), replayName: 'patched-replay' }, histories)) {
    replayed += 1;
    if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
  }
  expect(failures).toEqual([]);
  expect(replayed).toBe(PATCHED_PATHS.length);
}, 120_000);
