import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Logger } from '../logger';
import { type AttemptRow, attemptDelivery } from './attempt';
import { WEBHOOK_DELIVERY_WORKFLOW, webhookDeliveryWorkflowId, type WebhookDeliveryInput, type WebhookRetrySchedule } from '../../core/webhooks/delivery';

/** What dispatching needs: reached by both the API handlers and the activities. */
export interface DispatchDeps {
  db: Db;
  temporal: Client;
  config: Config;
}

export function retryScheduleOf(config: Config): WebhookRetrySchedule {
  return {
    initialIntervalMs: Math.round(config.WEBHOOK_RETRY_INITIAL_SECONDS * 1000),
    maximumIntervalMs: Math.round(config.WEBHOOK_RETRY_MAX_INTERVAL_SECONDS * 1000),
    maxAgeMs: Math.round(config.WEBHOOK_RETRY_MAX_AGE_HOURS * 3600 * 1000),
    attemptTimeoutMs: Math.round(config.WEBHOOK_TIMEOUT_SECONDS * 1000),
  };
}

export interface DeliveryRef {
  id: string;
  eventId: string;
  configId: string;
}

/**
 * Starts the delivery workflow of one (event, destination).
 * - 'first': never a second run for the same pair, whether the first still runs (conflict FAIL)
 *   or has closed (reuse REJECT_DUPLICATE); a retried publishing activity is therefore harmless.
 * - 'redeliver': a fresh run; one still retrying is replaced, so the new run attempts at once.
 * Resolves false when a 'first' run exists or existed already.
 */
export async function startDeliveryRun(
  deps: DispatchDeps,
  delivery: DeliveryRef,
  kind: 'first' | 'redeliver',
  opts: { firstAttemptAtMs?: number } = {},
): Promise<boolean> {
  const input: WebhookDeliveryInput = {
    deliveryId: delivery.id,
    retry: retryScheduleOf(deps.config),
    ...(opts.firstAttemptAtMs !== undefined ? { firstAttemptAtMs: opts.firstAttemptAtMs } : {}),
  };
  try {
    await deps.temporal.workflow.start(WEBHOOK_DELIVERY_WORKFLOW, {
      args: [input],
      taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
      workflowId: webhookDeliveryWorkflowId(delivery.eventId, delivery.configId),
      ...(kind === 'first'
        ? { workflowIdConflictPolicy: 'FAIL' as const, workflowIdReusePolicy: 'REJECT_DUPLICATE' as const }
        : { workflowIdConflictPolicy: 'TERMINATE_EXISTING' as const, workflowIdReusePolicy: 'ALLOW_DUPLICATE' as const }),
    });
  } catch (err) {
    if (kind === 'first' && err instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw err;
  }
  return true;
}

/**
 * The first attempt of a payment event's delivery, in the background of the step that published
 * it (the payment workflow does not wait for the merchant's endpoint). Delivered: nothing else
 * runs, no workflow. Failed: the delivery workflow starts (idempotent id per event and
 * destination) and keeps the durable retry schedule from the second attempt on. A crash between
 * storing the delivery and handing it over leaves it PENDING with at most one attempt: the
 * payment sweep hands such deliveries over (handOverStalledDeliveries). `read`: the delivery as
 * the publishing statement read it (no second read). Never throws.
 */
export async function firstAttempt(deps: DispatchDeps & { logger?: Logger }, delivery: DeliveryRef, read?: AttemptRow): Promise<void> {
  try {
    const result = await attemptDelivery(deps, delivery.id, read);
    if (result.kind !== 'SENT' || result.outcome.delivered) return;
    if (!result.outcome.retryable) {
      // The URL breaks the rules for good (as the run's non-retryable failure would): FAILED now.
      await deps.db.webhookDelivery.updateMany({ where: { id: delivery.id, status: 'PENDING' }, data: { status: 'FAILED' } });
      return;
    }
    await startDeliveryRun(deps, delivery, 'first', { firstAttemptAtMs: result.outcome.requestedAt.getTime() });
  } catch (err) {
    deps.logger?.warn({ err: (err as Error).message, deliveryId: delivery.id }, 'webhook first attempt not handed over; the sweep will');
  }
}

/**
 * How long a delivery may stay PENDING with at most one attempt before the sweep hands it over:
 * longer than a first attempt can take (its timeout plus the reads and writes around it) and than
 * the wait of a handed-over run before its second attempt (the first interval).
 */
export function stalledAfterMs(config: Config): number {
  return Math.round((config.WEBHOOK_RETRY_INITIAL_SECONDS + config.WEBHOOK_TIMEOUT_SECONDS) * 1000) + 15_000;
}

/**
 * Part of the payment sweep: deliveries PENDING with at most one attempt, untouched for longer
 * than stalledAfterMs, lost their first attempt or its hand-over
 * (a crash of the process that published them). Each gets its delivery workflow ('first': a run
 * that exists already, or existed, is left alone). Returns how many were handed over.
 */
export async function handOverStalledDeliveries(deps: DispatchDeps, opts: { now?: Date; limit?: number; eventIds?: string[] } = {}): Promise<number> {
  const before = new Date((opts.now ?? new Date()).getTime() - stalledAfterMs(deps.config));
  const stalled = await deps.db.webhookDelivery.findMany({
    where: { status: 'PENDING', attempts: { lte: 1 }, updatedAt: { lt: before }, ...(opts.eventIds ? { eventId: { in: opts.eventIds } } : {}) },
    select: { id: true, eventId: true, configId: true, attempts: true, updatedAt: true },
    orderBy: { updatedAt: 'asc' },
    take: opts.limit ?? 500,
  });
  let started = 0;
  for (const d of stalled) {
    try {
      if (await startDeliveryRun(deps, d, 'first', d.attempts > 0 ? { firstAttemptAtMs: d.updatedAt.getTime() } : {})) started++;
    } catch {
      // the next sweep tries again
    }
  }
  return started;
}
