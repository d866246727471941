import path from 'node:path';
import { itHasHistoryForEvery, itReplaysEvery } from '../replayAll';
import { COMPLIANCE_REPLAY_PATHS } from './paths';

/**
 * Replays the committed histories of a dispute and a refund that evaluated the compliance alerts
 * against the current workflow code; the histories recorded before those steps replay beside
 * their own paths (disputes/, histories/, postSale/), taking the old path.
 */
const DIR = path.join(__dirname, 'histories');

describe('compliance steps replay', () => {
  itHasHistoryForEvery('has a committed history for each, with the patch marker and the activity', DIR, COMPLIANCE_REPLAY_PATHS, (text) => {
    expect(text).toContain('evaluateComplianceOfPayment');
    expect(text).toContain('EVENT_TYPE_MARKER_RECORDED'); // the patch markers (their ids are base64 payloads)
  });
  itReplaysEvery('compliance-replay', DIR, COMPLIANCE_REPLAY_PATHS);
});
