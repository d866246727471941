import { ActivityFailure, log, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities';

/**
 * Compliance alerts' evaluation from a workflow (docs/disputes.md, "Compliance alerts"): a few attempts, then given up,
 * never holding up the dispute or the refund that asked: the daily evaluation catches up.
 */
const complianceCalls = proxyActivities<Activities>({
  startToCloseTimeout: '10s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '10s', maximumAttempts: 3 },
});

export async function evaluateCompliance(paymentId: string): Promise<void> {
  try {
    await complianceCalls.evaluateComplianceOfPayment({ paymentId });
  } catch (err) {
    // Never rejects: a dispute's run keeps the promise beside its timers and awaits it only at its end.
    log.warn('compliance evaluation gave up; the daily evaluation catches up', {
      paymentId,
      error: err instanceof ActivityFailure ? err.message : String(err),
    });
  }
}
