import type Router from '@koa/router';
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';

/** A route module mounts its endpoints on the router and documents them in the registry. */
export type RouteModule = (router: Router<any, any>, registry: OpenAPIRegistry) => void;
