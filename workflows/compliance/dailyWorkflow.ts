import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities';

/** The daily evaluation of every store's and acquirer account's compliance ratios, started by its Schedule (src/compliance/daily.ts). */
const { evaluateAllCompliance } = proxyActivities<Activities>({
  startToCloseTimeout: '10m',
  retry: { initialInterval: '5s', maximumAttempts: 3 },
});

export async function complianceDailyWorkflow(): Promise<number> {
  return evaluateAllCompliance();
}
