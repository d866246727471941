import path from 'node:path';
import { SETTLEMENT_REPLAY_PATHS } from './paths';
import { itHasHistoryForEvery, itReplaysEvery } from '../replayAll';

/**
 * Replays the committed histories of the settle path (the close, the daily close's cycle, the
 * payment workflow's settle update) against the current workflow code: a change that would break
 * a close or a payment already running fails here, before it reaches a worker.
 */
const DIR = path.join(__dirname, 'histories');

describe('settlement workflow replay', () => {
  itHasHistoryForEvery('has a committed history for every settle path', DIR, SETTLEMENT_REPLAY_PATHS);
  itReplaysEvery('settlement-replay', DIR, SETTLEMENT_REPLAY_PATHS);
});
