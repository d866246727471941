import type { ApiKeyPrincipal } from '../../auth/principal';
import { z } from '../../domain/zod';
import {
  attemptsOf,
  createConfig,
  deleteConfig,
  deliveryHistory,
  listConfigs,
  ownConfig,
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
import type { RouteModule } from '../app';
import { auditSourceOf } from '../caller';
import type { ApiContext } from '../context';
import { defineRoute } from '../route';

/**
 * Webhook configuration, history, attempts and manual redelivery (spec 4.4, contracts 2) over the
 * API key ('webhooks' scope): parse, call src/webhooks/configs.ts, answer. A key sees only its
 * business's destinations and events of its own mode; anything else is 404. Rules: docs/webhooks.md.
 */
const TAG = 'Webhooks';
const CONFIGS = '/api/webhooks/configs';

function principalOf(ctx: ApiContext): ApiKeyPrincipal {
  return ctx.state.principal as ApiKeyPrincipal;
}

const ownerOf = (ctx: ApiContext): WebhookOwner => ({ merchantId: principalOf(ctx).merchantId, mode: principalOf(ctx).mode });

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
      const config = await createConfig(ctx.deps, ownerOf(ctx), auditSourceOf(ctx), body);
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
      ctx.body = (await listConfigs(ctx.deps, ownerOf(ctx))).map(toConfigRecord);
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
      ctx.body = toConfigRecord(await ownConfig(ctx.deps, ownerOf(ctx), params.id));
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
      ctx.body = toConfigRecord(await updateConfig(ctx.deps, ownerOf(ctx), auditSourceOf(ctx), params.id, body));
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
      await deleteConfig({ ...ctx.deps, logger: ctx.state.log }, ownerOf(ctx), auditSourceOf(ctx), params.id);
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
      ctx.body = toConfigRecordWithSecret(await rotateSecret(ctx.deps, ownerOf(ctx), auditSourceOf(ctx), params.id));
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
      ctx.body = await testConfig(ctx.deps, ownerOf(ctx), principalOf(ctx).merchantExternalId, params.id);
      ctx.status = 202;
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
      ctx.body = await deliveryHistory(ctx.deps, ownerOf(ctx), params.id, query);
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
      ctx.body = await attemptsOf(ctx.deps, ownerOf(ctx), params.eventId);
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
      ctx.body = await redeliver(ctx.deps, ownerOf(ctx), params.eventId, body?.configId ?? undefined);
      ctx.status = 202;
    },
  );
};
