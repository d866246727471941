/**
 * Three lanes (docs/architecture.md, "Tests: lanes and where they live"):
 * - `unit`: every `*.unit.test.ts`, which needs nothing running (no Temporal, no database); no global
 *   set-up, so `npm run test:unit` (2 workers) answers in about a minute.
 * - `workflows`: every `*.workflow.test.ts`, a workflow's decisions on one Temporal dev server with
 *   its activities stubbed (test/workflows/globalSetup.ts, test/workflows/env.ts); no database, no service.
 * - `stack`: every other `*.test.ts`, on one Temporal dev server and one database for the whole run
 *   (test/setup/globalSetup.ts), each file starting its own service stack; `npm run test:stack` runs two files at a time (two jest workers
 *   sharing the run's dev server and database: every file makes its own businesses, keys and ports).
 * `npm test` runs all three, one file at a time in a jest worker recycled past 1 GB (docs/architecture.md); `npx jest path/to/file.test.ts` runs one file in whichever lane it is.
 */
const transform = { '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }] };
const testTimeout = 60000;

module.exports = {
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      roots: ['<rootDir>/test'],
      testMatch: ['**/*.unit.test.ts'],
      transform,
      testTimeout,
    },
    {
      displayName: 'stack',
      testEnvironment: 'node',
      roots: ['<rootDir>/test'],
      testMatch: ['**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', '\\.unit\\.test\\.ts$', '\\.workflow\\.test\\.ts$'],
      transform,
      globalSetup: '<rootDir>/test/setup/globalSetup.ts',
      globalTeardown: '<rootDir>/test/setup/globalTeardown.ts',
      testTimeout,
    },
    {
      // In one run with the stack lane (`npm test`), the two share one dev server and one bundle.
      displayName: 'workflows',
      testEnvironment: 'node',
      roots: ['<rootDir>/test'],
      testMatch: ['**/*.workflow.test.ts'],
      transform,
      globalSetup: '<rootDir>/test/workflows/globalSetup.ts',
      globalTeardown: '<rootDir>/test/workflows/globalTeardown.ts',
      testTimeout,
    },
  ],
  testTimeout,
  maxWorkers: 1,
};
