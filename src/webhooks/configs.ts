import { WorkflowNotFoundError } from '@temporalio/client';
import { auditFor, type AuditSource } from '../audit/audit';
import { conflict, invalid, notFound } from '../domain/errors';
import { pageOf, type Page } from '../domain/paging';
import { listArgs } from '../domain/listQuery';
import type { WebhookConfig, WebhookEvent } from '../generated/prisma/client';
import type { Logger } from '../logger';
import { webhookDeliveryWorkflowId } from '../../core/webhooks/delivery';
import type { DispatchDeps } from './dispatch';
import { redeliverEvent, sendTestEvent, type QueuedDelivery } from './manualDelivery';
import { toAttemptRecord } from './records';
import { sealSecret } from '../secrets/active';
import { generateWebhookSecret } from './secrets';
import { WEBHOOK_URL_MAX_LENGTH } from './schemas';
import { checkWebhookUrl, WebhookUrlRefused } from './urlPolicy';

/**
 * Webhook destinations, their history and manual redelivery (docs/webhooks.md). An owner (a
 * business in one mode) sees only its own destinations and events; anything else is not found.
 * Each change commits with its audit entry. Rules and examples: docs/webhooks.md.
 */

/** Whose destinations: a business in one mode (live or test), as its API key says. */
export interface WebhookOwner {
  merchantId: string;
  mode: string;
}

export interface WebhookDeps extends DispatchDeps {
  logger: Logger;
}

/** The owner's live (not deleted) destination, or not found. */
export async function ownConfig(deps: DispatchDeps, owner: WebhookOwner, id: string): Promise<WebhookConfig> {
  const config = await deps.db.webhookConfig.findFirst({ where: { id, merchantId: owner.merchantId, mode: owner.mode, deletedAt: null } });
  if (!config) throw notFound('webhook configuration');
  return config;
}

/** The owner's event, or not found. */
async function ownEvent(deps: DispatchDeps, owner: WebhookOwner, eventId: string): Promise<WebhookEvent> {
  const event = await deps.db.webhookEvent.findFirst({ where: { id: eventId, merchantId: owner.merchantId, mode: owner.mode } });
  if (!event) throw notFound('webhook event');
  return event;
}

/**
 * The owner of a business's destination or event in whichever mode it was made: a signed-in
 * dashboard user manages both modes, and the row's own mode then scopes what follows, as a key of
 * that mode would. Another business's, or a deleted destination: not found.
 */
export async function ownerOfConfig(deps: DispatchDeps, merchantId: string, id: string): Promise<WebhookOwner> {
  const config = await deps.db.webhookConfig.findFirst({ where: { id, merchantId, deletedAt: null }, select: { mode: true } });
  if (!config) throw notFound('webhook configuration');
  return { merchantId, mode: config.mode };
}

export async function ownerOfEvent(deps: DispatchDeps, merchantId: string, eventId: string): Promise<WebhookOwner> {
  const event = await deps.db.webhookEvent.findFirst({ where: { id: eventId, merchantId }, select: { mode: true } });
  if (!event) throw notFound('webhook event');
  return { merchantId, mode: event.mode };
}

/**
 * The URL rules at configuration time: on the literal host and after name resolution. Returns the
 * URL as parsed (`href`: trimmed, scheme and host lower case, default port dropped), which is what
 * is stored and delivered to: the string checked is the string used, never a raw one that another
 * parser could read differently.
 */
async function acceptableUrl(deps: DispatchDeps, url: string): Promise<string> {
  let href: string;
  try {
    href = (await checkWebhookUrl(url, deps.config.WEBHOOK_ALLOW_INSECURE)).href;
  } catch (err) {
    if (err instanceof WebhookUrlRefused) throw invalid(`url: ${err.message}`);
    throw err;
  }
  if (href.length > WEBHOOK_URL_MAX_LENGTH) throw invalid(`url: must be at most ${WEBHOOK_URL_MAX_LENGTH} characters once normalised (${href.length})`);
  return href;
}

