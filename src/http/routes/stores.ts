import { modeOf } from '../../auth/principal';
import { findStore, requireOwnMerchant } from '../../stores/lookup';
import { DeleteQuery, ListQuery, MerchantParams, StoreInput, StorePage, StoreParams, StoreRecord, StoreSearchQuery } from '../../stores/schemas';
import { pagingOfQuery, searchOfQuery, searchStores } from '../../stores/search';
import { toStoreRecord } from '../../stores/serializers';
import { createStore, deleteStore, replaceStore } from '../../stores/writes';
import type { RouteModule } from '../app';
import { answerArrayPage, ARRAY_PAGE_HEADERS_NOTE } from '../arrayPage';
import { pageOf } from '../../domain/paging';
import { z } from '../../domain/zod';
import { defineRoute } from '../route';

/** Stores of spec 4.2, over the API key ('stores' scope): parse, call src/stores, answer. Rules: docs/stores-and-terminals.md. */
const BASE = '/api/merchants/{merchantExternalId}/stores';
const TAG = 'Stores';

export const storeRoutes: RouteModule = (router, registry) => {
  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: BASE,
      summary: 'Stores of the business, alphabetical by name (a JSON array), one page of them',
      tag: TAG,
      auth: 'apiKey',
      area: 'stores',
      params: MerchantParams,
      query: ListQuery,
      responses: { 200: { description: `The stores. ${ARRAY_PAGE_HEADERS_NOTE}`, schema: z.array(StoreRecord) } },
      errors: [403, 404],
    },
    async (ctx, { params, query }) => {
      const principal = ctx.state.principal!;
      requireOwnMerchant(principal, params.merchantExternalId);
      const paging = pagingOfQuery(query);
      const { stores, total } = await searchStores(ctx.deps.db, principal.merchantId, modeOf(principal), {}, 'name', paging);
      answerArrayPage(ctx, stores.map(toStoreRecord), total, paging);
    },
  );

  // Declared before /{storeExternalId} so that 'search' is never taken for a store id.
  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: `${BASE}/search`,
      summary: 'Search stores: free text, filters, sorting, paging',
      tag: TAG,
      auth: 'apiKey',
      area: 'stores',
      params: MerchantParams,
      query: StoreSearchQuery,
      responses: { 200: { description: 'One page of stores', schema: StorePage } },
      errors: [403, 404],
    },
    async (ctx, { params, query }) => {
      const principal = ctx.state.principal!;
      requireOwnMerchant(principal, params.merchantExternalId);
      const { filter, sort, paging } = searchOfQuery(query);
      const { stores, total } = await searchStores(ctx.deps.db, principal.merchantId, modeOf(principal), filter, sort, paging);
      ctx.body = pageOf(stores.map(toStoreRecord), total, paging);
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'post',
      path: BASE,
      summary: 'Register a store; the response carries its externalId',
      tag: TAG,
      auth: 'apiKey',
      area: 'stores',
      params: MerchantParams,
      body: StoreInput,
      responses: { 201: { description: 'The store', schema: StoreRecord } },
      errors: [403, 404],
    },
    async (ctx, { params, body }) => {
      const principal = ctx.state.principal!;
      requireOwnMerchant(principal, params.merchantExternalId);
      const store = await createStore(ctx.deps.db, principal.merchantId, modeOf(principal), body);
      ctx.status = 201;
      ctx.set('Location', `/api/merchants/${encodeURIComponent(params.merchantExternalId)}/stores/${store.externalId}`);
      ctx.body = toStoreRecord(store);
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
      auth: 'apiKey',
      area: 'stores',
      params: StoreParams,
      responses: { 200: { description: 'The store', schema: StoreRecord } },
      errors: [403, 404],
    },
    async (ctx, { params }) => {
      const principal = ctx.state.principal!;
      requireOwnMerchant(principal, params.merchantExternalId);
      ctx.body = toStoreRecord(await findStore(ctx.deps.db, principal.merchantId, params.storeExternalId, modeOf(principal)));
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'put',
      path: `${BASE}/{storeExternalId}`,
      summary: 'Replace a store: same body as POST; omitted optional fields are cleared, an omitted status is kept',
      tag: TAG,
      auth: 'apiKey',
      area: 'stores',
      params: StoreParams,
      body: StoreInput,
      responses: { 200: { description: 'The updated store', schema: StoreRecord } },
      errors: [403, 404],
    },
    async (ctx, { params, body }) => {
      const principal = ctx.state.principal!;
      requireOwnMerchant(principal, params.merchantExternalId);
      ctx.body = toStoreRecord(await replaceStore(ctx.deps.db, principal.merchantId, modeOf(principal), params.storeExternalId, body));
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'delete',
      path: `${BASE}/{storeExternalId}`,
      summary: 'Remove a store with its terminals and their device links; 409 after recent payments unless force=true',
      tag: TAG,
      auth: 'apiKey',
      area: 'stores',
      params: StoreParams,
      query: DeleteQuery,
      responses: { 204: { description: 'Deleted' } },
      errors: [403, 404, 409],
    },
    async (ctx, { params, query }) => {
      const principal = ctx.state.principal!;
      requireOwnMerchant(principal, params.merchantExternalId);
      const store = await deleteStore(ctx.deps, principal.merchantId, modeOf(principal), params.storeExternalId, query.force === 'true');
      ctx.state.log.info({ storeExternalId: store.externalId, force: query.force === 'true' }, 'store deleted');
      ctx.status = 204;
    },
  );
};
