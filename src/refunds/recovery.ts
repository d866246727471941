import { WorkflowNotFoundError } from '@temporalio/common';
import { PAYMENT_WORKFLOW_TYPE, type PaymentWorkflow, paymentStateQuery, resumeRefundsSignal } from '../../core/payment/messages';
import type { SweepDeps } from '../payments/sweep';
import { paymentWorkflowStartOptions, workflowInputFromPayment } from '../payments/workflowStart';
import { pendingRefundOf, pendingRefundsOf } from './pending';

/**
 * The sweep's second half: refunds left PENDING with no run deciding them. A refund is followed by
 * its payment's workflow until the acquirer decides; a run that was terminated or lost leaves its
 * row PENDING for ever. Each cycle finds the PENDING rows older than `minAgeMs` and, per payment:
 * - a running workflow is asked which refunds it follows (a query: no history); the ones it does
 *   not know are handed to it (signal `resumeRefunds`);
 * - no running workflow: a new run is started from the row with the PENDING refunds
 *   (signal-with-start, the one writer as for every post-sale change).
 * The run re-submits each with its stable reference `REFUND-<id>`, so the acquirer pays it once.
 */
export interface RefundRecoveryResult {
  /** PENDING refunds old enough to look at. */
  considered: number;
  /** Handed to a run that did not follow them. */
  resumed: number;
  /** Payments whose workflow could not be reached this cycle (tried again next cycle). */
  failed: number;
}

/** Younger PENDING refunds are left alone: their update may still be on its way into the run. */
export const REFUND_RECOVERY_MIN_AGE_MS = 60_000;
const BATCH = 200;

export async function resumePendingRefunds(
  deps: SweepDeps,
  opts: { now?: Date; minAgeMs?: number; paymentIds?: string[] } = {},
): Promise<RefundRecoveryResult> {
  const now = opts.now ?? new Date();
  const rows = await deps.db.refund.findMany({
    where: {
      status: 'PENDING',
      createdAt: { lte: new Date(now.getTime() - (opts.minAgeMs ?? REFUND_RECOVERY_MIN_AGE_MS)) },
      ...(opts.paymentIds ? { paymentId: { in: opts.paymentIds } } : {}),
    },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    take: BATCH,
  });
  const result: RefundRecoveryResult = { considered: rows.length, resumed: 0, failed: 0 };
  const byPayment = new Map<string, typeof rows>();
  for (const r of rows) byPayment.set(r.paymentId, [...(byPayment.get(r.paymentId) ?? []), r]);
  // One payment at a time: there are few such refunds, and each costs a describe and a query.
  for (const [paymentId, refunds] of byPayment) {
    try {
      result.resumed += await resumeOne(deps, paymentId, refunds);
    } catch (err) {
      result.failed += 1;
      deps.logger.warn({ err: (err as Error).message, paymentId }, 'sweep could not resume the pending refunds of a payment');
    }
  }
  if (result.resumed > 0 || result.failed > 0) deps.logger.info(result, 'refund recovery');
  return result;
}

async function resumeOne(deps: SweepDeps, paymentId: string, refunds: Parameters<typeof pendingRefundOf>[0][]): Promise<number> {
  const payment = await deps.db.payment.findUniqueOrThrow({ where: { id: paymentId }, include: { merchant: { select: { externalId: true } } } });
  const handle = deps.temporal.workflow.getHandle(payment.workflowId);
  let running = false;
  try {
    running = (await handle.describe()).status.name === 'RUNNING';
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
  }
  if (running) {
    const followed = new Set((await handle.query(paymentStateQuery)).refunds ?? []);
    const unknown = refunds.filter((r) => !followed.has(r.id));
    if (unknown.length === 0) return 0;
    deps.logger.warn({ paymentId, refunds: unknown.map((r) => r.id) }, 'pending refunds not followed by the running payment workflow: handing them to it');
    await handle.signal(resumeRefundsSignal, unknown.map(pendingRefundOf));
    return unknown.length;
  }
  // No run: a new one from the row takes every refund still PENDING (read again now).
  const pending = await pendingRefundsOf(deps.db, paymentId);
  if (pending.length === 0) return 0;
  deps.logger.warn(
    { paymentId, refunds: pending.map((r) => r.id) },
    'pending refunds with no payment workflow running: starting a run from the row to decide them',
  );
  const input = workflowInputFromPayment(payment, payment.merchant.externalId, deps.config, 'SWEEP', pending);
  await deps.temporal.workflow.signalWithStart<PaymentWorkflow, [typeof pending]>(PAYMENT_WORKFLOW_TYPE, {
    ...paymentWorkflowStartOptions(input, deps.config, { afterSale: true }),
    signal: resumeRefundsSignal,
    signalArgs: [pending],
  });
  return pending.length;
}
