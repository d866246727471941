import { type Client, ScheduleAlreadyRunning, ScheduleOverlapPolicy } from '@temporalio/client';
import type { Config } from '../config';
import type { Logger } from '../logger';

/**
 * The reconciliation sweep as a Temporal Schedule, created or updated when a worker process
 * starts: every SWEEP_INTERVAL_SECONDS one paymentSweepWorkflow runs on the worker's task queue.
 * The id is `payment-sweep` on the default task queue, `payment-sweep-<queue>` on any other (so
 * several stacks sharing one cluster, as the tests do, each sweep with their own workers).
 */
export const SWEEP_WORKFLOW_TYPE = 'paymentSweepWorkflow';

export function sweepScheduleId(config: Config): string {
  return config.TEMPORAL_TASK_QUEUE === 'in-store-payments' ? 'payment-sweep' : `payment-sweep-${config.TEMPORAL_TASK_QUEUE}`;
}

export async function ensureSweepSchedule(client: Client, config: Config, logger: Logger): Promise<string> {
  const scheduleId = sweepScheduleId(config);
  const intervalMs = Math.round(config.SWEEP_INTERVAL_SECONDS * 1000);
  const spec = { intervals: [{ every: intervalMs }] };
  const action = {
    type: 'startWorkflow' as const,
    workflowType: SWEEP_WORKFLOW_TYPE,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    workflowId: `${scheduleId}-run`,
    // A cycle nobody picks up (its workers are gone) does not linger.
    workflowExecutionTimeout: Math.max(60_000, 2 * intervalMs),
  };
  const policies = { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: Math.max(60_000, intervalMs) };
  try {
    await client.schedule.create({ scheduleId, spec, action, policies });
    logger.info({ scheduleId, intervalSeconds: config.SWEEP_INTERVAL_SECONDS }, 'payment sweep schedule created');
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    await client.schedule.getHandle(scheduleId).update((previous) => ({ ...previous, spec, action, policies: { ...previous.policies, ...policies } }));
    logger.info({ scheduleId, intervalSeconds: config.SWEEP_INTERVAL_SECONDS }, 'payment sweep schedule updated');
  }
  return scheduleId;
}
