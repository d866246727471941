import { API_KEY_SCOPES } from '../../auth/roles';
import { ApiKeyRecord, IssuedApiKey, issueApiKey, listApiKeys, revokeApiKey, rotateApiKey } from '../../users/apiKeyManagement';
import { callerOf } from '../caller';
import type { RouteModule } from '../routeModule';
import { z } from '../../domain/zod';
import { defineRoute } from '../route';

/** API key management (docs/users-and-keys.md, "API keys"): a signed-in ADMIN issues, lists, rotates and revokes the merchant's keys. */
const TAG = 'API keys';

const KeyIdParams = z.object({ id: z.string().min(1).max(100) });

const CreateKeyBody = z
  .strictObject({
    name: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
    mode: z.enum(['live', 'test'], { message: "must be 'live' or 'test'" }),
    scopes: z
      .array(z.enum(API_KEY_SCOPES, { message: `must be one of ${API_KEY_SCOPES.join(', ')}` }))
      .min(1, 'must name at least one scope')
      .optional()
      .openapi({ description: `What the key may reach; default all of ${API_KEY_SCOPES.join(', ')}` }),
  })
  .openapi('CreateApiKeyRequest');

const RotatedKey = IssuedApiKey.extend({
  previousKey: ApiKeyRecord.openapi({ description: 'The replaced key: status ROTATED, working until its expiresAt (KEY_ROTATION_GRACE_HOURS)' }),
}).openapi('RotatedApiKey');

export const apiKeyRoutes: RouteModule = (router, registry) => {
  defineRoute(
    router,
    registry,
    {
      method: 'post',
      path: '/api/api-keys',
      operationId: 'createApiKey',
      summary: 'Issue an API key (live or test). The key is in this response only',
      tag: TAG,
      auth: 'session',
      area: 'apiKeys',
      body: CreateKeyBody,
      responses: { 201: { description: 'The new key, shown once', schema: IssuedApiKey } },
      errors: [403],
    },
    async (ctx, { body }) => {
      ctx.status = 201;
      ctx.body = await issueApiKey(ctx.deps.db, callerOf(ctx), body);
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: '/api/api-keys',
      operationId: 'listApiKeys',
      summary: "The merchant's API keys, newest first, without secrets",
      tag: TAG,
      auth: 'session',
      area: 'apiKeys',
      responses: { 200: { description: 'Keys', schema: z.array(ApiKeyRecord) } },
      errors: [403],
    },
    async (ctx) => {
      ctx.body = await listApiKeys(ctx.deps.db, callerOf(ctx));
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'post',
      path: '/api/api-keys/{id}/rotate',
      operationId: 'rotateApiKey',
      summary: 'Issue a replacement; the old key keeps working for KEY_ROTATION_GRACE_HOURS (24 h)',
      tag: TAG,
      auth: 'session',
      area: 'apiKeys',
      params: KeyIdParams,
      responses: { 201: { description: 'The replacement key, shown once', schema: RotatedKey } },
      errors: [403, 404, 409],
    },
    async (ctx, { params }) => {
      ctx.status = 201;
      ctx.body = await rotateApiKey(ctx.deps.db, callerOf(ctx), params.id, ctx.deps.config.KEY_ROTATION_GRACE_HOURS);
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'delete',
      path: '/api/api-keys/{id}',
      operationId: 'revokeApiKey',
      summary: 'Revoke a key at once (also a rotated key in its grace period)',
      tag: TAG,
      auth: 'session',
      area: 'apiKeys',
      params: KeyIdParams,
      responses: { 204: { description: 'Revoked' } },
      errors: [403, 404],
    },
    async (ctx, { params }) => {
      await revokeApiKey(ctx.deps.db, callerOf(ctx), params.id);
      ctx.status = 204;
    },
  );
};
