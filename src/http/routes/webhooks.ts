import { WorkflowNotFoundError } from '@temporalio/client';
import { auditRequest } from '../caller';
import type { ApiKeyPrincipal } from '../../auth/principal';
import { generateWebhookSecret } from '../../webhooks/secrets';
import { redeliverEvent, sendTestEvent } from '../../webhooks/manualDelivery';
import { toAttemptRecord, toConfigRecord, toConfigRecordWithSecret } from '../../webhooks/records';
import {
  Attempt,
  ConfigParams,
  ConfigRecord,
  ConfigWithSecret,
  CreateConfigBody,
  DeliveryQueued,
  EventParams,
  HistoryPage,
  HistoryQuery,
  RedeliverBody,
  UpdateConfigBody,
} from '../../webhooks/schemas';
import { checkWebhookUrl, WebhookUrlRefused } from '../../webhooks/urlPolicy';
import { webhookDeliveryWorkflowId } from '../../../workflows/webhooks/definitions';
import type { RouteModule } from '../app';
import type { ApiContext } from '../context';
import { conflict, invalid, notFound } from '../../domain/errors';
import { pageOf } from '../../domain/paging';
import { z } from '../../domain/zod';
import { defineRoute } from '../route';

/**
 * Webhook configuration, history, attempts and manual redelivery (spec 4.4, contracts 2) over the
 * API key ('webhooks' scope). A key sees only its business's destinations and events of its own
 * mode; anything else is 404. Rules and examples: docs/webhooks.md.
 */
const TAG = 'Webhooks';
const CONFIGS = '/api/webhooks/configs';

function principalOf(ctx: ApiContext): ApiKeyPrincipal {
  return ctx.state.principal as ApiKeyPrincipal;
}

/** The caller's live (not deleted) destination, or 404. */
async function ownConfig(ctx: ApiContext, id: string) {
  const p = principalOf(ctx);
  const config = await ctx.deps.db.webhookConfig.findFirst({ where: { id, merchantId: p.merchantId, mode: p.mode, deletedAt: null } });
  if (!config) throw notFound('webhook configuration');
  return config;
}

/** The caller's event, or 404. */
async function ownEvent(ctx: ApiContext, eventId: string) {
  const p = principalOf(ctx);
  const event = await ctx.deps.db.webhookEvent.findFirst({ where: { id: eventId, merchantId: p.merchantId, mode: p.mode } });
  if (!event) throw notFound('webhook event');
  return event;
}

/** The URL rules at configuration time: on the literal host and after name resolution. */
async function acceptableUrl(ctx: ApiContext, url: string): Promise<string> {
  try {
    await checkWebhookUrl(url, ctx.deps.config.WEBHOOK_ALLOW_INSECURE);
    return url; // stored as submitted
  } catch (err) {
    if (err instanceof WebhookUrlRefused) throw invalid(`url: ${err.message}`);
    throw err;
  }
}

