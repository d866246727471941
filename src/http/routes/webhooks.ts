import type { ZodType } from 'zod';
import type { ApiKeyPrincipal } from '../../auth/principal';
import { z } from '../../domain/zod';
import {
  attemptsOf,
  createConfig,
  deleteConfig,
  deliveryHistory,
  listConfigs,
  ownConfig,
  ownerOfConfig,
  ownerOfEvent,
  redeliver,
  rotateSecret,
  testConfig,
  updateConfig,
  type WebhookOwner,
} from '../../webhooks/configs';
import { toConfigRecord, toConfigRecordWithSecret } from '../../webhooks/records';
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
import type { RouteModule } from '../routeModule';
import { auditSourceOf } from '../caller';
import type { ApiContext } from '../context';
import { ModeChoice, routesOn, type Surface } from '../surface';

/**
 * Webhook configuration, history, attempts and manual redelivery (docs/webhooks.md),
 * declared once and mounted on two surfaces (src/http/surface.ts): the API key ('webhooks' scope)
 * under /api/webhooks, and the dashboard (ADMIN, the 'webhooks' area) under /api/dashboard/webhooks.
 * Parse, call src/webhooks/configs.ts, answer. A key sees only its business's destinations and
 * events of its own mode; a signed-in user manages the business's live and test destinations alike,
 * each destination and event handled in its own mode. Anything else is 404. Rules: docs/webhooks.md.
 */
type CreateInput = z.infer<typeof CreateConfigBody> & { mode?: ModeChoice };

/** How a surface finds whose destinations and events a request names. */
export interface WebhookOwners {
  /** The listing's query (the dashboard's mode choice); none on the API key. */
  ListQuery?: ZodType<{ mode?: ModeChoice }>;
  CreateBody: ZodType<CreateInput>;
  /** Whose destinations a listing shows; `mode` the dashboard's choice. */
  listed(ctx: ApiContext, mode: ModeChoice | undefined): WebhookOwner[];
  /** Who owns a new destination; `mode` the dashboard's choice. */
  created(ctx: ApiContext, mode: ModeChoice | undefined): WebhookOwner;
  ofConfig(ctx: ApiContext, id: string): Promise<WebhookOwner>;
  ofEvent(ctx: ApiContext, eventId: string): Promise<WebhookOwner>;
}

const keyOwner = (ctx: ApiContext): WebhookOwner => {
  const principal = ctx.state.principal as ApiKeyPrincipal;
  return { merchantId: principal.merchantId, mode: principal.mode };
};
const merchantOf = (ctx: ApiContext): string => ctx.state.principal!.merchantId;

export const apiKeyWebhooks: Surface<WebhookOwners> = {
  name: 'apiKey',
  prefix: '/api',
  auth: 'apiKey',
  tag: 'Webhooks',
  owner: {
    CreateBody: CreateConfigBody,
    listed: (ctx) => [keyOwner(ctx)],
    created: keyOwner,
    ofConfig: async (ctx) => keyOwner(ctx),
    ofEvent: async (ctx) => keyOwner(ctx),
  },
};

export const dashboardWebhooks: Surface<WebhookOwners> = {
  name: 'dashboard',
  prefix: '/api/dashboard',
  auth: 'session',
  tag: 'Dashboard webhooks',
  owner: {
    ListQuery: z.strictObject({ mode: ModeChoice.optional().openapi({ description: 'Only live or only test destinations; absent: both' }) }),
    CreateBody: CreateConfigBody.extend({ mode: ModeChoice.optional().openapi({ description: 'Which events arrive: live (default) or test' }) })
      .strict()
      .openapi('DashboardWebhookConfigCreate'),
    listed: (ctx, mode) => (mode ? [mode] : (['live', 'test'] as const)).map((m) => ({ merchantId: merchantOf(ctx), mode: m })),
    created: (ctx, mode) => ({ merchantId: merchantOf(ctx), mode: mode ?? 'live' }),
    ofConfig: (ctx, id) => ownerOfConfig(ctx.deps, merchantOf(ctx), id),
    ofEvent: (ctx, eventId) => ownerOfEvent(ctx.deps, merchantOf(ctx), eventId),
  },
};

