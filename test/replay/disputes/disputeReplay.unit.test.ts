import path from 'node:path';
import { itHasHistoryForEvery, itReplaysEvery } from '../replayAll';
import { DISPUTE_REPLAY_PATHS } from './paths';

/**
 * Replays the committed histories of every dispute path (and a payment told of a dispute) against
 * the current workflow code: a change that would break a dispute already running (its due-date
 * timer may run for days) fails here, before it reaches a worker.
 */
const DIR = path.join(__dirname, 'histories');

describe('dispute workflow replay', () => {
  itHasHistoryForEvery('has a committed history for every dispute path', DIR, DISPUTE_REPLAY_PATHS);
  itReplaysEvery('dispute-replay', DIR, DISPUTE_REPLAY_PATHS);
});
