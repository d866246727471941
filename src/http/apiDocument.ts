import Router from '@koa/router';
import { createRegistry, generateDocument } from './openapi';
import { routeModules } from './routes';

/**
 * The OpenAPI document of the whole API, as `/openapi.json` serves it, without a running service:
 * for the document's own tests and lint, and the client libraries' generators.
 */
export function apiDocument(): Record<string, any> {
  const registry = createRegistry();
  const router = new Router<any, any>();
  for (const mount of routeModules) mount(router, registry);
  return generateDocument(registry) as Record<string, any>;
}
