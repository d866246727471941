import { sweepOverduePayments, type SweepResult } from '../../src/payments/sweep';
import { resumePendingRefunds } from '../../src/refunds/recovery';
import { handOverStalledDeliveries } from '../../src/webhooks/dispatch';
import type { ActivityDeps } from '../deps';

/**
 * The sweep's one activity: find overdue open payments and nudge (or restart) their workflows;
 * then hand webhook deliveries whose first attempt was lost (a crash after publishing) to their
 * delivery workflows; then refunds left PENDING with no run deciding them (src/refunds/recovery.ts).
 */
export function paymentSweepActivities(deps: ActivityDeps) {
  return {
    async sweepOverduePayments(): Promise<SweepResult & { webhookDeliveriesHandedOver: number }> {
      const result = await sweepOverduePayments(deps);
      const handedOver = await handOverStalledDeliveries(deps);
      if (handedOver > 0) deps.logger.warn({ handedOver }, 'webhook deliveries without a first attempt handed to their delivery workflows');
      const refunds = await resumePendingRefunds(deps);
      return { ...result, webhookDeliveriesHandedOver: handedOver, refundsResumed: refunds.resumed, failed: result.failed + refunds.failed };
    },
  };
}
