import crypto from 'node:crypto';
import { type Client, WorkflowExecutionAlreadyStartedError, type WorkflowHandle } from '@temporalio/client';
import type { Config } from '../config';
import { SETTLEMENT_CLOSE_WORKFLOW, type SettlementCloseInput, type SettlementCloseResult, settlementCloseWorkflowId } from '../../core/settlement';
import { businessDate } from './businessDate';

/** Starts the close of one store's open batch; null when a close of that store is already running. */
export async function startClose(
  temporal: Client,
  config: Config,
  store: { id: string; timezone: string },
  closedBy: string,
  opts: { now?: Date; autoCloseDate?: string } = {},
): Promise<WorkflowHandle | null> {
  const now = opts.now ?? new Date();
  const input: SettlementCloseInput = {
    batchId: crypto.randomUUID(),
    storeId: store.id,
    closedBy,
    closedAt: now.toISOString(),
    until: now.toISOString(),
    date: opts.autoCloseDate ?? businessDate(now, store.timezone, config.SETTLEMENT_CUTOFF_HOUR),
    ...(opts.autoCloseDate ? { autoCloseDate: opts.autoCloseDate } : {}),
  };
  try {
    return await temporal.workflow.start(SETTLEMENT_CLOSE_WORKFLOW, {
      args: [input],
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      workflowId: settlementCloseWorkflowId(store.id),
      workflowIdConflictPolicy: 'FAIL',
      workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    });
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return null;
    throw err;
  }
}

export type { SettlementCloseResult };
