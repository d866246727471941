/**
 * The replay-history recorders (`npm run replay:record`, docs/payments.md "Replay test"): jest files
 * on the stack lane's set-up (the same transform, one Temporal dev server and one database), kept out
 * of `npm test`. They write the committed histories under test/replay/ that the unit lane replays.
 * Each recorder is skipped unless RECORD_REPLAY_HISTORIES=1 (the npm script sets it), so running this
 * config by accident overwrites nothing.
 */
const { projects } = require('../../jest.config.js');

const stack = projects.find((p) => p.displayName === 'stack');

module.exports = {
  ...stack,
  displayName: 'replay-record',
  rootDir: '../..',
  roots: ['<rootDir>/scripts/replay'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  maxWorkers: 1,
};