export function webhookRoutesOn(surface: Surface<WebhookOwners>): RouteModule {
  const owners = surface.owner;
  const CONFIGS = `${surface.prefix}/webhooks/configs`;
  const EVENTS = `${surface.prefix}/webhooks/events`;
  return (router, registry) => {
    const route = routesOn(router, registry, surface, 'webhooks');

    route(
      {
        method: 'get',
        path: CONFIGS,
        operationId: 'listWebhookConfigs',
        summary: {
          apiKey: 'Your webhook destinations, oldest first (a JSON array; no secrets)',
          dashboard: 'The business’s webhook destinations, live and test, oldest first (no secrets)',
        },
        query: owners.ListQuery,
        responses: { 200: { description: 'The destinations', schema: z.array(ConfigRecord) } },
        errors: [403],
      },
      async (ctx, { query }) => {
        const lists = await Promise.all(owners.listed(ctx, query?.mode).map((owner) => listConfigs(ctx.deps, owner)));
        // One owner's list comes oldest first; the lists of both modes are merged in that order.
        const configs = lists.length === 1 ? lists[0] : lists.flat().sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
        ctx.body = configs.map(toConfigRecord);
      },
    );

    route(
      {
        method: 'post',
        path: CONFIGS,
        operationId: 'createWebhookConfig',
        summary: {
          apiKey: 'Create a webhook destination; the answer carries the signing secret (only here and after regenerate-key)',
          dashboard: 'Create a webhook destination; the answer carries the signing secret, shown only here and after regenerate-key',
        },
        body: owners.CreateBody,
        responses: { 201: { description: 'The destination with its signing secret', schema: ConfigWithSecret } },
        errors: [403],
      },
      async (ctx, { body }) => {
        const { mode, ...input } = body;
        const config = await createConfig(ctx.deps, owners.created(ctx, mode), auditSourceOf(ctx), input);
        ctx.status = 201;
        ctx.set('Location', `${CONFIGS}/${config.id}`);
        ctx.body = toConfigRecordWithSecret(config);
      },
    );

    route(
      {
        method: 'get',
        path: `${CONFIGS}/{id}`,
        operationId: 'getWebhookConfig',
        summary: 'One webhook destination (no secret)',
        params: ConfigParams,
        responses: { 200: { description: 'The destination', schema: ConfigRecord } },
        errors: [403, 404],
      },
      async (ctx, { params }) => {
        ctx.body = toConfigRecord(await ownConfig(ctx.deps, await owners.ofConfig(ctx, params.id), params.id));
      },
    );

    route(
      {
        method: 'put',
        path: `${CONFIGS}/{id}`,
        operationId: 'updateWebhookConfig',
        summary: 'Change the URL, description or event selection; fields left out stay as they are',
        params: ConfigParams,
        body: UpdateConfigBody,
        responses: { 200: { description: 'The destination (no secret)', schema: ConfigRecord } },
        errors: [403, 404],
      },
      async (ctx, { params, body }) => {
        const owner = await owners.ofConfig(ctx, params.id);
        ctx.body = toConfigRecord(await updateConfig(ctx.deps, owner, auditSourceOf(ctx), params.id, body));
      },
    );

    route(
      {
        method: 'delete',
        path: `${CONFIGS}/{id}`,
        operationId: 'deleteWebhookConfig',
        summary: {
          apiKey: 'Remove a destination; its pending deliveries stop (FAILED) and are not attempted again',
          dashboard: 'Remove a destination; its pending deliveries stop (FAILED)',
        },
        params: ConfigParams,
        responses: { 204: { description: 'Removed' } },
        errors: [403, 404],
      },
      async (ctx, { params }) => {
        const owner = await owners.ofConfig(ctx, params.id);
        await deleteConfig({ ...ctx.deps, logger: ctx.state.log }, owner, auditSourceOf(ctx), params.id);
        ctx.status = 204;
      },
    );

    route(
      {
        method: 'post',
        path: `${CONFIGS}/{id}/regenerate-key`,
        operationId: 'regenerateWebhookSecret',
        summary: {
          apiKey: 'Rotate the signing secret; every later attempt, including retries, is signed with the new one',
          dashboard: 'Rotate the signing secret; the answer carries the new one, shown only here',
        },
        params: ConfigParams,
        responses: { 200: { description: 'The destination with its new signing secret', schema: ConfigWithSecret } },
        errors: [403, 404],
      },
      async (ctx, { params }) => {
        const owner = await owners.ofConfig(ctx, params.id);
        ctx.body = toConfigRecordWithSecret(await rotateSecret(ctx.deps, owner, auditSourceOf(ctx), params.id));
      },
    );

    route(
      {
        method: 'post',
        path: `${CONFIGS}/{id}/test`,
        operationId: 'sendWebhookTest',
        summary: {
          apiKey: 'Send a TEST event to this destination now (whatever its event selection); 202 with the event id',
          dashboard: 'Send a TEST event to this destination now; 202 with the event id',
        },
        params: ConfigParams,
        responses: { 202: { description: 'The TEST event is queued for delivery', schema: DeliveryQueued } },
        errors: [403, 404],
      },
      async (ctx, { params }) => {
        const owner = await owners.ofConfig(ctx, params.id);
        ctx.body = await testConfig(ctx.deps, owner, ctx.state.principal!.merchantExternalId, params.id);
        ctx.status = 202;
      },
    );

    route(
      {
        method: 'get',
        path: `${CONFIGS}/{id}/events`,
        operationId: 'listWebhookDeliveries',
        summary: { apiKey: 'Delivery history of this destination, newest first, paged', dashboard: 'Deliveries to this destination, newest first, paged' },
        params: ConfigParams,
        query: HistoryQuery,
        responses: { 200: { description: 'One page of deliveries', schema: HistoryPage } },
        errors: [403, 404],
      },
      async (ctx, { params, query }) => {
        ctx.body = await deliveryHistory(ctx.deps, await owners.ofConfig(ctx, params.id), params.id, query);
      },
    );

    route(
      {
        method: 'get',
        path: `${EVENTS}/{eventId}/attempts`,
        operationId: 'listWebhookAttempts',
        summary: {
          apiKey: 'Every delivery attempt of one event, to every destination, oldest first (a JSON array)',
          dashboard: 'Every delivery attempt of one event, to every destination, oldest first',
        },
        params: EventParams,
        responses: { 200: { description: 'The attempts', schema: z.array(Attempt) } },
        errors: [403, 404],
      },
      async (ctx, { params }) => {
        ctx.body = await attemptsOf(ctx.deps, await owners.ofEvent(ctx, params.eventId), params.eventId);
      },
    );

    route(
      {
        method: 'post',
        path: `${EVENTS}/{eventId}/redeliver`,
        operationId: 'redeliverWebhookEvent',
        summary: {
          apiKey:
            'Deliver an event again now: to the named destination, or to every live destination that had it or selects its type. 202; attempts continue the numbering',
          dashboard: 'Deliver an event again now: to the named destination, or to every live destination that had it or selects its type. 202',
        },
        params: EventParams,
        body: RedeliverBody,
        responses: { 202: { description: 'The deliveries are queued', schema: DeliveryQueued } },
        errors: [403, 404, 409],
      },
      async (ctx, { params, body }) => {
        const owner = await owners.ofEvent(ctx, params.eventId);
        ctx.body = await redeliver(ctx.deps, owner, params.eventId, body?.configId ?? undefined);
        ctx.status = 202;
      },
    );
  };
}

export const webhookRoutes = webhookRoutesOn(apiKeyWebhooks);
export const dashboardWebhookRoutes = webhookRoutesOn(dashboardWebhooks);
