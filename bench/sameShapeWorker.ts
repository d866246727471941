/**
 * The same-shape floor's worker, in a process of its own so its CPU is counted alone
 * (bench/sameShapeLoad.ts): `TEMPORAL_ADDRESS`, `TASK_QUEUE`, and the service worker's cache size.
 * Prints `ready` once polling; stops on SIGTERM.
 */
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import * as activities from './sameShapeActivities';

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const connection = await NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS! });
  const worker = await Worker.create({
    connection,
    taskQueue: process.env.TASK_QUEUE!,
    // Compiled, this file runs from a cache folder (bench/sameShapeLoad.ts): the workflow's source is named.
    workflowsPath: process.env.SAME_SHAPE_WORKFLOWS ?? require.resolve('./sameShapeWorkflow'),
    activities,
    maxCachedWorkflows: Number(process.env.MAX_CACHED_WORKFLOWS ?? 2000),
  });
  process.once('SIGTERM', () => worker.shutdown());
  const running = worker.run();
  console.log('ready');
  await running;
  await connection.close();
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