export async function createConfig(
  deps: DispatchDeps,
  owner: WebhookOwner,
  by: AuditSource,
  input: { url: string; description?: string | null; eventTypes?: string[] },
): Promise<WebhookConfig> {
  const url = await acceptableUrl(deps, input.url);
  return deps.db.$transaction(async (tx) => {
    const created = await tx.webhookConfig.create({
      data: {
        merchantId: owner.merchantId,
        mode: owner.mode,
        url,
        description: input.description ?? null,
        eventTypes: input.eventTypes ?? [],
        secret: sealSecret(generateWebhookSecret(), 'webhook'),
      },
    });
    await auditFor(tx, by, {
      action: 'WEBHOOK_CONFIG_CREATED',
      target: { type: 'WEBHOOK_CONFIG', id: created.id },
      details: { url, eventTypes: created.eventTypes },
    });
    return created;
  });
}

/** The owner's destinations, oldest first. */
export function listConfigs(deps: DispatchDeps, owner: WebhookOwner): Promise<WebhookConfig[]> {
  return deps.db.webhookConfig.findMany({
    where: { merchantId: owner.merchantId, mode: owner.mode, deletedAt: null },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
}

/** Fields left out (undefined) stay as they are. */
export async function updateConfig(
  deps: DispatchDeps,
  owner: WebhookOwner,
  by: AuditSource,
  id: string,
  input: { url?: string; description?: string | null; eventTypes?: string[] },
): Promise<WebhookConfig> {
  const existing = await ownConfig(deps, owner, id);
  const url = input.url === undefined ? undefined : await acceptableUrl(deps, input.url);
  return deps.db.$transaction(async (tx) => {
    const updated = await tx.webhookConfig.update({
      where: { id: existing.id },
      data: {
        ...(url !== undefined ? { url } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.eventTypes !== undefined ? { eventTypes: input.eventTypes } : {}),
      },
    });
    await auditFor(tx, by, {
      action: 'WEBHOOK_CONFIG_UPDATED',
      target: { type: 'WEBHOOK_CONFIG', id: updated.id },
      details: { url: updated.url, eventTypes: updated.eventTypes },
    });
    return updated;
  });
}

/** Removes a destination: its pending deliveries become FAILED and their runs are cancelled. */
export async function deleteConfig(deps: WebhookDeps, owner: WebhookOwner, by: AuditSource, id: string): Promise<void> {
  const existing = await ownConfig(deps, owner, id);
  const stopped = await deps.db.$transaction(async (tx) => {
    const pending = await tx.webhookDelivery.findMany({ where: { configId: existing.id, status: 'PENDING' }, select: { eventId: true, configId: true } });
    await tx.webhookConfig.update({ where: { id: existing.id }, data: { deletedAt: new Date() } });
    await tx.webhookDelivery.updateMany({ where: { configId: existing.id, status: 'PENDING' }, data: { status: 'FAILED' } });
    await auditFor(tx, by, {
      action: 'WEBHOOK_CONFIG_DELETED',
      target: { type: 'WEBHOOK_CONFIG', id: existing.id },
      details: { url: existing.url, pendingStopped: pending.length },
    });
    return pending;
  });
  // Cancel the runs still waiting to retry. Best effort: each attempt also checks deletedAt first.
  const results = await Promise.allSettled(stopped.map((d) => deps.temporal.workflow.getHandle(webhookDeliveryWorkflowId(d.eventId, d.configId)).cancel()));
  for (const r of results) {
    if (r.status === 'rejected' && !(r.reason instanceof WorkflowNotFoundError))
      deps.logger.warn({ err: r.reason, configId: existing.id }, 'could not cancel a webhook delivery run');
  }
}

/** A new signing secret; every later attempt, retries included, is signed with it. */
export async function rotateSecret(deps: DispatchDeps, owner: WebhookOwner, by: AuditSource, id: string): Promise<WebhookConfig> {
  const existing = await ownConfig(deps, owner, id);
  return deps.db.$transaction(async (tx) => {
    const updated = await tx.webhookConfig.update({ where: { id: existing.id }, data: { secret: sealSecret(generateWebhookSecret(), 'webhook') } });
    await auditFor(tx, by, { action: 'WEBHOOK_SECRET_ROTATED', target: { type: 'WEBHOOK_CONFIG', id: updated.id } });
    return updated;
  });
}

export interface QueuedEvent {
  eventId: string;
  eventType: string;
  deliveries: QueuedDelivery[];
}

/** A TEST event to this destination now, whatever its event selection. */
export async function testConfig(deps: DispatchDeps, owner: WebhookOwner, merchantExternalId: string, id: string): Promise<QueuedEvent> {
  const config = await ownConfig(deps, owner, id);
  const { eventId, deliveries } = await sendTestEvent(deps, config, merchantExternalId);
  return { eventId, eventType: 'TEST', deliveries };
}

export interface HistoryEntry {
  eventId: string;
  eventType: string;
  status: string;
  attempts: number;
  createdAt: string;
}

/** Deliveries to one destination, newest first, one page. */
export async function deliveryHistory(
  deps: DispatchDeps,
  owner: WebhookOwner,
  id: string,
  paging: { page: number; size: number },
): Promise<Page<HistoryEntry>> {
  const config = await ownConfig(deps, owner, id);
  const where = { configId: config.id };
  const [total, rows] = await Promise.all([
    deps.db.webhookDelivery.count({ where }),
    deps.db.webhookDelivery.findMany({
      where,
      include: { event: { select: { eventType: true } } },
      ...listArgs('createdAt', paging),
    }),
  ]);
  const content = rows.map((d) => ({
    eventId: d.eventId,
    eventType: d.event.eventType,
    status: d.status,
    attempts: d.attempts,
    createdAt: d.createdAt.toISOString(),
  }));
  return pageOf(content, total, paging);
}

/** Every attempt of one event, to every destination, oldest first. */
export async function attemptsOf(deps: DispatchDeps, owner: WebhookOwner, eventId: string): Promise<ReturnType<typeof toAttemptRecord>[]> {
  const event = await ownEvent(deps, owner, eventId);
  const attempts = await deps.db.webhookAttempt.findMany({
    where: { delivery: { eventId: event.id } },
    include: { delivery: { select: { configId: true } } },
    orderBy: [{ requestedAt: 'asc' }, { id: 'asc' }],
  });
  return attempts.map(toAttemptRecord);
}

/**
 * The redelivery rule: to the named destination; otherwise to every live destination that had the
 * event, and for a payment event also to those that select its type now (a TEST event goes back
 * only where it went). None at all is a conflict.
 */
export async function redeliver(deps: DispatchDeps, owner: WebhookOwner, eventId: string, configId?: string): Promise<QueuedEvent> {
  const event = await ownEvent(deps, owner, eventId);
  let configIds: string[];
  if (configId) {
    configIds = [(await ownConfig(deps, owner, configId)).id];
  } else {
    const configs = await deps.db.webhookConfig.findMany({
      where: {
        merchantId: owner.merchantId,
        mode: owner.mode,
        deletedAt: null,
        OR:
          event.eventType === 'TEST'
            ? [{ deliveries: { some: { eventId: event.id } } }]
            : [{ deliveries: { some: { eventId: event.id } } }, { eventTypes: { isEmpty: true } }, { eventTypes: { has: event.eventType } }],
      },
      select: { id: true },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    configIds = configs.map((c) => c.id);
    if (configIds.length === 0) throw conflict('this event has no live destination to go to: create one, or name a configId');
  }
  const deliveries = await redeliverEvent(deps, event.id, configIds);
  return { eventId: event.id, eventType: event.eventType, deliveries };
}
