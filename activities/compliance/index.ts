import { evaluateAll, evaluatePayment } from '../../src/compliance/alerts';
import type { ActivityDeps } from '../deps';

/**
 * Compliance alerts' evaluation (docs/disputes.md, "Compliance alerts"): of a payment's store and account when one of its
 * disputes opens or one of its refunds succeeds, and of every target daily. Safe to repeat.
 */
export function complianceActivities(deps: ActivityDeps) {
  return {
    evaluateComplianceOfPayment: async ({ paymentId }: { paymentId: string }): Promise<void> => {
      await evaluatePayment(deps, paymentId);
    },
    evaluateAllCompliance: async (): Promise<number> => {
      const { raised, resolved } = await evaluateAll(deps);
      return raised.length + resolved.length;
    },
  };
}
