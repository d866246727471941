import { pageOf } from '../../domain/paging';
import { z } from '../../domain/zod';
import type { Store } from '../../generated/prisma/client';
import { findStoreOfEitherMode, findTerminal } from '../../stores/lookup';
import { DeleteQuery, ListQuery as PageQuery, StoreInput, StoreRecord, StoreSearchQuery, TerminalInput, TerminalRecord } from '../../stores/schemas';
import { listTerminals, pagingOfQuery, searchOfQuery, searchStores } from '../../stores/search';
import { toStoreRecord, toTerminalRecord } from '../../stores/serializers';
import { createStore, createTerminal, deleteStore, deleteTerminal, replaceStore, replaceTerminal } from '../../stores/writes';
import type { RouteModule } from '../app';
import { answerArrayPage, ARRAY_PAGE_HEADERS_NOTE } from '../arrayPage';
import { callerOf } from '../caller';
import type { ApiContext } from '../context';
import { defineRoute } from '../route';

/**
 * Stores and terminals in the dashboard (contracts 9; spec 2.9: OPERATIONS and ADMIN, the 'stores'
 * area) with a session token. The rules are those of the API-key endpoints, from the same code
 * (src/stores): validation, the delete guard's 409, serial numbers. A signed-in user sees the
 * business's live and test stores alike; a store's own mode scopes its terminals and writes.
 */
const TAG = 'Dashboard stores';
const BASE = '/api/dashboard/stores';

const Mode = z.enum(['live', 'test'], { message: "must be 'live' or 'test'" });

const DashboardStore = StoreRecord.extend({ mode: Mode }).openapi('DashboardStore');
const DashboardTerminal = TerminalRecord.extend({ mode: Mode }).openapi('DashboardTerminal');
const DashboardStorePage = z
  .object({ content: z.array(DashboardStore), totalElements: z.number().int(), totalPages: z.number().int(), page: z.number().int(), size: z.number().int() })
  .openapi('DashboardStorePage');

const ListQuery = StoreSearchQuery.extend({ mode: Mode.optional().openapi({ description: 'Only live or only test stores; absent: both' }) })
  .strict()
  .openapi('DashboardStoreQuery');
const CreateBody = StoreInput.extend({ mode: Mode.optional().openapi({ description: 'The data world of the store: live (default) or test' }) })
  .strict()
  .openapi('DashboardStoreInput');
const StoreParams = z.object({ storeExternalId: z.string().min(1).max(100) });
const TerminalParams = StoreParams.extend({ terminalExternalId: z.string().min(1).max(100) });

const modeOfStore = (s: Store): 'live' | 'test' => (s.mode === 'test' ? 'test' : 'live');
const storeOut = (s: Store) => ({ ...toStoreRecord(s), mode: modeOfStore(s) });
const merchantOf = (ctx: ApiContext): string => callerOf(ctx).principal.merchantId;

