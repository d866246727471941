import { spawn } from 'node:child_process';
import path from 'node:path';
import { serviceNodeArgs } from '../../src/process/tsx';
import { TEST_SECRETS_KEY } from '../support/stack';

/** The operator CLI as a user runs it: a child process on the run's database and Temporal. */
export const REPO = path.resolve(__dirname, '../..');

export interface AdminRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (undefined when it is not JSON). */
  json: any;
}

export function testEnv(): Record<string, string> {
  // The installation's SECRETS_KEY, as an operator's CLI has it: its workflow messages carry the service's grant (docs/security.md).
  return { DATABASE_URL: process.env.TEST_DATABASE_URL!, TEMPORAL_ADDRESS: process.env.TEST_TEMPORAL_ADDRESS!, SECRETS_KEY: TEST_SECRETS_KEY };
}

/**
 * Runs `admin <args>` with the environment of this process plus `env`; a variable set to
 * undefined in `env` is removed (to run without DATABASE_URL, say).
 */
export function runAdmin(args: string[], opts: { env?: Record<string, string | undefined>; stdin?: string } = {}): Promise<AdminRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...testEnv() };
  for (const [k, v] of Object.entries(opts.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...serviceNodeArgs(path.join(REPO, 'src/cli/admin.ts')), ...args], {
      cwd: REPO,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      resolve({ code, stdout, stderr, json });
    });
    child.stdin.end(opts.stdin ?? '');
  });
}

/** A refused command: the exit code, nothing on stdout, one JSON error line on stderr; returns the message. */
export function expectRefused(run: AdminRun, code: number): string {
  expect({ code: run.code, stdout: run.stdout }).toEqual({ code, stdout: '' });
  const lines = run.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  const parsed = JSON.parse(lines[0]!);
  expect(parsed).toEqual({ error: expect.any(String) });
  return parsed.error as string;
}
