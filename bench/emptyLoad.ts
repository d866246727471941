/**
 * The server's floor, measured in the same run: update-with-start of a workflow that does nothing
 * but answer one update (bench/emptyWorkflow.ts), closed loop at the same concurrency as the
 * cashiers for a fixed time: each call's latency, and calls per second.
 */
import { Client, Connection, WithStartWorkflowOperation } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { ping } from './emptyWorkflow';
import { round } from './stats';

export async function measureEmptyUpdateWithStart(address: string, concurrency: number, seconds: number): Promise<{ latencies: number[]; perSecond: number }> {
  const taskQueue = `bench-empty-${Date.now()}`;
  const nativeConnection = await NativeConnection.connect({ address });
  const worker = await Worker.create({ connection: nativeConnection, taskQueue, workflowsPath: require.resolve('./emptyWorkflow') });
  const running = worker.run();
  const connection = await Connection.connect({ address });
  const client = new Client({ connection });
  const latencies: number[] = [];
  let n = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const op = new WithStartWorkflowOperation('emptyWorkflow', { workflowId: `${taskQueue}-${n++}`, taskQueue, workflowIdConflictPolicy: 'USE_EXISTING' });
        const t0 = performance.now();
        await client.workflow.executeUpdateWithStart(ping, { startWorkflowOperation: op });
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const perSecond = round(latencies.length / ((performance.now() - started) / 1000));
  worker.shutdown();
  await running;
  await connection.close();
  await nativeConnection.close();
  return { latencies, perSecond };
}
