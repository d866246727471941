import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startStack } from '../support/serviceStack';
import { LoopbackReceiver } from '../support/loopbackReceiver';

/**
 * The whole service as `npm start` runs it (embedded database, Temporal dev server, API with the
 * built dashboard, sandbox acquirer) on free ports and a throw-away DATA_DIR, a loopback webhook
 * receiver, and the seeded business (e2e/seed.ts). The tests read e2e state from E2E_STATE.
 * Returns the teardown.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const root = path.resolve(__dirname, '..');
  if (!fs.existsSync(path.join(root, 'dashboard', 'dist', 'index.html')))
    throw new Error('dashboard/dist missing: run npm install (or npm run dashboard:build)');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'isp-e2e-'));
  const receiver = await new LoopbackReceiver(() => 204).start();
  const stack = await startStack({ root, dataDir, env: { WEBHOOK_ALLOW_INSECURE: 'true', LOG_LEVEL: 'warn' }, readyTimeoutMs: 240_000 });
  try {
    const out = execFileSync(process.execPath, [require.resolve('tsx/cli'), path.join(__dirname, 'seed.ts'), stack.databaseUrl, stack.apiUrl, receiver.url], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const seed = JSON.parse(out.trim().split('\n').pop()!);
    const stateFile = path.join(dataDir, 'e2e-state.json');
    fs.writeFileSync(
      stateFile,
      JSON.stringify({ ...seed, apiUrl: stack.apiUrl, sandboxUrl: stack.sandboxUrl, receiverUrl: receiver.url, dataDir, databaseUrl: stack.databaseUrl }),
    );
    process.env.E2E_STATE = stateFile;
    process.env.E2E_BASE_URL = stack.apiUrl;
  } catch (err) {
    await stack.stop();
    await receiver.stop();
    throw err;
  }
  return async () => {
    await stack.stop();
    await receiver.stop();
    if (!process.env.E2E_KEEP_DATA) fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
