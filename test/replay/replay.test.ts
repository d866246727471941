import fs from 'node:fs';
import path from 'node:path';
import { Worker } from '@temporalio/worker';
import { historyFromFile } from './historyFile';
import { REPLAY_PATHS } from './paths';

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
    const failures: string[] = [];
    let replayed = 0;
    for await (const result of Worker.runReplayHistories({ workflowsPath: require.resolve('../../workflows'), replayName: 'payment-replay' }, histories)) {
      replayed += 1;
      if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
    }
    expect(failures).toEqual([]);
    expect(replayed).toBe(REPLAY_PATHS.length);
  }, 120_000);
});
