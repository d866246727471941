import fs from 'node:fs';
import path from 'node:path';
import { historyFromFile } from '../historyFile';
import { replayAll } from '../replayAll';
import { PAYOUT_REPLAY_PATHS } from './paths';

/** Replays the committed payout histories against the current workflow code: a change that would break a payout already running fails here. */
const DIR = path.join(__dirname, 'histories');

describe('payout workflow replay', () => {
  it('has a committed history for every payout path', () => {
    const files = fs.readdirSync(DIR).filter((f) => f.endsWith('.json'));
    expect(files.map((f) => f.replace(/\.json$/, '')).sort()).toEqual([...PAYOUT_REPLAY_PATHS].sort());
  });

  it('replays every committed history without a determinism error', async () => {
    const histories = PAYOUT_REPLAY_PATHS.map((name) => ({
      workflowId: name,
      history: historyFromFile(fs.readFileSync(path.join(DIR, `${name}.json`), 'utf8')),
    }));
    const { replayed, failures } = await replayAll('payout-replay', histories);
    expect(failures).toEqual([]);
    expect(replayed).toBe(PAYOUT_REPLAY_PATHS.length);
  }, 120_000);
});
