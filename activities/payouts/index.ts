import { resolverOf } from '../../src/acquirer/resolver';
import { publishPayoutEvent, type PayoutEventType } from '../../src/payouts/events';
import { reconcileBalancePayout } from '../../src/payouts/balanceReconcile';
import { recordPayout, reconcilePayout } from '../../src/payouts/store';
import type { PayoutSync, PayoutWorkflowInput } from '../../core/payout/messages';
import { acquirerRejection } from '../../core/acquirerFailure';
import { callAcquirer } from '../acquirerCalls';
import type { ActivityDeps } from '../deps';

/**
 * The payout workflow's side effects (docs/payouts-and-fees.md): read the payout at the acquirer
 * (a report's under its device, a balance's at the account), record it, reconcile it once the
 * batches it pays are; publish its event. Each is safe to repeat. The read goes through
 * callAcquirer (../acquirerCalls.ts), and an answer that cannot be this payout's is the same final
 * ACQUIRER_REJECTED failure (core/acquirerFailure.ts), which the payout workflow does not retry.
 */
export function payoutActivities(deps: ActivityDeps, resolver = resolverOf(deps)) {
  const { db } = deps;

  return {
    /** Reads the payout, records it, and reconciles it when the batches it pays are reconciled. */
    syncPayout: async (input: PayoutWorkflowInput): Promise<PayoutSync> => {
      const port = await resolver.ofKey(input);
      if (!port.payouts) throw acquirerRejection(`payouts through ${port.name} are not supported yet`, { status: 501 });
      const read = await callAcquirer(() => port.payouts!.getPayout(input.pays === 'BALANCE' ? null : input.deviceId, input.acquirerPayoutId));
      if (read.pays === 'BALANCE') {
        if (input.pays !== 'BALANCE') throw acquirerRejection(`payout ${input.acquirerPayoutId} pays a balance, not a report`);
        const row = await recordPayout(db, input, read);
        return { status: row.status as PayoutSync['status'], reconciledWithBatch: await reconcileBalancePayout(db, row.id, read.transactions) };
      }
      // The acquirer's own word on which report it pays must be the batch the notification named.
      const expected = input.pays === 'BALANCE' ? null : input.acquirerAccountId ? `${input.batchId}:${input.acquirerAccountId}` : input.batchId;
      if (read.batchReference !== expected)
        throw acquirerRejection(`payout ${input.acquirerPayoutId} pays ${read.batchReference}, not ${expected ?? 'a balance'}`);
      const row = await recordPayout(db, input, read);
      return { status: row.status as PayoutSync['status'], reconciledWithBatch: await reconcilePayout(db, row.id) };
    },
    publishPayoutEvent: async ({ payoutId, eventType }: { payoutId: string; eventType: PayoutEventType }): Promise<void> => {
      await publishPayoutEvent(deps, payoutId, eventType);
    },
  };
}
