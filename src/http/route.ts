import type Router from '@koa/router';
import type { OpenAPIRegistry, RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { ZodType, z } from 'zod';
import type { Area } from '../auth/roles';
import { authenticate, type AuthKind } from './auth';
import type { ApiContext } from './context';
import { ErrorBody } from './openapi';
import { parseOr400, rejectHostileShapes } from './validation';

/**
 * One declaration per endpoint: it registers the OpenAPI operation and mounts the Koa handler with
 * authentication, the area check, and zod validation of path, query and body from the same schemas.
 */
export interface RouteSpec<P extends ZodType, Q extends ZodType, B extends ZodType> {
  method: 'get' | 'post' | 'put' | 'delete';
  /** OpenAPI style: /api/things/{id} */
  path: string;
  /**
   * Unique, lowerCamelCase verb + resource (README, "API reference": `createPayment`, `listTransactions`): the
   * name a generated client gives this operation's function. Required, so no route ships without one.
   */
  operationId: string;
  summary: string;
  tag: string;
  auth: AuthKind;
  area?: Area;
  params?: P;
  query?: Q;
  body?: B;
  /** Request headers the operation reads, for the document (the handler checks them itself). */
  headers?: ZodType;
  /**
   * Success responses: status -> schema (or description only). `text`: the media type the same
   * answer also comes in as text when the query's `format` asks for it (a receipt's printable page,
   * a report's CSV), so the API description names both.
   */
  responses: Record<number, { description: string; schema?: ZodType; text?: 'text/html' | 'text/csv' }>;
  /** Error statuses this route documents besides 400/401/429. */
  errors?: number[];
}

export interface RouteInput<P extends ZodType, Q extends ZodType, B extends ZodType> {
  params: z.infer<P>;
  query: z.infer<Q>;
  body: z.infer<B>;
}

const ERROR_TEXT: Record<number, string> = {
  400: 'Validation failed; message names the field and the reason',
  401: 'Missing or invalid credentials',
  403: 'Credentials valid but outside the permissions',
  404: 'Not found, including resources of another business',
  409: 'Conflict with the current state',
  429: 'Rate limit exceeded; see Retry-After',
};

export function defineRoute<P extends ZodType = ZodType, Q extends ZodType = ZodType, B extends ZodType = ZodType>(
  router: Router<any, any>,
  registry: OpenAPIRegistry,
  spec: RouteSpec<P, Q, B>,
  handler: (ctx: ApiContext, input: RouteInput<P, Q, B>) => Promise<void>,
): void {
  const responses: RouteConfig['responses'] = {};
  for (const [status, r] of Object.entries(spec.responses)) {
    const content = {
      ...(r.schema ? { 'application/json': { schema: r.schema } } : {}),
      ...(r.text ? { [r.text]: { schema: { type: 'string' as const } } } : {}),
    };
    responses[status] = Object.keys(content).length ? { description: r.description, content } : { description: r.description };
  }
  const errorStatuses = new Set([400, ...(spec.auth === 'none' ? [] : [401, 429]), ...(spec.errors ?? [])]);
  for (const status of errorStatuses) {
    responses[status] = { description: ERROR_TEXT[status] ?? 'Error', content: { 'application/json': { schema: ErrorBody } } };
  }
  registry.registerPath({
    method: spec.method,
    path: spec.path,
    operationId: spec.operationId,
    summary: spec.summary,
    tags: [spec.tag],
    security: spec.auth === 'apiKey' ? [{ ApiKey: [] }, { BearerApiKey: [] }] : spec.auth === 'session' ? [{ Session: [] }] : [],
    request: {
      ...(spec.params ? { params: spec.params as any } : {}),
      ...(spec.query ? { query: spec.query as any } : {}),
      ...(spec.headers ? { headers: spec.headers as any } : {}),
      ...(spec.body ? { body: { required: !spec.body.isOptional(), content: { 'application/json': { schema: spec.body } } } } : {}),
    },
    responses,
  });

  const koaPath = spec.path.replace(/\{(\w+)\}/g, ':$1');
  (router as any)[spec.method](koaPath, authenticate(spec.auth, spec.area) as any, async (ctx: ApiContext) => {
    rejectHostileShapes(ctx.params, 'path');
    rejectHostileShapes(ctx.query, 'query');
    rejectHostileShapes(ctx.request.body, 'body');
    const input = {
      params: spec.params ? parseOr400(spec.params, ctx.params, '', 'path') : ctx.params,
      query: spec.query ? parseOr400(spec.query, ctx.query, '', 'query') : ctx.query,
      body: spec.body ? parseOr400(spec.body, ctx.request.body ?? undefined, '', 'body') : undefined,
    } as RouteInput<P, Q, B>;
    await handler(ctx, input);
  });
}
