import type { ZodType } from 'zod';
import type { KeyMode } from '../../auth/apiKeys';
import { modeOf } from '../../auth/principal';
import { pageOf } from '../../domain/paging';
import { z } from '../../domain/zod';
import type { Store, Terminal } from '../../generated/prisma/client';
import { findStore, findStoreOfEitherMode, requireOwnMerchant } from '../../stores/lookup';
import {
  DeleteQuery,
  ListQuery,
  MerchantParams,
  StoreInput,
  StorePage,
  StoreParams,
  StoreRecord,
  StoreSearchQuery,
  TerminalParams,
  TerminalRecord,
} from '../../stores/schemas';
import { pagingOfQuery, searchOfQuery, searchStores } from '../../stores/search';
import { toStoreRecord, toTerminalRecord } from '../../stores/serializers';
import { createStore, deleteStore, replaceStore } from '../../stores/writes';
import type { RouteModule } from '../routeModule';
import { answerArrayPage, ARRAY_PAGE_HEADERS_NOTE } from '../arrayPage';
import { callerOf } from '../caller';
import type { ApiContext } from '../context';
import { ModeChoice, routesOn, type Surface } from '../surface';

/**
 * Stores (docs/stores-and-terminals.md; their terminals: terminals.ts), declared once and mounted on two surfaces
 * (src/http/surface.ts): the API key ('stores' scope) under /api/merchants/{merchantExternalId},
 * in the key's mode; the dashboard (OPERATIONS and ADMIN, the 'stores' area) under
 * /api/dashboard, where a signed-in user sees the business's live and test stores alike and a
 * store's own mode scopes its terminals and writes. Parse, call src/stores, answer; the rules
 * (validation, the delete guard's 409, serial numbers) are src/stores'. docs/stores-and-terminals.md.
 */
type PathParams = { merchantExternalId?: string; storeExternalId: string };

/** How a surface finds the caller's business, stores and their mode. */
export interface StoreOwners {
  /** The API key's GET /stores is the plain array page and its search is /stores/search; the dashboard's GET /stores is the search. */
  plainList: boolean;
  /** Path parameters naming the business (the API key's), a store, a terminal. */
  MerchantParams?: ZodType<{ merchantExternalId?: string }>;
  StoreParams: ZodType<PathParams>;
  TerminalParams: ZodType<PathParams & { terminalExternalId: string }>;
  SearchQuery: ZodType<StoreSearchQuery & { mode?: ModeChoice }>;
  CreateBody: ZodType<StoreInput & { mode?: ModeChoice }>;
  Store: ZodType;
  StorePage: ZodType;
  Terminal: ZodType;
  /** Error statuses of the paths naming the business (404: another business). */
  merchantErrors: number[];
  /** The surface's prefix with the request's values, for Location. */
  at(params: { merchantExternalId?: string }): string;
  /** The business and mode a listing shows or a new store belongs to; `mode` the dashboard's choice (none: both, or live for a new store). */
  scope(ctx: ApiContext, params: { merchantExternalId?: string }, mode: ModeChoice | undefined): { merchantId: string; mode: KeyMode | undefined };
  /** The named store, or 404. */
  store(ctx: ApiContext, params: PathParams): Promise<Store>;
  /** The business, mode and id of the named store, for a write (the API key's from the key alone; the store is found by the write). */
  storeKey(ctx: ApiContext, params: PathParams): Promise<{ merchantId: string; mode: KeyMode; externalId: string }>;
  storeOut(store: Store): object;
  terminalOut(terminal: Terminal, store: Store): object;
  /** Who deleted, for the log line. */
  actor(ctx: ApiContext): object;
}

function keyScope(ctx: ApiContext, params: { merchantExternalId?: string }): { merchantId: string; mode: KeyMode } {
  const principal = ctx.state.principal!;
  requireOwnMerchant(principal, params.merchantExternalId!);
  return { merchantId: principal.merchantId, mode: modeOf(principal) };
}

