import fs from 'node:fs';
import path from 'node:path';
import { historyFromFile } from '../historyFile';
import { replayAll } from '../replayAll';
import { COMPLIANCE_REPLAY_PATHS } from './paths';

/**
 * Replays the committed histories of a dispute and a refund that evaluated the compliance alerts
 * against the current workflow code; the histories recorded before those steps replay beside
 * their own paths (disputes/, histories/, postSale/), taking the old path.
 */
const DIR = path.join(__dirname, 'histories');

describe('compliance steps replay', () => {
  it('has a committed history for each, with the patch marker and the activity', () => {
    const files = fs.readdirSync(DIR).filter((f) => f.endsWith('.json'));
    expect(files.map((f) => f.replace(/\.json$/, '')).sort()).toEqual([...COMPLIANCE_REPLAY_PATHS].sort());
    for (const name of COMPLIANCE_REPLAY_PATHS) {
      const text = fs.readFileSync(path.join(DIR, `${name}.json`), 'utf8');
      expect(text).toContain('evaluateComplianceOfPayment');
      expect(text).toContain('EVENT_TYPE_MARKER_RECORDED'); // the patch markers (their ids are base64 payloads)
    }
  });

  it('replays every committed history without a determinism error', async () => {
    const histories = COMPLIANCE_REPLAY_PATHS.map((name) => ({
      workflowId: name,
      history: historyFromFile(fs.readFileSync(path.join(DIR, `${name}.json`), 'utf8')),
    }));
    const { replayed, failures } = await replayAll('compliance-replay', histories);
    expect(failures).toEqual([]);
    expect(replayed).toBe(COMPLIANCE_REPLAY_PATHS.length);
  }, 120_000);
});
