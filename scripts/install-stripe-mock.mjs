// stripe-mock (Stripe's own mock of its API, answering from Stripe's OpenAPI description) for the
// Stripe adapter's tests: built once with `go install` of its Go module, pinned, into .tools/
// (git-ignored). Reused while the built binary runs; STRIPE_MOCK_PATH points at another copy.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const STRIPE_MOCK_MODULE = 'github.com/stripe/stripe-mock@v0.203.0';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const STRIPE_MOCK_BINARY = path.join(root, '.tools', 'stripe-mock', 'stripe-mock');

function works(bin) {
  try {
    execFileSync(bin, ['-version'], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

export function installStripeMock() {
  if (process.env.STRIPE_MOCK_PATH) return process.env.STRIPE_MOCK_PATH;
  if (fs.existsSync(STRIPE_MOCK_BINARY) && works(STRIPE_MOCK_BINARY)) return STRIPE_MOCK_BINARY;
  fs.mkdirSync(path.dirname(STRIPE_MOCK_BINARY), { recursive: true });
  console.log(`stripe-mock: building ${STRIPE_MOCK_MODULE} (go install; a few minutes the first time)`);
  try {
    execFileSync('go', ['install', STRIPE_MOCK_MODULE], {
      stdio: 'inherit',
      env: { ...process.env, GOBIN: path.dirname(STRIPE_MOCK_BINARY), GOFLAGS: '-mod=mod' },
    });
  } catch (err) {
    throw new Error(`could not build stripe-mock (${err.message}): install Go, or build '${STRIPE_MOCK_MODULE}' by hand and set STRIPE_MOCK_PATH`);
  }
  if (!works(STRIPE_MOCK_BINARY)) throw new Error('the built stripe-mock does not run');
  return STRIPE_MOCK_BINARY;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    console.log(`stripe-mock: ${installStripeMock()}`);
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
