/**
 * The whole service started the way a user starts it (`src/main.ts`, as `npm start`), for the
 * fuzz run and the benchmark: the embedded database and a Temporal dev server unless
 * DATABASE_URL / TEMPORAL_ADDRESS name outside ones, then worker, API and sandbox acquirer, on
 * free ports and a throw-away DATA_DIR. Its output goes to a log file; `stop()` sends SIGTERM and
 * waits (SIGKILL after a grace period). The chaos stack starts the parts one by one instead.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from '../src/process/freePort';
import { serviceNodeArgs, tsxNodeArgs } from '../src/process/tsx';

export interface RunningStack {
  apiUrl: string;
  /** GET /metrics of the service process (its own loopback port, from the ready line). */
  metricsUrl?: string;
  /** The Temporal Web UI, when the stack runs its own dev server (the ready line's temporal-ui). */
  temporalUiUrl?: string;
  sandboxUrl: string;
  databaseUrl: string;
  temporalAddress: string;
  logFile: string;
  /** The service process: it and its descendants are the stack. */
  pid?: number;
  stop(): Promise<void>;
}

export async function startStack(opts: {
  root: string;
  dataDir: string;
  env: Record<string, string>;
  readyTimeoutMs: number;
  /** Node options for the service process itself (the benchmark's --cpu-prof), which NODE_OPTIONS cannot carry. */
  nodeArgs?: string[];
  /** Run the TypeScript sources through tsx even when the build is current (the benchmark: its profiles name source files). */
  sources?: boolean;
}): Promise<RunningStack> {
  const [port, simPort, temporalPort, uiPort, dbPort, mailPort] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort(), freePort()]);
  const setting = (name: string): string | undefined => (opts.env[name] ?? process.env[name]) || undefined;
  const databaseUrl = setting('DATABASE_URL') ?? `postgresql://postgres:postgres@127.0.0.1:${dbPort}/postgres?sslmode=disable`;
  const temporalAddress = setting('TEMPORAL_ADDRESS') ?? `127.0.0.1:${temporalPort}`;
  const logFile = path.join(opts.dataDir, 'service.log');
  const log = fs.openSync(logFile, 'a');
  const args = [...(opts.nodeArgs ?? []), ...(opts.sources ? tsxNodeArgs : serviceNodeArgs)(path.join(opts.root, 'src/main.ts'))];
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: opts.root,
    env: {
      ...process.env,
      DATA_DIR: opts.dataDir,
      PORT: String(port),
      SIM_PORT: String(simPort),
      TEMPORAL_PORT: String(temporalPort),
      TEMPORAL_UI_PORT: String(uiPort),
      EMBEDDED_DB_PORT: String(dbPort),
      MAIL_PORT: String(mailPort),
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', log],
  });
  let exited = false;
  const exit = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      exited = true;
      resolve(code);
    }),
  );

  const stop = async (): Promise<void> => {
    if (!exited) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exit;
      clearTimeout(killer);
    }
    fs.closeSync(log);
  };

  const ready = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service not ready within ${opts.readyTimeoutMs} ms (see ${logFile})`)), opts.readyTimeoutMs);
    let buffered = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      fs.appendFileSync(logFile, chunk);
      buffered += chunk.toString();
      const line = buffered.split('\n').find((l) => l.startsWith('ready '));
      if (line) {
        clearTimeout(timer);
        resolve(line);
      }
      if (buffered.length > 1_000_000) buffered = buffered.slice(-10_000);
    });
    void exit.then((code) => {
      clearTimeout(timer);
      const tail = fs.readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n');
      reject(new Error(`service exited (code ${code}) before it was ready; the last lines of ${logFile}:\n${tail}`));
    });
  }).catch(async (err: Error) => {
    await stop();
    throw err;
  });

  // A stack without the API or the sandbox (the benchmark's layouts) names them elsewhere.
  const parts = (setting('SERVICES') ?? 'api,worker,sandbox').split(',').map((p) => p.trim());
  const api = /\bapi=(\S+)/.exec(ready)?.[1] ?? (parts.includes('api') ? undefined : '');
  const sandbox = /\bsandbox=(\S+)/.exec(ready)?.[1] ?? (parts.includes('sandbox') ? undefined : setting('SANDBOX_URL'));
  const metrics = /\bmetrics=(\S+)/.exec(ready)?.[1];
  const temporalUi = /\btemporal-ui=(\S+)/.exec(ready)?.[1];
  if (api === undefined || !sandbox) {
    await stop();
    throw new Error(`unexpected ready line: ${ready}`);
  }
  return { apiUrl: api, sandboxUrl: sandbox, metricsUrl: metrics, temporalUiUrl: temporalUi, databaseUrl, temporalAddress, logFile, pid: child.pid, stop };
}
