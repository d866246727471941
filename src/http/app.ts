import Koa from 'koa';
import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import type { AppDeps } from './context';
import { mountDocs } from './docs';
import { ApiError, errorHandler } from './errors';
import { createRegistry, generateDocument } from './openapi';
import { requestContext } from './requestId';
import { routeModules } from './routes';

/** A route module mounts its endpoints on the router and documents them in the registry. */
export type RouteModule = (router: Router<any, any>, registry: OpenAPIRegistry) => void;

export function createApp(deps: AppDeps): Koa<any, any> {
  const app = new Koa<any, any>();
  app.proxy = false;
  app.silent = true; // errors are logged once, by the error handler
  app.context.deps = deps;

  const registry = createRegistry();
  const router = new Router<any, any>();
  for (const mount of routeModules) mount(router, registry);
  let document: object | undefined;
  mountDocs(router, () => (document ??= generateDocument(registry)));

  app.use(requestContext() as any);
  app.use(errorHandler());
  app.use(bodyParser({ enableTypes: ['json'], jsonLimit: deps.config.BODY_LIMIT_BYTES, encoding: 'utf-8' }));
  app.use(wrongMethodInErrorShape);
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}

/**
 * The router answers a wrong method with a bare 405 (501 for a method it does not implement) and
 * the Allow header. Both become 405 in the spec's error shape, keeping Allow (RFC 9110 15.5.6).
 */
async function wrongMethodInErrorShape(ctx: Koa.Context, next: Koa.Next): Promise<void> {
  await next();
  if (ctx.body !== undefined || (ctx.status !== 405 && ctx.status !== 501)) return;
  throw new ApiError(405, 'method not allowed', { Allow: String(ctx.response.get('Allow')) });
}
