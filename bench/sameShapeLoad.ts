/**
 * The same-shape floor (docs/benchmark.md): bench/sameShapeWorkflow.ts driven closed loop at the
 * cashiers' concurrency, on the run's Temporal server, for a fixed time: each lifecycle is an
 * update-with-start answered after the first local activity, then the signal, then the result.
 * Its worker runs in a process of its own (bench/sameShapeWorker.ts) whose CPU, read from /proc,
 * is divided by the lifecycles it completed. The driver (this process) is not counted.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { Client, Connection, WithStartWorkflowOperation } from '@temporalio/client';
import { PROJECT_ROOT } from '../src/paths';
import { compiled } from './compiled';
import { cpuByRole } from './processCpu';
import { readSandboxCalls, sandboxCounting, sandboxPerLifecycle, type SandboxPerLifecycle } from './sandboxCalls';
import { paid, placeBill } from './sameShapeWorkflow';
import { round } from './stats';

export interface SameShape {
  lifecyclesPerSecond: number;
  workerCpuMsPerLifecycle: number | null;
  lifecycles: number;
  errors: number;
  /** Its trips into the workflow sandbox (bench/sandboxCalls.ts): the fewest our shape can make. */
  sandboxPerLifecycle: SandboxPerLifecycle | null;
}

export async function measureSameShape(address: string, concurrency: number, seconds: number): Promise<SameShape> {
  const taskQueue = `bench-same-shape-${Date.now()}`;
  const counting = sandboxCounting('sameShape');
  // Compiled, as our service runs its build: tsx would turn Node's source maps on, which every workflow promise's stack trace pays for.
  const workerFile = compiled(path.join(__dirname, 'sameShapeWorker.ts'), [path.join(__dirname, 'sameShapeActivities.ts')]);
  const worker = spawn(process.execPath, [...counting.nodeArgs, workerFile], {
    env: {
      ...process.env,
      ...counting.env,
      TEMPORAL_ADDRESS: address,
      TASK_QUEUE: taskQueue,
      SAME_SHAPE_WORKFLOWS: path.join(__dirname, 'sameShapeWorkflow.ts'),
      NODE_PATH: path.join(PROJECT_ROOT, 'node_modules'),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    worker.stdout!.on('data', (b: Buffer) => b.toString().includes('ready') && resolve());
    void exited.then(() => reject(new Error('the same-shape worker exited before it was ready')));
  });
  const roles = new Map([[worker.pid!, 'sameShapeWorker']]);
  const cpu = (): number | undefined => cpuByRole(roles)?.sameShapeWorker;
  const connection = await Connection.connect({ address });
  const client = new Client({ connection });
  let n = 0;
  let lifecycles = 0;
  let errors = 0;
  try {
    const callsBefore = await readSandboxCalls(counting.prefix);
    const cpuBefore = cpu();
    const started = performance.now();
    const deadline = started + seconds * 1000;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < deadline) {
          const workflowId = `${taskQueue}-${n++}`;
          try {
            const startWorkflowOperation = new WithStartWorkflowOperation('sameShapeWorkflow', {
              workflowId,
              taskQueue,
              workflowIdConflictPolicy: 'USE_EXISTING',
            });
            await client.workflow.executeUpdateWithStart(placeBill, { startWorkflowOperation });
            const handle = client.workflow.getHandle(workflowId);
            await handle.signal(paid);
            await handle.result();
            lifecycles += 1;
          } catch {
            errors += 1;
          }
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    const cpuAfter = cpu();
    const callsAfter = await readSandboxCalls(counting.prefix);
    return {
      lifecyclesPerSecond: round(lifecycles / elapsed),
      workerCpuMsPerLifecycle: cpuBefore === undefined || cpuAfter === undefined || lifecycles === 0 ? null : round((cpuAfter - cpuBefore) / lifecycles),
      lifecycles,
      errors,
      // two local activities by construction (bench/sameShapeWorkflow.ts)
      sandboxPerLifecycle: sandboxPerLifecycle(callsBefore, callsAfter, lifecycles, 2),
    };
  } finally {
    await connection.close();
    worker.kill('SIGTERM');
    await exited;
  }
}
