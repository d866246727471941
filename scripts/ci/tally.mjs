#!/usr/bin/env node
/**
 * CI's verdict: `.ci/run` gives every step a results file in CI_RESULTS_DIR and calls
 * `node scripts/ci/tally.mjs record <step> <exit code>` after it, then `summary` at the end, which
 * prints the one closing line CI reads: `N passed, N failed, N skipped`.
 *
 * A step's results file may be jest's `--json` output (numPassedTests, ...) or our own
 * `{"passed":N,"failed":N,"skipped":N}` (chaos, fuzz, the browser run write that). A step that wrote
 * nothing counts as one test, passed when it exited 0. A step that exited non-zero with no failure
 * in its file (a type check before jest, a crash in teardown) adds one failure: the exit code wins.
 */
import fs from 'node:fs';
import path from 'node:path';

const dir = process.env.CI_RESULTS_DIR;
if (!dir) {
  console.error('CI_RESULTS_DIR is not set');
  process.exit(2);
}
const [cmd, step, code] = process.argv.slice(2);

function countsOf(file) {
  if (!fs.existsSync(file)) return null;
  try {
    const r = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (typeof r.numPassedTests === 'number') {
      return { passed: r.numPassedTests, failed: r.numFailedTests + (r.numRuntimeErrorTestSuites ?? 0), skipped: r.numPendingTests + (r.numTodoTests ?? 0) };
    }
    if (typeof r.passed === 'number') return { passed: r.passed, failed: r.failed ?? 0, skipped: r.skipped ?? 0 };
  } catch {
    /* an unreadable file counts as none */
  }
  return null;
}

if (cmd === 'record') {
  const exit = Number(code);
  const counts = countsOf(path.join(dir, `${step}.json`)) ?? { passed: 0, failed: 0, skipped: 0 };
  if (exit === 0 && counts.passed + counts.failed + counts.skipped === 0) counts.passed = 1;
  if (exit !== 0 && counts.failed === 0) counts.failed = 1;
  fs.writeFileSync(path.join(dir, `${step}.tally`), JSON.stringify(counts));
  console.log(`== ${step}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped (exit ${exit})`);
} else if (cmd === 'summary') {
  const total = { passed: 0, failed: 0, skipped: 0 };
  for (const f of fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.tally'))
    .sort()) {
    const c = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
    for (const k of Object.keys(total)) total[k] += c[k];
  }
  console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
  process.exit(total.failed === 0 ? 0 : 1);
} else {
  console.error('usage: tally.mjs record <step> <exit code> | summary');
  process.exit(2);
}
