import path from 'node:path';
import { itHasHistoryForEvery, itReplaysEvery } from '../replayAll';
import { PAYOUT_REPLAY_PATHS } from './paths';

/** Replays the committed payout histories against the current workflow code: a change that would break a payout already running fails here. */
const DIR = path.join(__dirname, 'histories');

describe('payout workflow replay', () => {
  itHasHistoryForEvery('has a committed history for every payout path', DIR, PAYOUT_REPLAY_PATHS);
  itReplaysEvery('payout-replay', DIR, PAYOUT_REPLAY_PATHS);
});
