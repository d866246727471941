import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { startSandboxServer } from '../../src/acquirer/sandbox/server';
import { createDb, type Db } from '../../src/db/client';
import { apiUrlOf, killAllGroups, mainProcess, type ServiceProcess } from '../../support/serviceProcess';
import { sweepScheduleId } from '../../src/payments/sweepSchedule';
import { loadConfig } from '../../src/config';
import { TEST_SECRETS_KEY } from '../support/stack';

/**
 * A scaled-out deployment for one test file: two API processes and two worker processes, each a
 * separate child (`src/main.ts` with SERVICES=api or SERVICES=worker) in a process group of its
 * own, on the run's one database and one Temporal dev server, sharing a task queue of their own;
 * the sandbox acquirer runs in the test process and notifies the first API.
 */
export interface ScaleStack {
  apiUrls: [string, string];
  sandboxUrl: string;
  db: Db;
  processes: ServiceProcess[];
  stop(): Promise<void>;
}

const NOTIFY_SECRET = 'scale-test-notify-secret-0123456789';

export async function startScaleStack(env: Record<string, string> = {}): Promise<ScaleStack> {
  const id = crypto.randomBytes(4).toString('hex');
  const root = path.join(process.env.TEST_ROOT!, `scale-${id}`);
  fs.mkdirSync(root, { recursive: true });
  const queue = `scale-${id}`;
  // The APIs listen on port 0 and say where; the sandbox asks where the first one is when it notifies.
  const apiUrls: [string, string] = ['', ''];

  const sandbox = await startSandboxServer({
    host: '127.0.0.1',
    port: 0,
    dataDir: path.join(root, 'sandbox'),
    notifyUrl: () => (apiUrls[0] ? `${apiUrls[0]}/internal/acquirer/notifications` : undefined),
    notifySecret: NOTIFY_SECRET,
  });
  // A child that outlives this process is killed by its orphan guard; on a normal exit, here.
  process.once('exit', killAllGroups);

  const base = (name: string): NodeJS.ProcessEnv => {
    const dataDir = path.join(root, name);
    fs.mkdirSync(dataDir, { recursive: true });
    return {
      ...process.env,
      DATABASE_URL: process.env.TEST_DATABASE_URL!,
      TEMPORAL_ADDRESS: process.env.TEST_TEMPORAL_ADDRESS!,
      TEMPORAL_TASK_QUEUE: queue,
      TEMPORAL_METRICS_PORT: '0',
      SANDBOX_URL: sandbox.url,
      SANDBOX_NOTIFY_SECRET: NOTIFY_SECRET,
      // Each process has a DATA_DIR of its own: they share the run's key as they share its database.
      SECRETS_KEY: TEST_SECRETS_KEY,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
      OTEL_ENABLED: 'false',
      WEBHOOK_ALLOW_INSECURE: 'true',
      SETTLEMENT_AUTO_CLOSE: 'false', // the daily close would walk every store of the shared test database
      WEBHOOK_RETRY_INITIAL_SECONDS: '1',
      WEBHOOK_RETRY_MAX_INTERVAL_SECONDS: '2',
      RATE_LIMIT_PER_SECOND: '10000',
      RATE_LIMIT_BURST: '10000',
      ...env,
    };
  };
  // Each process's output goes to <name>.log in SCALE_TEST_LOG_DIR when set (kept after the run), else in the run's folder.
  const logDir = process.env.SCALE_TEST_LOG_DIR ? path.join(process.env.SCALE_TEST_LOG_DIR, `scale-${id}`) : root;
  fs.mkdirSync(logDir, { recursive: true });
  const started = (name: string, env: NodeJS.ProcessEnv): ServiceProcess => {
    const log = fs.createWriteStream(path.join(logDir, `${name}.log`));
    const proc = mainProcess(name, env, (line) => log.write(`${line}\n`));
    proc.once('exit', () => log.end());
    return proc;
  };
  const processes = [
    started('api-1', { ...base('api-1'), SERVICES: 'api', PORT: '0' }),
    started('api-2', { ...base('api-2'), SERVICES: 'api', PORT: '0' }),
    started('worker-1', { ...base('worker-1'), SERVICES: 'worker' }),
    started('worker-2', { ...base('worker-2'), SERVICES: 'worker' }),
  ];
  const db = createDb(process.env.TEST_DATABASE_URL!, { poolSize: 2 });

  const stop = async (): Promise<void> => {
    await Promise.all(processes.map((p) => p.stop(10_000).catch(() => undefined)));
    await sandbox.close().catch(() => undefined);
    await removeSweepSchedule(queue).catch(() => undefined);
    await db.$disconnect().catch(() => undefined);
  };
  try {
    const ready = await Promise.all(processes.map((p) => p.start()));
    apiUrls[0] = apiUrlOf(ready[0]!);
    apiUrls[1] = apiUrlOf(ready[1]!);
  } catch (err) {
    await stop();
    throw err;
  }
  return { apiUrls, sandboxUrl: sandbox.url, db, processes, stop };
}

/** The workers created a sweep schedule for this task queue on the shared dev server; it goes with them. */
async function removeSweepSchedule(queue: string): Promise<void> {
  const connection = await Connection.connect({ address: process.env.TEST_TEMPORAL_ADDRESS! });
  try {
    const client = new Client({ connection });
    await client.schedule.getHandle(sweepScheduleId(loadConfig({ TEMPORAL_TASK_QUEUE: queue }))).delete();
  } finally {
    await connection.close();
  }
}

/** `check` every 200 ms until it answers something (not undefined); after `timeoutMs`, fails naming `what`. */
export async function eventually<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