export const apiKeyStores: Surface<StoreOwners> = {
  name: 'apiKey',
  prefix: '/api/merchants/{merchantExternalId}',
  auth: 'apiKey',
  tag: 'Stores',
  owner: {
    plainList: true,
    MerchantParams,
    StoreParams,
    TerminalParams,
    SearchQuery: StoreSearchQuery,
    CreateBody: StoreInput,
    Store: StoreRecord,
    StorePage,
    Terminal: TerminalRecord,
    merchantErrors: [404],
    at: (params) => `/api/merchants/${encodeURIComponent(params.merchantExternalId!)}`,
    scope: keyScope,
    store: (ctx, params) => {
      const { merchantId, mode } = keyScope(ctx, params);
      return findStore(ctx.deps.db, merchantId, params.storeExternalId, mode);
    },
    storeKey: async (ctx, params) => ({ ...keyScope(ctx, params), externalId: params.storeExternalId }),
    storeOut: toStoreRecord,
    terminalOut: (terminal, store) => toTerminalRecord(terminal, store.externalId),
    actor: () => ({}),
  },
};

const DashboardStore = StoreRecord.extend({ mode: ModeChoice }).openapi('DashboardStore');
const DashboardStoreParams = z.object({ storeExternalId: z.string().min(1).max(100) });
const merchantOf = (ctx: ApiContext): string => callerOf(ctx).principal.merchantId;
const modeOfStore = (s: Store): 'live' | 'test' => (s.mode === 'test' ? 'test' : 'live');

export const dashboardStores: Surface<StoreOwners> = {
  name: 'dashboard',
  prefix: '/api/dashboard',
  auth: 'session',
  tag: 'Dashboard stores',
  owner: {
    plainList: false,
    StoreParams: DashboardStoreParams,
    TerminalParams: DashboardStoreParams.extend({ terminalExternalId: z.string().min(1).max(100) }),
    SearchQuery: StoreSearchQuery.extend({ mode: ModeChoice.optional().openapi({ description: 'Only live or only test stores; absent: both' }) })
      .strict()
      .openapi('DashboardStoreQuery'),
    CreateBody: StoreInput.extend({ mode: ModeChoice.optional().openapi({ description: 'The data world of the store: live (default) or test' }) })
      .strict()
      .openapi('DashboardStoreInput'),
    Store: DashboardStore,
    StorePage: z
      .object({
        content: z.array(DashboardStore),
        totalElements: z.number().int(),
        totalPages: z.number().int(),
        page: z.number().int(),
        size: z.number().int(),
      })
      .openapi('DashboardStorePage'),
    Terminal: TerminalRecord.extend({ mode: ModeChoice }).openapi('DashboardTerminal'),
    merchantErrors: [],
    at: () => '/api/dashboard',
    scope: (ctx, _params, mode) => ({ merchantId: merchantOf(ctx), mode }),
    store: (ctx, params) => findStoreOfEitherMode(ctx.deps.db, merchantOf(ctx), params.storeExternalId),
    storeKey: (ctx, params) => findStoreOfEitherMode(ctx.deps.db, merchantOf(ctx), params.storeExternalId),
    storeOut: (store) => ({ ...toStoreRecord(store), mode: modeOfStore(store) }),
    terminalOut: (terminal, store) => ({ ...toTerminalRecord(terminal, store.externalId), mode: store.mode }),
    actor: (ctx) => ({ by: callerOf(ctx).principal.username }),
  },
};