export const dashboardStoreRoutes: RouteModule = (router, registry) => {
  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: BASE,
      summary: 'Stores of the business, live and test, searched, sorted and paged',
      tag: TAG,
      auth: 'session',
      area: 'stores',
      query: ListQuery,
      responses: { 200: { description: 'One page of stores', schema: DashboardStorePage } },
      errors: [403],
    },
    async (ctx, { query }) => {
      const { mode, ...search } = query;
      const { filter, sort, paging } = searchOfQuery(search);
      const { stores, total } = await searchStores(ctx.deps.db, merchantOf(ctx), mode, filter, sort, paging);
      ctx.body = pageOf(stores.map(storeOut), total, paging);
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'post',
      path: BASE,
      summary: 'Register a store (live unless mode is test)',
      tag: TAG,
      auth: 'session',
      area: 'stores',
      body: CreateBody,
      responses: { 201: { description: 'The store', schema: DashboardStore } },
      errors: [403],
    },
    async (ctx, { body }) => {
      const { mode, ...input } = body;
      const store = await createStore(ctx.deps.db, merchantOf(ctx), mode ?? 'live', input);
      ctx.status = 201;
      ctx.set('Location', `${BASE}/${store.externalId}`);
      ctx.body = storeOut(store);
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: `${BASE}/{storeExternalId}`,
      summary: 'One store',
      tag: TAG,
      auth: 'session',
      area: 'stores',
      params: StoreParams,
      responses: { 200: { description: 'The store', schema: DashboardStore } },
      errors: [403, 404],
    },
    async (ctx, { params }) => {
      ctx.body = storeOut(await findStoreOfEitherMode(ctx.deps.db, merchantOf(ctx), params.storeExternalId));
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'put',
      path: `${BASE}/{storeExternalId}`,
      summary: 'Replace a store (as the API-key PUT); status INACTIVE deactivates it. Its mode never changes',
      tag: TAG,
      auth: 'session',
      area: 'stores',
      params: StoreParams,
      body: StoreInput,
      responses: { 200: { description: 'The updated store', schema: DashboardStore } },
      errors: [403, 404],
    },
    async (ctx, { params, body }) => {
      const found = await findStoreOfEitherMode(ctx.deps.db, merchantOf(ctx), params.storeExternalId);
      ctx.body = storeOut(await replaceStore(ctx.deps.db, found.merchantId, found.mode, found.externalId, body));
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'delete',
      path: `${BASE}/{storeExternalId}`,
      summary: 'Remove a store with its terminals; 409 after recent payments unless force=true',
      tag: TAG,
      auth: 'session',
      area: 'stores',
      params: StoreParams,
      query: DeleteQuery,
      responses: { 204: { description: 'Deleted' } },
      errors: [403, 404, 409],
    },
    async (ctx, { params, query }) => {
      const found = await findStoreOfEitherMode(ctx.deps.db, merchantOf(ctx), params.storeExternalId);
      const force = query.force === 'true';
      await deleteStore(ctx.deps, found.merchantId, found.mode, found.externalId, force);
      ctx.state.log.info({ storeExternalId: found.externalId, force, by: callerOf(ctx).principal.username }, 'store deleted');
      ctx.status = 204;
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: `${BASE}/{storeExternalId}/terminals`,
      summary: "The store's terminals, ordered by label, one page of them",
      tag: TAG,
      auth: 'session',
      area: 'stores',
      params: StoreParams,
      query: PageQuery,
      responses: { 200: { description: `The terminals. ${ARRAY_PAGE_HEADERS_NOTE}`, schema: z.array(DashboardTerminal) } },
      errors: [403, 404],
    },
    async (ctx, { params, query }) => {
      const store = await findStoreOfEitherMode(ctx.deps.db, merchantOf(ctx), params.storeExternalId);
      const paging = pagingOfQuery(query);
      const { terminals, total } = await listTerminals(ctx.deps.db, store.id, paging);
      answerArrayPage(
        ctx,
        terminals.map((t) => ({ ...toTerminalRecord(t, store.externalId), mode: store.mode })),
        total,
        paging,
      );
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'post',
      path: `${BASE}/{storeExternalId}/terminals`,
      summary: 'Register a terminal in the store; it takes payments once the operator links its device',
      tag: TAG,
      auth: 'session',
      area: 'stores',
      params: StoreParams,
      body: TerminalInput,
      responses: { 201: { description: 'The terminal', schema: DashboardTerminal } },
      errors: [403, 404, 409],
    },
    async (ctx, { params, body }) => {
      const store = await findStoreOfEitherMode(ctx.deps.db, merchantOf(ctx), params.storeExternalId);
      const terminal = await createTerminal(ctx.deps.db, store, body);
      ctx.status = 201;
      ctx.set('Location', `${BASE}/${store.externalId}/terminals/${terminal.externalId}`);
      ctx.body = { ...toTerminalRecord(terminal, store.externalId), mode: store.mode };
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: `${BASE}/{storeExternalId}/terminals/{terminalExternalId}`,
      summary: 'One terminal',
      tag: TAG,
      auth: 'session',
      area: 'stores',
      params: TerminalParams,
      responses: { 200: { description: 'The terminal', schema: DashboardTerminal } },
      errors: [403, 404],
    },
    async (ctx, { params }) => {
      const store = await findStoreOfEitherMode(ctx.deps.db, merchantOf(ctx), params.storeExternalId);
      ctx.body = { ...toTerminalRecord(await findTerminal(ctx.deps.db, store, params.terminalExternalId), store.externalId), mode: store.mode };
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'put',
      path: `${BASE}/{storeExternalId}/terminals/{terminalExternalId}`,
      summary: 'Replace a terminal (as the API-key PUT); status INACTIVE deactivates it; the device link is untouched',
      tag: TAG,
      auth: 'session',
      area: 'stores',
      params: TerminalParams,
      body: TerminalInput,
      responses: { 200: { description: 'The updated terminal', schema: DashboardTerminal } },
      errors: [403, 404, 409],
    },
    async (ctx, { params, body }) => {
      const store = await findStoreOfEitherMode(ctx.deps.db, merchantOf(ctx), params.storeExternalId);
      ctx.body = { ...toTerminalRecord(await replaceTerminal(ctx.deps.db, store, params.terminalExternalId, body), store.externalId), mode: store.mode };
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'delete',
      path: `${BASE}/{storeExternalId}/terminals/{terminalExternalId}`,
      summary: 'Remove a terminal and its device link; 409 after recent payments unless force=true',
      tag: TAG,
      auth: 'session',
      area: 'stores',
      params: TerminalParams,
      query: DeleteQuery,
      responses: { 204: { description: 'Deleted' } },
      errors: [403, 404, 409],
    },
    async (ctx, { params, query }) => {
      const store = await findStoreOfEitherMode(ctx.deps.db, merchantOf(ctx), params.storeExternalId);
      const force = query.force === 'true';
      const terminal = await deleteTerminal(ctx.deps, store, params.terminalExternalId, force);
      ctx.state.log.info({ terminalExternalId: terminal.externalId, force, by: callerOf(ctx).principal.username }, 'terminal deleted');
      ctx.status = 204;
    },
  );
};
