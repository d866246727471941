import { type Client, WithStartWorkflowOperation, WorkflowUpdateFailedError } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/common';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Payment } from '../generated/prisma/client';
import type { Logger } from '../logger';
import { withInFlightRetry } from '../payments/workflowCalls';
import { paymentWorkflowStartOptions, workflowInputFromPayment } from '../payments/workflowStart';
import { SETTLE_PREFIX } from '../webhooks/events';
import { PAYMENT_WORKFLOW_TYPE, type PaymentWorkflow, settleUpdate } from '../../core/payment/messages';
import { isSettleable } from '../../core/payment/statuses';

/**
 * Settling the payments of a reconciled batch, each once, by its one writer: the payment's
 * workflow applies the settle update (history entry, settledAt, PAYMENT_SETTLED). A payment whose
 * workflow has ended (its void window is over) has no writer left; its row is settled here with a
 * row-version check on historySequence, so nothing can have changed it in between. A report-only
 * payment was written settled at reconciliation; only its event remains to be published.
 */
export interface SettleDeps {
  db: Db;
  temporal: Client;
  config: Config;
  logger: Logger;
  publish: (input: { paymentId: string; sequence: number }) => Promise<unknown>;
  /** Called after each payment (the activity's heartbeat). */
  progress?: () => void;
}

/** Lines marked applied per statement (bookkeeping; a line re-sent after a crash is settled once all the same). */
const APPLIED_FLUSH = 50;

/**
 * Settles up to `limit` payments of the batch not yet settled, SETTLEMENT_SETTLE_CONCURRENCY at a
 * time (each an update of its own workflow: the one writer); answers how many remain. The chunk's
 * payments are read in one query and its lines marked applied a statement per APPLIED_FLUSH, so the
 * database work around the updates does not grow with one round trip per payment.
 */
export async function settleBatchPayments(deps: SettleDeps, batchId: string, limit: number): Promise<number> {
  const lines = await deps.db.settlementLine.findMany({
    where: { batchId, type: 'PAYMENT', reported: true, appliedAt: null },
    orderBy: { id: 'asc' },
    take: limit,
    select: { id: true, paymentId: true },
  });
  const payments = new Map(
    (
      await deps.db.payment.findMany({
        where: { id: { in: lines.map((l) => l.paymentId!) } },
        include: { merchant: { select: { externalId: true } } },
      })
    ).map((p) => [p.id, p]),
  );
  const applied: bigint[] = [];
  const flush = async () => {
    const ids = applied.splice(0);
    if (ids.length > 0) await deps.db.settlementLine.updateMany({ where: { id: { in: ids } }, data: { appliedAt: new Date() } });
  };
  let next = 0;
  const lane = async () => {
    while (next < lines.length) {
      const line = lines[next++]!;
      await settleOne(deps, batchId, payments.get(line.paymentId!)!);
      applied.push(line.id);
      deps.progress?.();
      if (applied.length >= APPLIED_FLUSH) await flush();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, deps.config.SETTLEMENT_SETTLE_CONCURRENCY) }, lane));
  await flush();
  return deps.db.settlementLine.count({ where: { batchId, type: 'PAYMENT', reported: true, appliedAt: null } });
}

type PaymentWithMerchant = Payment & { merchant: { externalId: string } };

async function settleOne(deps: SettleDeps, batchId: string, payment: PaymentWithMerchant): Promise<void> {
  const paymentId = payment.id;
  if (payment.origin === 'SETTLEMENT_REPORT') return publishSettled(deps, batchId, paymentId);
  const input = workflowInputFromPayment(payment, payment.merchant.externalId, deps.config, 'WORKFLOW');
  try {
    await withInFlightRetry((updateId) =>
      deps.temporal.workflow.executeUpdateWithStart(settleUpdate, {
        args: [{ batchId }],
        updateId,
        startWorkflowOperation: new WithStartWorkflowOperation<PaymentWorkflow>(PAYMENT_WORKFLOW_TYPE, paymentWorkflowStartOptions(input, deps.config)),
      }),
    );
    return;
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError) {
      // Voided (or otherwise no longer captured) between reconciliation and now: nothing to settle.
      deps.logger.warn({ paymentId, batchId, err: (err as { cause?: Error }).cause?.message }, 'settlement not applied: the payment is no longer settleable');
      return;
    }
    if (!(
      err instanceof WorkflowExecutionAlreadyStartedError ||
      err instanceof WorkflowNotFoundError ||
      /already completed/i.test(String((err as Error)?.message))
    ))
      throw err;
  }
  await settleClosedPayment(deps, batchId, paymentId);
}

/** No workflow runs for the payment: settle the row if nothing changed it since it was read (row version). */
async function settleClosedPayment(deps: SettleDeps, batchId: string, paymentId: string): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const p = await deps.db.payment.findUniqueOrThrow({ where: { id: paymentId } });
    if (p.settledAt) return publishSettled(deps, batchId, paymentId);
    if (!isSettleable(p.status)) return;
    const sequence = p.historySequence + 1;
    const now = new Date();
    const written = await deps.db.$transaction(async (tx) => {
      const { count } = await tx.payment.updateMany({
        where: { id: paymentId, historySequence: p.historySequence, settledAt: null },
        data: { status: p.status === 'CAPTURED' ? 'SETTLED' : p.status, settledAt: now, historySequence: sequence },
      });
      if (count === 0) return false;
      await tx.paymentHistory.create({
        data: {
          paymentId,
          sequence,
          status: p.status === 'CAPTURED' ? 'SETTLED' : p.status,
          previousStatus: p.status,
          actionReference: `${SETTLE_PREFIX}${batchId}`,
          source: 'WORKFLOW',
          occurredAt: now,
        },
      });
      return true;
    });
    if (written) return publishSettled(deps, batchId, paymentId);
  }
  throw new Error(`payment ${paymentId} kept changing while being settled`);
}

async function publishSettled(deps: SettleDeps, batchId: string, paymentId: string): Promise<void> {
  const entry = await deps.db.paymentHistory.findFirst({ where: { paymentId, actionReference: `${SETTLE_PREFIX}${batchId}` } });
  if (entry) await deps.publish({ paymentId, sequence: entry.sequence });
}
