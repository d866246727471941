import fs from 'node:fs';
import path from 'node:path';
import { historyFromFile } from './historyFile';
import { PATCHED_PATHS } from './patchedPaths';
import { replayAll } from './replayAll';

/** Replays the histories of versioned workflow changes (patchedPaths.ts) against the current workflow code. */
const DIR = path.join(__dirname, 'patched');

it('replays every history of a versioned change without a determinism error', async () => {
  const histories = PATCHED_PATHS.map((name) => ({ workflowId: name, history: historyFromFile(fs.readFileSync(path.join(DIR, `${name}.json`), 'utf8')) }));
  const { replayed, failures } = await replayAll('patched-replay', histories);
  expect(failures).toEqual([]);
  expect(replayed).toBe(PATCHED_PATHS.length);
}, 120_000);