export const webhookRoutes: RouteModule = (router, registry) => {
  defineRoute(
    router,
    registry,
    {
      method: 'post',
      path: CONFIGS,
      summary: 'Create a webhook destination; the answer carries the signing secret (only here and after regenerate-key)',
      tag: TAG,
      auth: 'apiKey',
      area: 'webhooks',
      body: CreateConfigBody,
      responses: { 201: { description: 'The destination with its signing secret', schema: ConfigWithSecret } },
      errors: [403],
    },
    async (ctx, { body }) => {
      const p = principalOf(ctx);
      const url = await acceptableUrl(ctx, body.url);
      const config = await ctx.deps.db.$transaction(async (tx) => {
        const created = await tx.webhookConfig.create({
          data: { merchantId: p.merchantId, mode: p.mode, url, description: body.description ?? null, eventTypes: body.eventTypes ?? [], secret: generateWebhookSecret() },
        });
        await auditRequest(ctx, { action: 'WEBHOOK_CONFIG_CREATED', target: { type: 'WEBHOOK_CONFIG', id: created.id }, details: { url, eventTypes: created.eventTypes } }, tx);
        return created;
      });
      ctx.status = 201;
      ctx.set('Location', `${CONFIGS}/${config.id}`);
      ctx.body = toConfigRecordWithSecret(config);
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: CONFIGS,
      summary: 'Your webhook destinations, oldest first (a JSON array; no secrets)',
      tag: TAG,
      auth: 'apiKey',
      area: 'webhooks',
      responses: { 200: { description: 'The destinations', schema: z.array(ConfigRecord) } },
      errors: [403],
    },
    async (ctx) => {
      const p = principalOf(ctx);
      const configs = await ctx.deps.db.webhookConfig.findMany({
        where: { merchantId: p.merchantId, mode: p.mode, deletedAt: null },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      });
      ctx.body = configs.map(toConfigRecord);
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: `${CONFIGS}/{id}`,
      summary: 'One webhook destination (no secret)',
      tag: TAG,
      auth: 'apiKey',
      area: 'webhooks',
      params: ConfigParams,
      responses: { 200: { description: 'The destination', schema: ConfigRecord } },
      errors: [403, 404],
    },
    async (ctx, { params }) => {
      ctx.body = toConfigRecord(await ownConfig(ctx, params.id));
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'put',
      path: `${CONFIGS}/{id}`,
      summary: 'Change the URL, description or event selection; fields left out stay as they are',
      tag: TAG,
      auth: 'apiKey',
      area: 'webhooks',
      params: ConfigParams,
      body: UpdateConfigBody,
      responses: { 200: { description: 'The destination (no secret)', schema: ConfigRecord } },
      errors: [403, 404],
    },
    async (ctx, { params, body }) => {
      const existing = await ownConfig(ctx, params.id);
      const url = body.url === undefined ? undefined : await acceptableUrl(ctx, body.url);
      const config = await ctx.deps.db.$transaction(async (tx) => {
        const updated = await tx.webhookConfig.update({
          where: { id: existing.id },
          data: {
            ...(url !== undefined ? { url } : {}),
            ...(body.description !== undefined ? { description: body.description } : {}),
            ...(body.eventTypes !== undefined ? { eventTypes: body.eventTypes } : {}),
          },
        });
        await auditRequest(ctx, { action: 'WEBHOOK_CONFIG_UPDATED', target: { type: 'WEBHOOK_CONFIG', id: updated.id }, details: { url: updated.url, eventTypes: updated.eventTypes } }, tx);
        return updated;
      });
      ctx.body = toConfigRecord(config);
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'delete',
      path: `${CONFIGS}/{id}`,
      summary: 'Remove a destination; its pending deliveries stop (FAILED) and are not attempted again',
      tag: TAG,
      auth: 'apiKey',
      area: 'webhooks',
      params: ConfigParams,
      responses: { 204: { description: 'Removed' } },
      errors: [403, 404],
    },
    async (ctx, { params }) => {
      const existing = await ownConfig(ctx, params.id);
      const stopped = await ctx.deps.db.$transaction(async (tx) => {
        const pending = await tx.webhookDelivery.findMany({ where: { configId: existing.id, status: 'PENDING' }, select: { eventId: true, configId: true } });
        await tx.webhookConfig.update({ where: { id: existing.id }, data: { deletedAt: new Date() } });
        await tx.webhookDelivery.updateMany({ where: { configId: existing.id, status: 'PENDING' }, data: { status: 'FAILED' } });
        await auditRequest(ctx, { action: 'WEBHOOK_CONFIG_DELETED', target: { type: 'WEBHOOK_CONFIG', id: existing.id }, details: { url: existing.url, pendingStopped: pending.length } }, tx);
        return pending;
      });
      // Cancel the runs still waiting to retry. Best effort: each attempt also checks deletedAt first.
      const results = await Promise.allSettled(
        stopped.map((d) => ctx.deps.temporal.workflow.getHandle(webhookDeliveryWorkflowId(d.eventId, d.configId)).cancel()),
      );
      for (const r of results) {
        if (r.status === 'rejected' && !(r.reason instanceof WorkflowNotFoundError)) ctx.state.log.warn({ err: r.reason, configId: existing.id }, 'could not cancel a webhook delivery run');
      }
      ctx.status = 204;
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'post',
      path: `${CONFIGS}/{id}/regenerate-key`,
      summary: 'Rotate the signing secret; every later attempt, including retries, is signed with the new one',
      tag: TAG,
      auth: 'apiKey',
      area: 'webhooks',
      params: ConfigParams,
      responses: { 200: { description: 'The destination with its new signing secret', schema: ConfigWithSecret } },
      errors: [403, 404],
    },
    async (ctx, { params }) => {
      const existing = await ownConfig(ctx, params.id);
      const config = await ctx.deps.db.$transaction(async (tx) => {
        const updated = await tx.webhookConfig.update({ where: { id: existing.id }, data: { secret: generateWebhookSecret() } });
        await auditRequest(ctx, { action: 'WEBHOOK_SECRET_ROTATED', target: { type: 'WEBHOOK_CONFIG', id: updated.id } }, tx);
        return updated;
      });
      ctx.body = toConfigRecordWithSecret(config);
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'post',
      path: `${CONFIGS}/{id}/test`,
      summary: 'Send a TEST event to this destination now (whatever its event selection); 202 with the event id',
      tag: TAG,
      auth: 'apiKey',
      area: 'webhooks',
      params: ConfigParams,
      responses: { 202: { description: 'The TEST event is queued for delivery', schema: DeliveryQueued } },
      errors: [403, 404],
    },
    async (ctx, { params }) => {
      const config = await ownConfig(ctx, params.id);
      const { eventId, deliveries } = await sendTestEvent(ctx.deps, config, principalOf(ctx).merchantExternalId);
      ctx.status = 202;
      ctx.body = { eventId, eventType: 'TEST', deliveries };
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: `${CONFIGS}/{id}/events`,
      summary: 'Delivery history of this destination, newest first, paged',
      tag: TAG,
      auth: 'apiKey',
      area: 'webhooks',
      params: ConfigParams,
      query: HistoryQuery,
      responses: { 200: { description: 'One page of deliveries', schema: HistoryPage } },
      errors: [403, 404],
    },
    async (ctx, { params, query }) => {
      const config = await ownConfig(ctx, params.id);
      const where = { configId: config.id };
      const [total, rows] = await Promise.all([
        ctx.deps.db.webhookDelivery.count({ where }),
        ctx.deps.db.webhookDelivery.findMany({
          where,
          include: { event: { select: { eventType: true } } },
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          skip: query.page * query.size,
          take: query.size,
        }),
      ]);
      const content = rows.map((d) => ({ eventId: d.eventId, eventType: d.event.eventType, status: d.status, attempts: d.attempts, createdAt: d.createdAt.toISOString() }));
      ctx.body = pageOf(content, total, query);
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: '/api/webhooks/events/{eventId}/attempts',
      summary: 'Every delivery attempt of one event, to every destination, oldest first (a JSON array)',
      tag: TAG,
      auth: 'apiKey',
      area: 'webhooks',
      params: EventParams,
      responses: { 200: { description: 'The attempts', schema: z.array(Attempt) } },
      errors: [403, 404],
    },
    async (ctx, { params }) => {
      const event = await ownEvent(ctx, params.eventId);
      const attempts = await ctx.deps.db.webhookAttempt.findMany({
        where: { delivery: { eventId: event.id } },
        include: { delivery: { select: { configId: true } } },
        orderBy: [{ requestedAt: 'asc' }, { id: 'asc' }],
      });
      ctx.body = attempts.map(toAttemptRecord);
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'post',
      path: '/api/webhooks/events/{eventId}/redeliver',
      summary:
        'Deliver an event again now: to the named destination, or to every live destination that had it or selects its type. 202; attempts continue the numbering',
      tag: TAG,
      auth: 'apiKey',
      area: 'webhooks',
      params: EventParams,
      body: RedeliverBody,
      responses: { 202: { description: 'The deliveries are queued', schema: DeliveryQueued } },
      errors: [403, 404, 409],
    },
    async (ctx, { params, body }) => {
      const event = await ownEvent(ctx, params.eventId);
      let configIds: string[];
      if (body?.configId) {
        configIds = [(await ownConfig(ctx, body.configId)).id];
      } else {
        const p = principalOf(ctx);
        const configs = await ctx.deps.db.webhookConfig.findMany({
          where: {
            merchantId: p.merchantId,
            mode: p.mode,
            deletedAt: null,
            // A TEST event goes back only where it went; a payment event also to destinations that select it now.
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
      const deliveries = await redeliverEvent(ctx.deps, event.id, configIds);
      ctx.status = 202;
      ctx.body = { eventId: event.id, eventType: event.eventType, deliveries };
    },
  );
};
