import type { Client } from '@temporalio/client';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { ensureIntervalSchedule } from '../temporal/intervalSchedule';
import { COMPLIANCE_DAILY_WORKFLOW } from '../../core/compliance';

/**
 * The daily evaluation of the compliance alerts (docs/disputes.md, "Compliance alerts"): a Temporal Schedule on the
 * worker's task queue, as the daily settlement close, starting `complianceDailyWorkflow` once a day;
 * it resolves what aged out of the window while nothing happened in a store.
 */
export const complianceScheduleId = (config: Config): string =>
  config.TEMPORAL_TASK_QUEUE === 'in-store-payments' ? 'compliance-daily' : `compliance-daily-${config.TEMPORAL_TASK_QUEUE}`;

export async function ensureComplianceSchedule(client: Client, config: Config, logger: Logger): Promise<void> {
  const scheduleId = complianceScheduleId(config);
  await ensureIntervalSchedule(client, { scheduleId, workflowType: COMPLIANCE_DAILY_WORKFLOW, taskQueue: config.TEMPORAL_TASK_QUEUE, intervalMs: 86_400_000 });
  logger.info({ scheduleId }, 'daily compliance evaluation scheduled');
}
