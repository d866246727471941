import type { Client } from '@temporalio/client';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { ensureIntervalSchedule } from '../temporal/intervalSchedule';

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
  const how = await ensureIntervalSchedule(client, {
    scheduleId,
    workflowType: SWEEP_WORKFLOW_TYPE,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    intervalMs: Math.round(config.SWEEP_INTERVAL_SECONDS * 1000),
  });
  logger.info({ scheduleId, intervalSeconds: config.SWEEP_INTERVAL_SECONDS }, `payment sweep schedule ${how}`);
  return scheduleId;
}
