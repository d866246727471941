/**
 * The bench's stack, in the layout asked for. The sandbox acquirer always runs in a process of its
 * own (SERVICES=sandbox): it stands in for the acquirer's hosts, so its CPU is not the service's.
 *
 * - `--temporal dev --layout combined` (default): one process with the API and the worker (as
 *   `npm start` without the sandbox), which starts the embedded database and the Temporal dev server;
 * - `--temporal dev --layout split`: the worker process (which starts the embedded database and the
 *   dev server) and an API process of its own;
 * - `--temporal server`: the Temporal server on PostgreSQL, one API process and two worker processes.
 *
 * Every process gets a role (api, worker, sandbox, ...) for the CPU figures (bench/processCpu.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { freePort } from '../src/process/freePort';
import { serviceNodeArgs, tsxNodeArgs } from '../src/process/tsx';
import { startStack, type RunningStack } from '../support/serviceStack';
import { REPO, ServiceProcess, withGuard } from '../support/serviceProcess';
import { freeServerPort, postgresTargetFromUrl, startTemporalServer, type RunningTemporalServer } from '../scripts/temporal-server/server';
import { postmasterOf } from './processCpu';

export type Layout = 'combined' | 'split';

export interface BenchStack extends RunningStack {
  /** What runs where, for the report. */
  shape: string;
  /** The role of each process the bench started (its descendants inherit it). */
  roles: Map<number, string>;
  /** Processes of the stack that the bench did not start (PostgreSQL under with-postgres.sh). */
  outsideRoots: number[];
}

export interface BenchStackOptions {
  temporal: 'dev' | 'server';
  layout: Layout;
  database: 'embedded' | 'postgresql';
  env: Record<string, string>;
  /** Node options for every service process (--cpu-prof). */
  nodeArgs: string[];
  workerProcesses: number;
  /** The TypeScript sources through tsx (profiles name source files); else the build, as `npm start` runs it. */
  sources: boolean;
}

/** `src/main.ts` as a process of its own, its output into `log`. */
function serviceProcess(name: string, env: NodeJS.ProcessEnv, nodeArgs: string[], sources: boolean, log: string): ServiceProcess {
  const out = fs.createWriteStream(log);
  const proc = new ServiceProcess({
    name,
    command: process.execPath,
    args: [...nodeArgs, ...(sources ? tsxNodeArgs : serviceNodeArgs)(path.join(REPO, 'src/main.ts'))],
    env: withGuard(env),
    ready: /^ready /,
    readyTimeoutMs: 300_000,
    onLine: (line) => out.write(`${line}\n`),
  });
  proc.once('exit', () => out.end());
  return proc;
}

const urlIn = (ready: RegExpMatchArray, part: string): string => {
  const url = new RegExp(`\\b${part}=(\\S+)`).exec(ready.input ?? '')?.[1];
  if (!url) throw new Error(`no ${part}= in the ready line: ${ready.input}`);
  return url;
};

export async function startBenchStack(opts: BenchStackOptions): Promise<BenchStack> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'isp-bench-'));
  const notifySecret = randomBytes(24).toString('base64url');
  const apiPort = await freePort();
  const env: Record<string, string> = { ...opts.env, SANDBOX_NOTIFY_SECRET: notifySecret, HOST: '127.0.0.1' };
  const roles = new Map<number, string>();
  const processes: ServiceProcess[] = [];
  let server: RunningTemporalServer | undefined;
  let stack: RunningStack | undefined;
  const stopAll = async (): Promise<void> => {
    await stack?.stop().catch(() => undefined);
    await Promise.all(processes.map((p) => p.stop(30_000).catch(() => undefined)));
    await server?.stop().catch(() => undefined);
  };
  const started = async (name: string, role: string, extra: Record<string, string>): Promise<RegExpMatchArray> => {
    const dir = path.join(dataDir, name);
    fs.mkdirSync(dir, { recursive: true });
    const proc = serviceProcess(name, { ...process.env, ...env, DATA_DIR: dir, ...extra }, opts.nodeArgs, opts.sources, path.join(dir, 'service.log'));
    processes.push(proc);
    const ready = await proc.start();
    roles.set(proc.pid!, role);
    return ready;
  };
  try {
    const sandboxReady = await started('sandbox', 'sandbox', {
      SERVICES: 'sandbox',
      SIM_PORT: '0',
      MAIL_PORT: '0',
      SANDBOX_NOTIFY_URL: `http://127.0.0.1:${apiPort}/internal/acquirer/notifications`,
    });
    const sandboxUrl = urlIn(sandboxReady, 'sandbox');
    env.SANDBOX_URL = sandboxUrl;
    // Receipts (docs/receipts.md) go to the sandbox's development mailbox, on the port it took.
    env.SMTP_URL = urlIn(sandboxReady, 'smtp');
    const outsideRoots = (): number[] => {
      const pm = opts.database === 'postgresql' ? postmasterOf(process.env.DATABASE_URL ?? '') : undefined;
      return pm ? [pm] : [];
    };
    if (opts.temporal === 'dev') {
      const combined = opts.layout === 'combined';
      stack = await startStack({
        root: REPO,
        dataDir,
        env: { ...env, SERVICES: combined ? 'api,worker' : 'worker', PORT: String(apiPort) },
        readyTimeoutMs: 300_000,
        nodeArgs: opts.nodeArgs,
        sources: opts.sources,
      });
      roles.set(stack.pid!, combined ? 'service (API and worker)' : 'worker');
      let apiUrl = stack.apiUrl;
      if (!combined) {
        apiUrl = urlIn(
          await started('api', 'api', {
            SERVICES: 'api',
            PORT: String(apiPort),
            DATABASE_URL: stack.databaseUrl,
            TEMPORAL_ADDRESS: stack.temporalAddress,
          }),
          'api',
        );
      }
      const shape = combined
        ? 'API and worker in one process, the sandbox in its own, on the Temporal dev server'
        : 'API, worker and sandbox in a process each, on the Temporal dev server';
      const base = stack;
      return { ...base, apiUrl, sandboxUrl, shape, roles, outsideRoots: outsideRoots(), stop: stopAll };
    }
    server = await startTemporalServer(
      { host: '127.0.0.1', port: await freeServerPort(), namespace: 'default', database: postgresTargetFromUrl(process.env.DATABASE_URL!) },
      () => undefined,
    );
    const shared = { DATABASE_URL: process.env.DATABASE_URL!, TEMPORAL_ADDRESS: server.address };
    const ready = await started('api', 'api', { ...shared, SERVICES: 'api', PORT: String(apiPort) });
    for (let i = 1; i <= opts.workerProcesses; i++) await started(`worker-${i}`, 'worker', { ...shared, SERVICES: 'worker' });
    return {
      apiUrl: urlIn(ready, 'api'),
      metricsUrl: /\bmetrics=(\S+)/.exec(ready.input ?? '')?.[1],
      sandboxUrl,
      databaseUrl: shared.DATABASE_URL,
      temporalAddress: server.address,
      logFile: path.join(dataDir, 'api', 'service.log'),
      shape: `Temporal server ${server.address} on PostgreSQL, an API process, ${opts.workerProcesses} worker processes, the sandbox in its own`,
      roles,
      outsideRoots: outsideRoots(),
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
