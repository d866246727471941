import { type Client, type WorkflowHandle, WorkflowUpdateFailedError } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/common';
import type { Config } from '../config';
import { conflict, invalid, unavailable } from '../domain/errors';
import type { Bill } from '../generated/prisma/client';
import { BILL_REFUSED, BILL_WORKFLOW_TYPE, type BillWorkflowInput, billWorkflowId, tenderChangedSignal } from '../../core/bill/messages';
import type { BillRefusal } from '../../core/bill/transition';
import { acquirerRetryMaxMs } from '../payments/workflowStart';
import { isCompletedWorkflowError, withInFlightRetry } from '../payments/workflowCalls';

/**
 * Talking to a bill's workflow from the API (docs/bills.md). The workflow is started once, at
 * creation, from the row (a start that finds it running is fine); every request is an update whose
 * refusal becomes our error (400 naming the field, or 409); a workflow that has ended means the bill
 * is final, and the answer is the row's.
 */
export interface BillCallDeps {
  config: Config;
  temporal: Client;
}

export function billWorkflowInput(bill: Bill, config: Config): BillWorkflowInput {
  return {
    billId: bill.id,
    amount: bill.amount.toFixed(),
    currency: bill.currency,
    expiresAtMs: bill.expiresAt.getTime(),
    // One sweep cycle at most between give-back passes, as a payment retries the acquirer.
    retryMaxMs: acquirerRetryMaxMs(config),
  };
}

export async function startBillWorkflow(deps: BillCallDeps, bill: Bill): Promise<void> {
  try {
    await deps.temporal.workflow.start(BILL_WORKFLOW_TYPE, {
      workflowId: billWorkflowId(bill.id),
      taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
      args: [billWorkflowInput(bill, deps.config)],
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

/**
 * Sends an update to the bill (`send` names it, typed by its definition); undefined when its workflow
 * has ended (the bill is final); 503 when Temporal cannot be reached.
 */
export async function askBill<R>(deps: BillCallDeps, billId: string, send: (bill: WorkflowHandle, updateId: string) => Promise<R>): Promise<R | undefined> {
  try {
    const handle = deps.temporal.workflow.getHandle(billWorkflowId(billId));
    return await withInFlightRetry((updateId) => send(handle, updateId));
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError) {
      const cause = err.cause as { type?: string; details?: unknown[]; message?: string } | undefined;
      if (cause?.type === BILL_REFUSED) throw refusalError(cause.details?.[0] as BillRefusal);
      throw err;
    }
    if (err instanceof WorkflowNotFoundError || isCompletedWorkflowError(err)) return undefined;
    // Temporal unreachable or overloaded: the request may or may not have reached the bill, so the
    // answer is a retry, never a 500 (a held tender whose payment never appears is freed by the nudge
    // after creation, or at the bill's expiry).
    throw unavailable(`the bill ${billId} could not be reached right now; retry with the same reference`, 2);
  }
}

/** Tells the bill a tender's payment moved on (or was never made): the bill reads its row again. */
export async function nudgeBill(deps: BillCallDeps, billId: string, paymentId: string): Promise<void> {
  try {
    await deps.temporal.workflow.getHandle(billWorkflowId(billId)).signal(tenderChangedSignal, { paymentId });
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err; // a final bill has nothing to hear
  }
}

export function refusalError(r: BillRefusal) {
  return r.kind === 'invalid' ? invalid(r.field ? `${r.field}: ${r.message}` : r.message) : conflict(r.field ? `${r.field}: ${r.message}` : r.message);
}
