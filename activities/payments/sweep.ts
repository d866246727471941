import { sweepOverduePayments, type SweepResult } from '../../src/payments/sweep';
import { handOverStalledDeliveries } from '../../src/webhooks/dispatch';
import type { ActivityDeps } from '../index';

/**
 * The sweep's one activity: find overdue open payments and nudge (or restart) their workflows;
 * then hand webhook deliveries whose first attempt was lost (a crash after publishing) to their
 * delivery workflows.
 */
export function paymentSweepActivities(deps: ActivityDeps) {
  return {
    async sweepOverduePayments(): Promise<SweepResult & { webhookDeliveriesHandedOver: number }> {
      const result = await sweepOverduePayments(deps);
      const handedOver = await handOverStalledDeliveries(deps);
      if (handedOver > 0) deps.logger.warn({ handedOver }, 'webhook deliveries without a first attempt handed to their delivery workflows');
      return { ...result, webhookDeliveriesHandedOver: handedOver };
    },
  };
}
