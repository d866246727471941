import type { SweepResult } from '../../core/sweep';
import type { Client } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/common';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Payment } from '../generated/prisma/client';
import type { Logger } from '../logger';
import { PAYMENT_WORKFLOW_TYPE, type PaymentWorkflow, sweepNudgeSignal } from '../../core/payment/messages';
import { ON_DEVICE_STATUSES } from '../../core/payment/statuses';
import { paymentWorkflowStartOptions, workflowInputFromPayment } from './workflowStart';

/**
 * The reconciliation sweep (docs/payments.md, "Reconciliation sweep"): every payment still waiting for the customer past its
 * expiry (terminal timeout plus grace) is nudged with signal-with-start. A running workflow re-reads
 * the acquirer; a missing one (row inserted but workflow never started, or a run terminated) is
 * started from the row and settles the payment from the acquirer's answer: the outcome the
 * customer reached, EXPIRED when nothing was decided, FAILED when no bill ever reached the device.
 * A row still open after its workflow completed (a lost write) gets one more run from the row.
 * Two-step: an AUTHORIZED payment past its authorisation window is swept the same way, so a hold
 * whose run was lost is still released (AUTHORIZATION_EXPIRED) and its reference freed.
 */
export interface SweepDeps {
  config: Config;
  db: Db;
  temporal: Client;
  logger: Logger;
}

export const SWEEP_BATCH = 500;
const SWEEP_CONCURRENCY = 10;

type OverduePayment = Payment & { merchant: { externalId: string } };

/** Statuses whose payment the sweep settles: on the device, or held (two-step) and not yet completed. */
const SWEPT_STATUSES = [...ON_DEVICE_STATUSES, 'AUTHORIZED' as const];

/** Nudges the payment's running workflow, or starts one from the row when none runs. */
async function settleOne(deps: SweepDeps, payment: OverduePayment): Promise<'nudged' | 'restarted' | 'failed'> {
  try {
    await deps.temporal.workflow.getHandle(payment.workflowId).signal(sweepNudgeSignal);
    return 'nudged';
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) {
      deps.logger.warn({ err: (err as Error).message, paymentId: payment.id }, 'sweep could not reach the payment workflow');
      return 'failed';
    }
  }
  // No running workflow: start a run from the row (a failed or terminated run may be replaced).
  try {
    await startFromRow(deps, payment);
    return 'restarted';
  } catch (err) {
    // Refused only when the last run completed (a running one would have been signalled).
    if (err instanceof WorkflowExecutionAlreadyStartedError) return reconcileCompleted(deps, payment);
    deps.logger.warn({ err: (err as Error).message, paymentId: payment.id }, 'sweep could not start the payment workflow');
    return 'failed';
  }
}

/** Signal-with-start from the row; `reuse` ALLOW_DUPLICATE also replaces a completed run. */
function startFromRow(deps: SweepDeps, payment: OverduePayment, reuse?: 'ALLOW_DUPLICATE') {
  const input = workflowInputFromPayment(payment, payment.merchant.externalId, deps.config, 'SWEEP');
  return deps.temporal.workflow.signalWithStart<PaymentWorkflow, []>(PAYMENT_WORKFLOW_TYPE, {
    ...paymentWorkflowStartOptions(input, deps.config),
    ...(reuse ? { workflowIdReusePolicy: reuse } : {}),
    signal: sweepNudgeSignal,
    signalArgs: [],
  });
}

/**
 * The workflow has completed but the row is still open: the projection lost what the run wrote
 * (a commit lost in a database failover, or an entry left by a task that never completed). A run
 * writes its projection before it completes, so a row still open after completion is truly stale:
 * one more run, started from the row as it is now, reads the acquirer and settles it.
 */
async function reconcileCompleted(deps: SweepDeps, payment: OverduePayment): Promise<'restarted' | 'failed'> {
  const log = { paymentId: payment.id, status: payment.status };
  try {
    const row = await deps.db.payment.findFirst({ where: { id: payment.id, status: { in: SWEPT_STATUSES } } });
    if (!row) return 'restarted'; // the completed run's projection landed after the sweep read the row
    deps.logger.error(log, 'payment row open after its workflow completed: starting a run to settle it from the acquirer');
    await startFromRow(deps, { ...row, merchant: payment.merchant }, 'ALLOW_DUPLICATE');
    return 'restarted';
  } catch (err) {
    deps.logger.warn({ ...log, err: (err as Error).message }, 'sweep could not settle a payment whose workflow completed');
    return 'failed';
  }
}

export async function sweepOverduePayments(deps: SweepDeps, opts: { now?: Date; limit?: number; paymentIds?: string[] } = {}): Promise<SweepResult> {
  const now = opts.now ?? new Date();
  const overdue = await deps.db.payment.findMany({
    where: {
      OR: [
        { status: { in: [...ON_DEVICE_STATUSES] }, expiresAt: { lte: now } },
        { status: 'AUTHORIZED', authorizedAt: { lte: new Date(now.getTime() - deps.config.AUTHORIZATION_WINDOW_MINUTES * 60_000) } },
      ],
      ...(opts.paymentIds ? { id: { in: opts.paymentIds } } : {}),
    },
    include: { merchant: { select: { externalId: true } } },
    orderBy: { expiresAt: 'asc' },
    take: opts.limit ?? SWEEP_BATCH,
  });
  const result: SweepResult = { considered: overdue.length, nudged: 0, restarted: 0, failed: 0 };
  // A few at a time: a cycle with many overdue payments stays short without flooding Temporal.
  // Each lane takes the next payment as soon as its last is done, so one slow call holds up no other.
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < overdue.length) result[await settleOne(deps, overdue[next++]!)] += 1;
  };
  await Promise.all(Array.from({ length: Math.min(SWEEP_CONCURRENCY, overdue.length) }, lane));
  if (result.considered > 0) deps.logger.info(result, 'payment sweep');
  return result;
}

export type { SweepResult };
