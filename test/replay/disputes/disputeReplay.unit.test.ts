import fs from 'node:fs';
import path from 'node:path';
import { historyFromFile } from '../historyFile';
import { replayAll } from '../replayAll';
import { DISPUTE_REPLAY_PATHS } from './paths';

/**
 * Replays the committed histories of every dispute path (and a payment told of a dispute) against
 * the current workflow code: a change that would break a dispute already running (its due-date
 * timer may run for days) fails here, before it reaches a worker.
 */
const DIR = path.join(__dirname, 'histories');

describe('dispute workflow replay', () => {
  it('has a committed history for every dispute path', () => {
    const files = fs.readdirSync(DIR).filter((f) => f.endsWith('.json'));
    expect(files.map((f) => f.replace(/\.json$/, '')).sort()).toEqual([...DISPUTE_REPLAY_PATHS].sort());
  });

  it('replays every committed history without a determinism error', async () => {
    const histories = DISPUTE_REPLAY_PATHS.map((name) => ({
      workflowId: name,
      history: historyFromFile(fs.readFileSync(path.join(DIR, `${name}.json`), 'utf8')),
    }));
    const { replayed, failures } = await replayAll('dispute-replay', histories);
    expect(failures).toEqual([]);
    expect(replayed).toBe(DISPUTE_REPLAY_PATHS.length);
  }, 120_000);
});
