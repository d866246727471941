import { Context } from '@temporalio/activity';
import { finishBatch, openBatch, reconcileBatch } from '../../src/settlement/batches';
import { startDueAutoCloses } from '../../src/settlement/autoClose';
import { settleBatchPayments } from '../../src/settlement/settlePayments';
import type { SettlementCloseInput } from '../../core/settlement';
import { publishPaymentEventActivity } from '../webhooks/publishPaymentEvent';
import type { ActivityDeps } from '../deps';
import { callAcquirer } from '../acquirerCalls';

/** The steps of a settlement close and the daily close's cycle (src/settlement holds the logic). */
export function settlementActivities(deps: ActivityDeps) {
  const publish = publishPaymentEventActivity(deps);
  const logger = deps.logger.child({ part: 'settlement' });
  return {
    openSettlementBatch: (input: SettlementCloseInput) => openBatch(deps, input),
    // The one step that asks the acquirers (their reports). A refused report is the ACQUIRER_REJECTED
    // failure too, but retried: a close is never dropped, its claimed lines would be stranded
    // (docs/settlement.md); it completes once the report is set up at the acquirer (docs/acquirers.md).
    reconcileSettlementBatch: ({ batchId }: { batchId: string }) => callAcquirer(() => reconcileBatch(deps, batchId), { refusalRetried: true }),
    settleSettlementPayments: ({ batchId, limit }: { batchId: string; limit: number }) =>
      settleBatchPayments(
        { db: deps.db, temporal: deps.temporal, config: deps.config, logger, publish, progress: () => Context.current().heartbeat() },
        batchId,
        limit,
      ),
    finishSettlementBatch: ({ batchId }: { batchId: string }) => finishBatch(deps.db, batchId),
    async recordAutoClose({ storeId, date, batchId }: { storeId: string; date: string; batchId: string | null }): Promise<void> {
      await deps.db.settlementAutoClose.upsert({ where: { storeId_date: { storeId, date } }, create: { storeId, date, batchId }, update: {} });
    },
    startDueAutoCloses: () => startDueAutoCloses({ db: deps.db, temporal: deps.temporal, config: deps.config, logger }),
  };
}
