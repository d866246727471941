import crypto from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { Config } from '../config';
import {
  RECEIPT_WORKFLOW_TYPE,
  type ReceiptEvent,
  type ReceiptRetry,
  type ReceiptWorkflowInput,
  receiptIdOf,
  receiptWorkflowId,
} from '../../core/receipt/messages';

export function receiptRetryOf(config: Config): ReceiptRetry {
  return {
    maximumIntervalMs: Math.round(config.RECEIPT_RETRY_MAX_INTERVAL_SECONDS * 1000),
    maxAgeMs: Math.round(config.RECEIPT_RETRY_MAX_AGE_HOURS * 3600 * 1000),
    attemptTimeoutMs: Math.round(config.RECEIPT_ATTEMPT_TIMEOUT_SECONDS * 1000),
  };
}

/** A payment's status event and the receipt email it calls for, if any: the sale, a refund, a void (docs/receipts.md). */
export function receiptEventOf(eventType: string, entry: { status: string; previousStatus: string | null }): Exclude<ReceiptEvent, 'REQUESTED'> | undefined {
  if (eventType === 'PAYMENT_CAPTURED') return 'CAPTURED';
  if (eventType === 'PAYMENT_REFUNDED') return 'REFUNDED';
  if (eventType === 'PAYMENT_CANCELLED' && entry.previousStatus === 'CAPTURED') return 'VOIDED';
  return undefined;
}

/**
 * Starts the receipt email of one event of a payment: never a second run for the same (payment,
 * event), whether the first still runs (conflict FAIL) or has closed (reuse REJECT_DUPLICATE), so a
 * retried publishing step, a replayed workflow or a second worker sends nothing twice. Resolves
 * false when it had been started already.
 */
export async function startEventReceipt(
  deps: { temporal: Client; config: Config },
  paymentId: string,
  event: Exclude<ReceiptEvent, 'REQUESTED'>,
  refundKey?: string,
): Promise<boolean> {
  const receiptId = receiptIdOf(paymentId, event, refundKey);
  const input: ReceiptWorkflowInput = { receiptId, paymentId, event, ...(refundKey ? { refundId: refundKey } : {}), retry: receiptRetryOf(deps.config) };
  try {
    await deps.temporal.workflow.start(RECEIPT_WORKFLOW_TYPE, {
      args: [input],
      taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
      workflowId: receiptWorkflowId(receiptId),
      workflowIdConflictPolicy: 'FAIL',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
    });
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw err;
  }
  return true;
}

/** A copy sent from the dashboard to a typed address: a receipt of its own each time. Returns its id. */
export async function startRequestedReceipt(deps: { temporal: Client; config: Config }, paymentId: string, to: string): Promise<string> {
  const receiptId = `${paymentId}-requested-${crypto.randomUUID()}`;
  const input: ReceiptWorkflowInput = { receiptId, paymentId, event: 'REQUESTED', to, retry: receiptRetryOf(deps.config) };
  await deps.temporal.workflow.start(RECEIPT_WORKFLOW_TYPE, {
    args: [input],
    taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
    workflowId: receiptWorkflowId(receiptId),
  });
  return receiptId;
}
