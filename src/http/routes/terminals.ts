import { findTerminal } from '../../stores/lookup';
import { DeleteQuery, ListQuery, TerminalInput } from '../../stores/schemas';
import { listTerminals, pagingOfQuery } from '../../stores/search';
import { createTerminal, deleteTerminal, replaceTerminal } from '../../stores/writes';
import type { RouteModule } from '../routeModule';
import { answerArrayPage, ARRAY_PAGE_HEADERS_NOTE } from '../arrayPage';
import { z } from '../../domain/zod';
import { routesOn, type Surface } from '../surface';
import { apiKeyStores, dashboardStores, storeRoutesOn, type StoreOwners } from './stores';

/**
 * Terminals (docs/stores-and-terminals.md), declared once and mounted on the surfaces of their stores (stores.ts):
 * the API key ('stores' scope) and the dashboard (OPERATIONS and ADMIN). A store found by the
 * surface scopes its terminals. Parse, call src/stores, answer. Rules: docs/stores-and-terminals.md.
 */
export function terminalRoutesOn(surface: Surface<StoreOwners>): RouteModule {
  const owners = surface.owner;
  const BASE = `${surface.prefix}/stores/{storeExternalId}/terminals`;
  return (router, registry) => {
    const route = routesOn(router, registry, surface, 'stores');

    route(
      {
        method: 'get',
        path: BASE,
        operationId: 'listTerminals',
        summary: {
          apiKey: "The store's terminals, ordered by label (a JSON array), one page of them",
          dashboard: "The store's terminals, ordered by label, one page of them",
        },
        params: owners.StoreParams,
        query: ListQuery,
        responses: { 200: { description: `The terminals. ${ARRAY_PAGE_HEADERS_NOTE}`, schema: z.array(owners.Terminal) } },
        errors: [403, 404],
      },
      async (ctx, { params, query }) => {
        const store = await owners.store(ctx, params);
        const paging = pagingOfQuery(query);
        const { terminals, total } = await listTerminals(ctx.deps.db, store.id, paging);
        answerArrayPage(
          ctx,
          terminals.map((t) => owners.terminalOut(t, store)),
          total,
          paging,
        );
      },
    );

    route(
      {
        method: 'post',
        path: BASE,
        operationId: 'createTerminal',
        summary: {
          apiKey: 'Register a terminal in the store; the response carries its externalId. It takes payments once the operator links its device',
          dashboard: 'Register a terminal in the store; it takes payments once the operator links its device',
        },
        params: owners.StoreParams,
        body: TerminalInput,
        responses: { 201: { description: 'The terminal', schema: owners.Terminal } },
        errors: [403, 404, 409],
      },
      async (ctx, { params, body }) => {
        const store = await owners.store(ctx, params);
        const terminal = await createTerminal(ctx.deps.db, store, body);
        ctx.status = 201;
        ctx.set('Location', `${owners.at(params)}/stores/${store.externalId}/terminals/${terminal.externalId}`);
        ctx.body = owners.terminalOut(terminal, store);
      },
    );

    route(
      {
        method: 'get',
        path: `${BASE}/{terminalExternalId}`,
        operationId: 'getTerminal',
        summary: 'One terminal',
        params: owners.TerminalParams,
        responses: { 200: { description: 'The terminal', schema: owners.Terminal } },
        errors: [403, 404],
      },
      async (ctx, { params }) => {
        const store = await owners.store(ctx, params);
        ctx.body = owners.terminalOut(await findTerminal(ctx.deps.db, store, params.terminalExternalId), store);
      },
    );

    route(
      {
        method: 'put',
        path: `${BASE}/{terminalExternalId}`,
        operationId: 'updateTerminal',
        summary: {
          apiKey: 'Replace a terminal: same body as POST; omitted optional fields are cleared, an omitted status is kept; the device link is untouched',
          dashboard: 'Replace a terminal (as the API-key PUT); status INACTIVE deactivates it; the device link is untouched',
        },
        params: owners.TerminalParams,
        body: TerminalInput,
        responses: { 200: { description: 'The updated terminal', schema: owners.Terminal } },
        errors: [403, 404, 409],
      },
      async (ctx, { params, body }) => {
        const store = await owners.store(ctx, params);
        ctx.body = owners.terminalOut(await replaceTerminal(ctx.deps.db, store, params.terminalExternalId, body), store);
      },
    );

    route(
      {
        method: 'delete',
        path: `${BASE}/{terminalExternalId}`,
        operationId: 'deleteTerminal',
        summary: 'Remove a terminal and its device link; 409 after recent payments unless force=true',
        params: owners.TerminalParams,
        query: DeleteQuery,
        responses: { 204: { description: 'Deleted' } },
        errors: [403, 404, 409],
      },
      async (ctx, { params, query }) => {
        const store = await owners.store(ctx, params);
        const force = query.force === 'true';
        const terminal = await deleteTerminal(ctx.deps, store, params.terminalExternalId, force);
        ctx.state.log.info({ terminalExternalId: terminal.externalId, force, ...owners.actor(ctx) }, 'terminal deleted');
        ctx.status = 204;
      },
    );
  };
}

export const terminalRoutes = terminalRoutesOn({ ...apiKeyStores, tag: 'Terminals' });

/** The dashboard's stores and their terminals, one tag. */
export const dashboardStoreRoutes: RouteModule = (router, registry) => {
  storeRoutesOn(dashboardStores)(router, registry);
  terminalRoutesOn(dashboardStores)(router, registry);
};
