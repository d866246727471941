import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { Config } from '../config';
import type { Db } from '../db/client';
import {
  WEBHOOK_DELIVERY_WORKFLOW,
  webhookDeliveryWorkflowId,
  type WebhookDeliveryInput,
  type WebhookRetrySchedule,
} from '../../workflows/webhooks/definitions';

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
 */
export async function startDeliveryRun(deps: DispatchDeps, delivery: DeliveryRef, kind: 'first' | 'redeliver'): Promise<void> {
  const input: WebhookDeliveryInput = { deliveryId: delivery.id, retry: retryScheduleOf(deps.config) };
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
    if (kind === 'first' && err instanceof WorkflowExecutionAlreadyStartedError) return;
    throw err;
  }
}

export interface EventRef {
  id: string;
  merchantId: string;
  mode: string;
  eventType: string;
}

/**
 * Fans an event out to every live destination of its business and mode that selects its type
 * (an empty selection means every type): one WebhookDelivery row and one workflow per
 * destination. Idempotent: the row is unique per (event, destination) and the start is 'first'.
 * Returns the destinations' ids.
 */
export async function dispatchEvent(deps: DispatchDeps, event: EventRef): Promise<string[]> {
  const configs = await deps.db.webhookConfig.findMany({
    where: {
      merchantId: event.merchantId,
      mode: event.mode,
      deletedAt: null,
      OR: [{ eventTypes: { isEmpty: true } }, { eventTypes: { has: event.eventType } }],
    },
    select: { id: true },
  });
  if (configs.length === 0) return [];
  await deps.db.webhookDelivery.createMany({
    data: configs.map((c) => ({ eventId: event.id, configId: c.id })),
    skipDuplicates: true,
  });
  const deliveries = await deps.db.webhookDelivery.findMany({
    where: { eventId: event.id, configId: { in: configs.map((c) => c.id) } },
    select: { id: true, eventId: true, configId: true },
  });
  await Promise.all(deliveries.map((d) => startDeliveryRun(deps, d, 'first')));
  return deliveries.map((d) => d.configId);
}
