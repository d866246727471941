import path from 'node:path';
import { REPLAY_PATHS } from './paths';
import { itHasHistoryForEvery, itReplaysEvery } from './replayAll';

/**
 * Replays the committed histories of every path of the transition table against the current
 * workflow code: a change that would break payments already running (a non-deterministic change)
 * fails here, in CI, before it reaches a worker.
 */
const DIR = path.join(__dirname, 'histories');

describe('payment workflow replay', () => {
  itHasHistoryForEvery('has a committed history for every path of the transition table', DIR, REPLAY_PATHS);
  itReplaysEvery('payment-replay', DIR, REPLAY_PATHS);
});
