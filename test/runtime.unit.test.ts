/**
 * The runtime (README "Node.js versions"): Node 22 or newer, 24 LTS in CI (.ci/run puts the
 * Node of scripts/ci/node24.sh first on PATH), and every native dependency loads and works on it.
 */
import { transformSync } from '@swc/core';
import { hash, verify } from '@node-rs/argon2';
import { execFileSync } from 'node:child_process';

const major = Number(process.versions.node.split('.')[0]);

// Locally the suite may run on the machine's own Node (README "Node.js versions" says which are
// supported); CI (CI=true) must be on the Node of scripts/ci/node24.sh.
it('runs on Node.js 24 LTS in CI', () => {
  if (process.env.CI) expect(process.versions.node).toMatch(/^24\./);
  else expect(major).toBeGreaterThanOrEqual(20);
});

it('loads the native dependencies on this Node', async () => {
  const stored = await hash('correct-horse-42');
  await expect(verify(stored, 'correct-horse-42')).resolves.toBe(true);
  expect(transformSync('const a: number = 1;', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } } }).code).toContain('const a = 1');
  // The Temporal SDK's Rust core: loading it is what fails on an unsupported Node ABI.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const bridge = require('@temporalio/core-bridge') as { native: Record<string, unknown> };
  expect(typeof bridge.native.newRuntime).toBe('function');
  // PGlite (WebAssembly) loads with a dynamic import that jest's sandbox refuses, so it runs in a
  // Node of its own, as the embedded database does (src/db/embeddedServer.ts).
  const script =
    "import('@electric-sql/pglite').then(async ({ PGlite }) => { const db = await PGlite.create(); console.log(JSON.stringify((await db.query('SELECT 1 + 1 AS n')).rows)); await db.close(); })";
  const out = execFileSync(process.execPath, ['-e', script], { cwd: __dirname, encoding: 'utf8', timeout: 60_000 });
  expect(JSON.parse(out)).toEqual([{ n: 2 }]);
});
