import type Router from '@koa/router';
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import type { ZodType } from 'zod';
import type { Area } from '../auth/roles';
import { z } from '../domain/zod';
import type { AuthKind } from './auth';
import type { ApiContext } from './context';
import { defineRoute, type RouteInput, type RouteSpec } from './route';

/**
 * A surface is one mount of a resource's routes: the API-key API (`/api/...`, a key with the area's
 * scope) or the dashboard API (`/api/dashboard/...`, a session of a role with the area). A resource
 * declares each operation once, in a factory taking the surface; it is mounted by one call per
 * surface. What differs between the two mounts is here: path prefix, authentication, OpenAPI tag,
 * and how the owner (the business, in a mode) of what a request names is found (`owner`).
 */
export type SurfaceName = 'apiKey' | 'dashboard';

export interface Surface<Owner> {
  name: SurfaceName;
  /** OpenAPI-style path prefix: '/api', '/api/merchants/{merchantExternalId}', '/api/dashboard'. */
  prefix: string;
  auth: AuthKind;
  tag: string;
  /** The resource's owner lookups on this surface. */
  owner: Owner;
}

/** OpenAPI text: one string for both surfaces, or each surface's own. */
export type Wording = string | Record<SurfaceName, string>;

export type SurfaceRouteSpec<P extends ZodType, Q extends ZodType, B extends ZodType> = Omit<RouteSpec<P, Q, B>, 'tag' | 'auth' | 'area' | 'summary'> & {
  summary: Wording;
};

/** A dashboard user's choice of data world, where a listing or a creation offers it. */
export const ModeChoice = z.enum(['live', 'test'], { message: "must be 'live' or 'test'" });
export type ModeChoice = z.infer<typeof ModeChoice>;

/** An operation's id on a surface: the declaration's on the API key (`listStores`), the dashboard's after the verb (`listDashboardStores`). */
export const operationIdOn = (surface: Surface<unknown>, operationId: string): string =>
  surface.name === 'dashboard' ? operationId.replace(/^[a-z]+/, (verb) => `${verb}Dashboard`) : operationId;

/** defineRoute bound to a surface and an area: a declaration gives path, schemas and responses; the surface adds auth and tag and picks its wording. */
export function routesOn(router: Router<any, any>, registry: OpenAPIRegistry, surface: Surface<unknown>, area: Area) {
  return <P extends ZodType = ZodType, Q extends ZodType = ZodType, B extends ZodType = ZodType>(
    spec: SurfaceRouteSpec<P, Q, B>,
    handler: (ctx: ApiContext, input: RouteInput<P, Q, B>) => Promise<void>,
  ): void => {
    const summary = typeof spec.summary === 'string' ? spec.summary : spec.summary[surface.name];
    defineRoute(
      router,
      registry,
      { ...spec, operationId: operationIdOn(surface, spec.operationId), summary, tag: surface.tag, auth: surface.auth, area },
      handler,
    );
  };
}