export function storeRoutesOn(surface: Surface<StoreOwners>): RouteModule {
  const owners = surface.owner;
  const BASE = `${surface.prefix}/stores`;
  return (router, registry) => {
    const route = routesOn(router, registry, surface, 'stores');

    if (owners.plainList) {
      route(
        {
          method: 'get',
          path: BASE,
          operationId: 'listStores',
          summary: 'Stores of the business, alphabetical by name (a JSON array), one page of them',
          params: owners.MerchantParams,
          query: ListQuery,
          responses: { 200: { description: `The stores. ${ARRAY_PAGE_HEADERS_NOTE}`, schema: z.array(owners.Store) } },
          errors: [403, ...owners.merchantErrors],
        },
        async (ctx, { params, query }) => {
          const { merchantId, mode } = owners.scope(ctx, params, undefined);
          const paging = pagingOfQuery(query);
          const { stores, total } = await searchStores(ctx.deps.db, merchantId, mode, {}, 'name', paging);
          answerArrayPage(ctx, stores.map(owners.storeOut), total, paging);
        },
      );
    }

    // Declared before /{storeExternalId} so that 'search' is never taken for a store id.
    route(
      {
        method: 'get',
        path: owners.plainList ? `${BASE}/search` : BASE,
        operationId: 'searchStores',
        summary: {
          apiKey: 'Search stores: free text, filters, sorting, paging',
          dashboard: 'Stores of the business, live and test, searched, sorted and paged',
        },
        params: owners.MerchantParams,
        query: owners.SearchQuery,
        responses: { 200: { description: 'One page of stores', schema: owners.StorePage } },
        errors: [403, ...owners.merchantErrors],
      },
      async (ctx, { params, query }) => {
        const { mode: chosen, ...search } = query;
        const { merchantId, mode } = owners.scope(ctx, params, chosen);
        const { filter, sort, paging } = searchOfQuery(search);
        const { stores, total } = await searchStores(ctx.deps.db, merchantId, mode, filter, sort, paging);
        ctx.body = pageOf(stores.map(owners.storeOut), total, paging);
      },
    );

    route(
      {
        method: 'post',
        path: BASE,
        operationId: 'createStore',
        summary: { apiKey: 'Register a store; the response carries its externalId', dashboard: 'Register a store (live unless mode is test)' },
        params: owners.MerchantParams,
        body: owners.CreateBody,
        responses: { 201: { description: 'The store', schema: owners.Store } },
        errors: [403, ...owners.merchantErrors],
      },
      async (ctx, { params, body }) => {
        const { mode: chosen, ...input } = body;
        const { merchantId, mode } = owners.scope(ctx, params, chosen);
        const store = await createStore(ctx.deps.db, merchantId, mode ?? 'live', input);
        ctx.status = 201;
        ctx.set('Location', `${owners.at(params)}/stores/${store.externalId}`);
        ctx.body = owners.storeOut(store);
      },
    );

    route(
      {
        method: 'get',
        path: `${BASE}/{storeExternalId}`,
        operationId: 'getStore',
        summary: 'One store',
        params: owners.StoreParams,
        responses: { 200: { description: 'The store', schema: owners.Store } },
        errors: [403, 404],
      },
      async (ctx, { params }) => {
        ctx.body = owners.storeOut(await owners.store(ctx, params));
      },
    );

    route(
      {
        method: 'put',
        path: `${BASE}/{storeExternalId}`,
        operationId: 'updateStore',
        summary: {
          apiKey: 'Replace a store: same body as POST; omitted optional fields are cleared, an omitted status is kept',
          dashboard: 'Replace a store (as the API-key PUT); status INACTIVE deactivates it. Its mode never changes',
        },
        params: owners.StoreParams,
        body: StoreInput,
        responses: { 200: { description: 'The updated store', schema: owners.Store } },
        errors: [403, 404],
      },
      async (ctx, { params, body }) => {
        const { merchantId, mode, externalId } = await owners.storeKey(ctx, params);
        ctx.body = owners.storeOut(await replaceStore(ctx.deps.db, merchantId, mode, externalId, body));
      },
    );

    route(
      {
        method: 'delete',
        path: `${BASE}/{storeExternalId}`,
        operationId: 'deleteStore',
        summary: {
          apiKey: 'Remove a store with its terminals and their device links; 409 after recent payments unless force=true',
          dashboard: 'Remove a store with its terminals; 409 after recent payments unless force=true',
        },
        params: owners.StoreParams,
        query: DeleteQuery,
        responses: { 204: { description: 'Deleted' } },
        errors: [403, 404, 409],
      },
      async (ctx, { params, query }) => {
        const { merchantId, mode, externalId } = await owners.storeKey(ctx, params);
        const force = query.force === 'true';
        const store = await deleteStore(ctx.deps, merchantId, mode, externalId, force);
        ctx.state.log.info({ storeExternalId: store.externalId, force, ...owners.actor(ctx) }, 'store deleted');
        ctx.status = 204;
      },
    );
  };
}

export const storeRoutes = storeRoutesOn(apiKeyStores);
