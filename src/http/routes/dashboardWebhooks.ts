import { z } from '../../domain/zod';
import {
  attemptsOf,
  createConfig,
  deleteConfig,
  deliveryHistory,
  listConfigs,
  updateConfig,
  ownConfig,
  ownerOfConfig,
  ownerOfEvent,
  redeliver,
  rotateSecret,
  testConfig,
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
import type { RouteModule } from '../app';
import { auditSourceOf, callerOf } from '../caller';
import type { ApiContext } from '../context';
import { defineRoute } from '../route';

/**
 * Webhook destinations, their deliveries, attempts and redelivery in the dashboard (contracts 9;
 * spec 2.9: ADMIN, the 'webhooks' area) with a session token, by the code the API-key endpoints
 * use (src/webhooks/configs.ts). A signed-in user manages the business's live and test
 * destinations alike: each destination and event is handled in its own mode.
 */
const TAG = 'Dashboard webhooks';
const CONFIGS = '/api/dashboard/webhooks/configs';
const EVENTS = '/api/dashboard/webhooks/events';

const Mode = z.enum(['live', 'test'], { message: "must be 'live' or 'test'" });
const ListQuery = z.strictObject({ mode: Mode.optional().openapi({ description: 'Only live or only test destinations; absent: both' }) });
const CreateBody = CreateConfigBody.extend({ mode: Mode.optional().openapi({ description: 'Which events arrive: live (default) or test' }) })
  .strict()
  .openapi('DashboardWebhookConfigCreate');

const merchantOf = (ctx: ApiContext): string => callerOf(ctx).principal.merchantId;

export const dashboardWebhookRoutes: RouteModule = (router, registry) => {
  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: CONFIGS,
      summary: 'The business’s webhook destinations, live and test, oldest first (no secrets)',
      tag: TAG,
      auth: 'session',
      area: 'webhooks',
      query: ListQuery,
      responses: { 200: { description: 'The destinations', schema: z.array(ConfigRecord) } },
      errors: [403],
    },
    async (ctx, { query }) => {
      const merchantId = merchantOf(ctx);
      const modes = query.mode ? [query.mode] : ['live', 'test'];
      const configs = (await Promise.all(modes.map((mode) => listConfigs(ctx.deps, { merchantId, mode })))).flat();
      configs.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
      ctx.body = configs.map(toConfigRecord);
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'post',
      path: CONFIGS,
      summary: 'Create a webhook destination; the answer carries the signing secret, shown only here and after regenerate-key',
      tag: TAG,
      auth: 'session',
      area: 'webhooks',
      body: CreateBody,
      responses: { 201: { description: 'The destination with its signing secret', schema: ConfigWithSecret } },
      errors: [403],
    },
    async (ctx, { body }) => {
      const { mode, ...input } = body;
      const config = await createConfig(ctx.deps, { merchantId: merchantOf(ctx), mode: mode ?? 'live' }, auditSourceOf(ctx), input);
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
      path: `${CONFIGS}/{id}`,
      summary: 'One webhook destination (no secret)',
      tag: TAG,
      auth: 'session',
      area: 'webhooks',
      params: ConfigParams,
      responses: { 200: { description: 'The destination', schema: ConfigRecord } },
      errors: [403, 404],
    },
    async (ctx, { params }) => {
      const owner = await ownerOfConfig(ctx.deps, merchantOf(ctx), params.id);
      ctx.body = toConfigRecord(await ownConfig(ctx.deps, owner, params.id));
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
      auth: 'session',
      area: 'webhooks',
      params: ConfigParams,
      body: UpdateConfigBody,
      responses: { 200: { description: 'The destination (no secret)', schema: ConfigRecord } },
      errors: [403, 404],
    },
    async (ctx, { params, body }) => {
      const owner = await ownerOfConfig(ctx.deps, merchantOf(ctx), params.id);
      ctx.body = toConfigRecord(await updateConfig(ctx.deps, owner, auditSourceOf(ctx), params.id, body));
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'delete',
      path: `${CONFIGS}/{id}`,
      summary: 'Remove a destination; its pending deliveries stop (FAILED)',
      tag: TAG,
      auth: 'session',
      area: 'webhooks',
      params: ConfigParams,
      responses: { 204: { description: 'Removed' } },
      errors: [403, 404],
    },
    async (ctx, { params }) => {
      const owner = await ownerOfConfig(ctx.deps, merchantOf(ctx), params.id);
      await deleteConfig({ ...ctx.deps, logger: ctx.state.log }, owner, auditSourceOf(ctx), params.id);
      ctx.status = 204;
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'post',
      path: `${CONFIGS}/{id}/regenerate-key`,
      summary: 'Rotate the signing secret; the answer carries the new one, shown only here',
      tag: TAG,
      auth: 'session',
      area: 'webhooks',
      params: ConfigParams,
      responses: { 200: { description: 'The destination with its new signing secret', schema: ConfigWithSecret } },
      errors: [403, 404],
    },
    async (ctx, { params }) => {
      const owner = await ownerOfConfig(ctx.deps, merchantOf(ctx), params.id);
      ctx.body = toConfigRecordWithSecret(await rotateSecret(ctx.deps, owner, auditSourceOf(ctx), params.id));
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'post',
      path: `${CONFIGS}/{id}/test`,
      summary: 'Send a TEST event to this destination now; 202 with the event id',
      tag: TAG,
      auth: 'session',
      area: 'webhooks',
      params: ConfigParams,
      responses: { 202: { description: 'The TEST event is queued for delivery', schema: DeliveryQueued } },
      errors: [403, 404],
    },
    async (ctx, { params }) => {
      const owner = await ownerOfConfig(ctx.deps, merchantOf(ctx), params.id);
      ctx.body = await testConfig(ctx.deps, owner, callerOf(ctx).principal.merchantExternalId, params.id);
      ctx.status = 202;
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: `${CONFIGS}/{id}/events`,
      summary: 'Deliveries to this destination, newest first, paged',
      tag: TAG,
      auth: 'session',
      area: 'webhooks',
      params: ConfigParams,
      query: HistoryQuery,
      responses: { 200: { description: 'One page of deliveries', schema: HistoryPage } },
      errors: [403, 404],
    },
    async (ctx, { params, query }) => {
      const owner = await ownerOfConfig(ctx.deps, merchantOf(ctx), params.id);
      ctx.body = await deliveryHistory(ctx.deps, owner, params.id, query);
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: `${EVENTS}/{eventId}/attempts`,
      summary: 'Every delivery attempt of one event, to every destination, oldest first',
      tag: TAG,
      auth: 'session',
      area: 'webhooks',
      params: EventParams,
      responses: { 200: { description: 'The attempts', schema: z.array(Attempt) } },
      errors: [403, 404],
    },
    async (ctx, { params }) => {
      const owner = await ownerOfEvent(ctx.deps, merchantOf(ctx), params.eventId);
      ctx.body = await attemptsOf(ctx.deps, owner, params.eventId);
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'post',
      path: `${EVENTS}/{eventId}/redeliver`,
      summary: 'Deliver an event again now: to the named destination, or to every live destination that had it or selects its type. 202',
      tag: TAG,
      auth: 'session',
      area: 'webhooks',
      params: EventParams,
      body: RedeliverBody,
      responses: { 202: { description: 'The deliveries are queued', schema: DeliveryQueued } },
      errors: [403, 404, 409],
    },
    async (ctx, { params, body }) => {
      const owner = await ownerOfEvent(ctx.deps, merchantOf(ctx), params.eventId);
      ctx.body = await redeliver(ctx.deps, owner, params.eventId, body?.configId ?? undefined);
      ctx.status = 202;
    },
  );
};
