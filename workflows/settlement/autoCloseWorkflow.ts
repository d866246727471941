import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities';

/** One cycle of the daily close, started by its Schedule: starts the close of every store whose business day has ended. */
const { startDueAutoCloses } = proxyActivities<Activities>({
  startToCloseTimeout: '2m',
  retry: { initialInterval: '5s', maximumAttempts: 3 },
});

export async function settlementAutoCloseWorkflow(): Promise<number> {
  return startDueAutoCloses();
}
