import Koa from 'koa';
import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import type { AppDeps } from './context';
import { dashboardApp } from './dashboardApp';
import { mountDocs } from './docs';
import { errorHandler } from './errors';
import { createRegistry, generateDocument } from './openapi';
import { requestContext } from './requestId';
import { securityHeaders } from './securityHeaders';
import { routeModules } from './routes';

export function createApp(deps: AppDeps): Koa<any, any> {
  const app = new Koa<any, any>();
  // Behind a proxy every client would share the proxy's address (and its throttles): trust
  // X-Forwarded-For only when told, and only the one entry that proxy adds.
  app.proxy = deps.config.TRUST_PROXY;
  app.maxIpsCount = 1;
  app.silent = true; // errors are logged once, by the error handler
  app.context.deps = deps;

  const registry = createRegistry();
  const router = new Router<any, any>();
  for (const mount of routeModules) mount(router, registry);
  let document: object | undefined;
  mountDocs(router, () => (document ??= generateDocument(registry)));

  app.use(securityHeaders() as any);
  app.use(requestContext() as any);
  app.use(errorHandler());
  app.use(dashboardApp() as any);
  app.use(bodyParser({ enableTypes: ['json'], jsonLimit: deps.config.BODY_LIMIT_BYTES, encoding: 'utf-8' }));
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
