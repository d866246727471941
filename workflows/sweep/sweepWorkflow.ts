import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import type { SweepResult } from '../../core/sweep';

/** One cycle of the reconciliation sweep, started by the `payment-sweep` Schedule. */
const { sweepOverduePayments } = proxyActivities<Activities>({
  startToCloseTimeout: '2m',
  retry: { initialInterval: '5s', maximumAttempts: 3 },
});

export async function paymentSweepWorkflow(): Promise<SweepResult> {
  return sweepOverduePayments();
}
