import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ManagedChild } from '../../src/process/child';
import { serviceNodeArgs } from '../../src/process/tsx';
import { TEST_SECRETS_KEY, type TestStack } from './stack';

const REPO = path.resolve(__dirname, '../..');

/**
 * Workers in child processes (SERVICES=worker) on the test stack's database and Temporal and on a
 * task queue of their own, as in a split deployment: the stack runs the API and the sandbox
 * (SERVICES=api,sandbox, TEMPORAL_TASK_QUEUE: `queue`), a crash test kills a worker (kill -9) and
 * starts another; an upgrade runs the old and the new build side by side. `stopAll` in afterAll.
 */
export class ChildWorkers {
  readonly queue: string;
  /** The worker started last. */
  current: ManagedChild | undefined;
  /** Every worker started, in order (stopped, killed or running). */
  private readonly started: ManagedChild[] = [];

  constructor(
    private readonly name: string,
    private readonly stack: () => TestStack,
  ) {
    this.queue = `${name}-${crypto.randomBytes(4).toString('hex')}`;
  }

  /** `env`: more of the worker's configuration (a WORKFLOW_BUNDLE of another release, ...). */
  async start(env: Record<string, string> = {}): Promise<ManagedChild> {
    const dataDir = path.join(process.env.TEST_ROOT!, `${this.name}-worker-${crypto.randomBytes(3).toString('hex')}`);
    fs.mkdirSync(dataDir, { recursive: true });
    // main.ts resolves paths from the repository root.
    const child = new ManagedChild('worker', process.execPath, serviceNodeArgs(path.join(REPO, 'src/main.ts')), {
      ...process.env,
      SERVICES: 'worker',
      DATABASE_URL: process.env.TEST_DATABASE_URL!,
      TEMPORAL_ADDRESS: process.env.TEST_TEMPORAL_ADDRESS!,
      TEMPORAL_TASK_QUEUE: this.queue,
      SANDBOX_URL: this.stack().sandboxUrl,
      DATA_DIR: dataDir,
      SECRETS_KEY: TEST_SECRETS_KEY, // the key the run's shared database is sealed under
      ...(process.env.TEST_WORKFLOW_BUNDLE ? { WORKFLOW_BUNDLE: process.env.TEST_WORKFLOW_BUNDLE } : {}),
      LOG_LEVEL: 'warn',
      OTEL_ENABLED: 'false',
      SETTLEMENT_AUTO_CLOSE: 'false', // the daily close would walk every store of the shared test database
      ...env,
    });
    await child.waitForLine(/^ready /, 60_000);
    this.current = child;
    this.started.push(child);
    return child;
  }

  /** kill -9 of the current worker (at once, on the call), resolved once it has exited. */
  killHard(): Promise<void> {
    const worker = this.current!;
    worker.process.kill('SIGKILL');
    return new Promise<void>((resolve) => (worker.running ? worker.once('exit', () => resolve()) : resolve()));
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.started.filter((child) => child.running).map((child) => child.stop()));
    // A child's stdin pipe outlives it and would keep jest waiting.
    for (const child of this.started) child.process.stdin?.destroy();
  }
}
