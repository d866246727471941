import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import path from 'node:path';

/**
 * stripe-mock, Stripe's own mock of its API (it answers every endpoint from Stripe's OpenAPI
 * description and refuses any request that description does not allow), started on a free
 * loopback port for one test file. Built on first use by scripts/install-stripe-mock.mjs.
 */
export interface StripeMock {
  url: string;
  stop(): Promise<void>;
}

export async function startStripeMock(): Promise<StripeMock> {
  const root = path.resolve(__dirname, '../..');
  const out = execFileSync(process.execPath, [path.join(root, 'scripts/install-stripe-mock.mjs')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const binary = /stripe-mock: (\S+)\s*$/.exec(out.trim())?.[1];
  if (!binary) throw new Error(`stripe-mock not installed: ${out}`);
  const child: ChildProcess = spawn(binary, ['-http-addr', '127.0.0.1:0', '-strict-version-check'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const m = /Listening for HTTP at address: (127\.0\.0\.1:\d+)/.exec(seen);
      if (m) resolve(`http://${m[1]}`);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`stripe-mock exited (${code}) before listening: ${seen}`)));
    child.once('error', reject);
  });
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
