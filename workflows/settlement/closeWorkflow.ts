import type { RetryPolicy } from '@temporalio/common';
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import type { SettlementCloseInput, SettlementCloseResult } from '../../core/settlement';

/**
 * One close of a store's batch (docs/settlement.md, "Durability: a close completes once"). Every step is an activity that is safe to repeat,
 * so a close killed at any point completes once when a worker picks it up again: the claim is
 * guarded by the database, the acquirer answers a repeated close with the same report, the
 * reconciliation is one transaction, and each payment is settled once by its own workflow.
 */
// An unreachable acquirer or database: keep trying until it answers (the close is never dropped).
// A refused report too: its ACQUIRER_REJECTED failure (core/acquirerFailure.ts) is thrown retryable
// and deliberately not listed as non-retryable here (activities/settlement/index.ts).
// Short timeouts: a step whose worker died is retried elsewhere after at most this long.
const retry: RetryPolicy = { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m' };
const steps = proxyActivities<Activities>({ startToCloseTimeout: '30s', retry });
const reconciling = proxyActivities<Activities>({ startToCloseTimeout: '60s', retry });
// Settling heartbeats after every payment: a dead worker is noticed within the heartbeat timeout.
const settling = proxyActivities<Activities>({ startToCloseTimeout: '10m', heartbeatTimeout: '10s', retry });

const SETTLE_CHUNK = 200;

export async function settlementCloseWorkflow(input: SettlementCloseInput): Promise<SettlementCloseResult> {
  await steps.openSettlementBatch(input);
  const reconciled = await reconciling.reconcileSettlementBatch({ batchId: input.batchId });
  let result: SettlementCloseResult;
  if (reconciled.empty) {
    result = { batchId: input.batchId, empty: true };
  } else {
    while ((await settling.settleSettlementPayments({ batchId: input.batchId, limit: SETTLE_CHUNK })) > 0);
    result = { batchId: input.batchId, empty: false, status: await steps.finishSettlementBatch({ batchId: input.batchId }) };
  }
  if (input.autoCloseDate) await steps.recordAutoClose({ storeId: input.storeId, date: input.autoCloseDate, batchId: result.empty ? null : input.batchId });
  return result;
}
