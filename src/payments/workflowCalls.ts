import crypto from 'node:crypto';
import { type Client, WithStartWorkflowOperation, WorkflowUpdateFailedError } from '@temporalio/client';
import type { UpdateDefinition } from '@temporalio/common';
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/common';
import type { Config } from '../config';
import type { Payment } from '../generated/prisma/client';
import type { Logger } from '../logger';
import {
  cancelUpdate,
  captureUpdate,
  type CaptureRequest,
  operatorClearUpdate,
  PAYMENT_WORKFLOW_TYPE,
  type PaymentOutcome,
  type PaymentWorkflow,
  type PendingRefund,
  placeBillUpdate,
  type RefundRequestInput,
  refundUpdate,
  syncStatusUpdate,
  voidUpdate,
} from '../../core/payment/messages';
import type { RefusalCode } from '../../core/payment/rules';
import type { HistorySource } from '../../core/payment/statuses';
import { SingleFlight } from './coalesce';
import { paymentWorkflowStartOptions, workflowInputFromPayment } from './workflowStart';

/**
 * Talking to a payment's workflow from outside (API, operator CLI): every operation is an update
 * sent with update-with-start (conflict policy USE_EXISTING), so a running workflow is reached and
 * a missing one (a crash between row insert and start, a terminated run) is started from the row.
 * Concurrent identical operations of this process share one update (a workflow accepts at most 10
 * updates in flight).
 */
/** Each operation's arguments: the one table the API, the CLI and the workflow's handlers agree on. */
export interface PaymentOperationArgs {
  placeBill: [];
  syncStatus: [];
  cancel: [];
  void: [];
  operatorClear: [];
  capture: [CaptureRequest];
  refund: [RefundRequestInput];
}
export type PaymentOperation = keyof PaymentOperationArgs;
/** The update of each operation, typed by its arguments: `PAYMENT_OPERATIONS[op]` needs no cast. */
export const PAYMENT_OPERATIONS: { [O in PaymentOperation]: UpdateDefinition<PaymentOutcome, PaymentOperationArgs[O]> } = {
  placeBill: placeBillUpdate,
  syncStatus: syncStatusUpdate,
  cancel: cancelUpdate,
  void: voidUpdate,
  operatorClear: operatorClearUpdate,
  capture: captureUpdate,
  refund: refundUpdate,
};

/** Operations after the sale: they carry arguments, are never coalesced, and reach an ended payment through a new run. */
const AFTER_SALE: readonly PaymentOperation[] = ['capture', 'refund'];

export type WorkflowAnswer =
  | { kind: 'outcome'; outcome: PaymentOutcome }
  /** The workflow refused the update (a rule of core/payment/rules.ts): the code and message say why. */
  | { kind: 'rejected'; code: RefusalCode; message: string }
  /** The workflow has completed: the payment's row is final. */
  | { kind: 'closed' };

export interface WorkflowCallDeps {
  config: Config;
  temporal: Client;
  logger?: Logger;
}

/** Coalesced per operation and payment; void is never coalesced (each call is one more reversal). */
const flights = new SingleFlight<WorkflowAnswer>();

export function callPaymentWorkflow<O extends PaymentOperation>(
  deps: WorkflowCallDeps,
  payment: Payment,
  merchantExternalId: string,
  operation: O,
  args: PaymentOperationArgs[O],
  opts: { startedBy?: HistorySource; pendingRefunds?: PendingRefund[] } = {},
): Promise<WorkflowAnswer> {
  const afterSale = AFTER_SALE.includes(operation);
  const send = async (): Promise<WorkflowAnswer> => {
    const input = workflowInputFromPayment(payment, merchantExternalId, deps.config, opts.startedBy ?? 'API', opts.pendingRefunds ?? []);
    try {
      const outcome = await withInFlightRetry((updateId) =>
        deps.temporal.workflow.executeUpdateWithStart(PAYMENT_OPERATIONS[operation], {
          args,
          updateId,
          startWorkflowOperation: new WithStartWorkflowOperation<PaymentWorkflow>(
            PAYMENT_WORKFLOW_TYPE,
            paymentWorkflowStartOptions(input, deps.config, { afterSale }),
          ),
        }),
      );
      return { kind: 'outcome', outcome };
    } catch (err) {
      if (err instanceof WorkflowUpdateFailedError) {
        const cause = (err as { cause?: { message?: string; type?: string } }).cause;
        return { kind: 'rejected', code: cause?.type === 'invalid' ? 'invalid' : 'conflict', message: cause?.message || err.message };
      }
      if (err instanceof WorkflowExecutionAlreadyStartedError || err instanceof WorkflowNotFoundError || isCompletedWorkflowError(err)) {
        return { kind: 'closed' };
      }
      throw err;
    }
  };
  return operation === 'void' || afterSale ? send() : flights.run(`${operation}:${payment.id}`, send);
}

/**
 * A workflow accepts at most 10 updates in flight; several API processes may together send more.
 * The server then answers RESOURCE_EXHAUSTED, which the Temporal client itself retries with
 * backoff (up to 10 attempts, about 40 s) and so is not retried again here: a request waits that
 * long at most before its 503. What the client does not retry is an update the server rejects
 * because the worker did not get to it in its workflow task, or aborts because the server dropped
 * the workflow's update registry under load (Temporal: "retryable"): wait a moment and send again
 * (bounded). Every attempt carries the same update id (`send` puts it on the update): a resend of
 * an update the server did take is answered with that update's outcome, never applied twice.
 */
export async function withInFlightRetry<T>(send: (updateId: string) => Promise<T>): Promise<T> {
  const updateId = crypto.randomUUID();
  for (let attempt = 1; ; attempt++) {
    try {
      return await send(updateId);
    } catch (err) {
      if (attempt >= 6 || !isUnprocessedUpdate(err)) throw err;
      await new Promise((r) => setTimeout(r, 50 * attempt + Math.floor(Math.random() * 50)));
    }
  }
}

function isUnprocessedUpdate(err: unknown): boolean {
  const e = err as { cause?: { message?: string }; message?: string };
  const text = `${e?.message ?? ''} ${e?.cause?.message ?? ''}`;
  // also: an update-with-start that raced the workflow's completion is aborted; sent again, it
  // meets the closed workflow and is answered from the database
  return /wasn't processed by worker|Update-with-Start could not be executed|unexpected workflow task failure|update was aborted/i.test(text);
}

/** The server's answer to an update sent to a workflow that completed meanwhile. */
export function isCompletedWorkflowError(err: unknown): boolean {
  const text = `${(err as Error)?.message ?? ''} ${(err as { cause?: Error })?.cause?.message ?? ''}`;
  return /workflow execution already completed|workflow execution is already completed/i.test(text);
}
