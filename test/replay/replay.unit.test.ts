import fs from 'node:fs';
import path from 'node:path';
import { historyFromFile } from './historyFile';
import { REPLAY_PATHS } from './paths';
import { replayAll } from './replayAll';

/**
 * Replays the committed histories of every path of the transition table against the current
 * workflow code: a change that would break payments already running (a non-deterministic change)
 * fails here, in CI, before it reaches a worker.
 */
const DIR = path.join(__dirname, 'histories');

describe('payment workflow replay', () => {
  it('has a committed history for every path of the transition table', () => {
    const files = fs.readdirSync(DIR).filter((f) => f.endsWith('.json'));
    expect(files.map((f) => f.replace(/\.json$/, '')).sort()).toEqual([...REPLAY_PATHS].sort());
  });

  it('replays every committed history without a determinism error', async () => {
    const histories = REPLAY_PATHS.map((name) => ({
      workflowId: name,
      history: historyFromFile(fs.readFileSync(path.join(DIR, `${name}.json`), 'utf8')),
    }));
    const { replayed, failures } = await replayAll('payment-replay', histories);
    expect(failures).toEqual([]);
    expect(replayed).toBe(REPLAY_PATHS.length);
  }, 120_000);
});
