import { sweepOverduePayments, type SweepResult } from '../../src/payments/sweep';
import type { ActivityDeps } from '../index';

/** The sweep's one activity: find overdue open payments and nudge (or restart) their workflows. */
export function paymentSweepActivities(deps: ActivityDeps) {
  return {
    async sweepOverduePayments(): Promise<SweepResult> {
      return sweepOverduePayments(deps);
    },
  };
}
