import path from 'node:path';
import { PATCHED_PATHS } from './patchedPaths';
import { itReplaysEvery } from './replayAll';

/** Replays the histories of versioned workflow changes (patchedPaths.ts) against the current workflow code. */
const DIR = path.join(__dirname, 'patched');

itReplaysEvery('patched-replay', DIR, PATCHED_PATHS, 120_000, 'replays every history of a versioned change without a determinism error');
