import fs from 'node:fs';
import path from 'node:path';
import { historyFromFile } from '../historyFile';
import { SETTLEMENT_REPLAY_PATHS } from './paths';
import { replayAll } from '../replayAll';

/**
 * Replays the committed histories of the settle path (the close, the daily close's cycle, the
 * payment workflow's settle update) against the current workflow code: a change that would break
 * a close or a payment already running fails here, before it reaches a worker.
 */
const DIR = path.join(__dirname, 'histories');

describe('settlement workflow replay', () => {
  it('has a committed history for every settle path', () => {
    const files = fs.readdirSync(DIR).filter((f) => f.endsWith('.json'));
    expect(files.map((f) => f.replace(/\.json$/, '')).sort()).toEqual([...SETTLEMENT_REPLAY_PATHS].sort());
  });

  it('replays every committed history without a determinism error', async () => {
    const histories = SETTLEMENT_REPLAY_PATHS.map((name) => ({
      workflowId: name,
      history: historyFromFile(fs.readFileSync(path.join(DIR, `${name}.json`), 'utf8')),
    }));
    const { replayed, failures } = await replayAll('settlement-replay', histories);
    expect(failures).toEqual([]);
    expect(replayed).toBe(SETTLEMENT_REPLAY_PATHS.length);
  }, 120_000);
});
