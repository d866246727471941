import { modeOf } from '../../auth/principal';
import { findStore, findTerminal, requireOwnMerchant } from '../../stores/lookup';
import { DeleteQuery, ListQuery, StoreParams, TerminalInput, TerminalParams, TerminalRecord } from '../../stores/schemas';
import { listTerminals, pagingOfQuery } from '../../stores/search';
import { toTerminalRecord } from '../../stores/serializers';
import { createTerminal, deleteTerminal, replaceTerminal } from '../../stores/writes';
import type { RouteModule } from '../app';
import { answerArrayPage, ARRAY_PAGE_HEADERS_NOTE } from '../arrayPage';
import { z } from '../../domain/zod';
import { defineRoute } from '../route';

/** Terminals of spec 4.3, over the API key ('stores' scope): parse, call src/stores, answer. Rules: docs/stores-and-terminals.md. */
const BASE = '/api/merchants/{merchantExternalId}/stores/{storeExternalId}/terminals';
const TAG = 'Terminals';

export const terminalRoutes: RouteModule = (router, registry) => {
  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: BASE,
      summary: "The store's terminals, ordered by label (a JSON array), one page of them",
      tag: TAG,
      auth: 'apiKey',
      area: 'stores',
      params: StoreParams,
      query: ListQuery,
      responses: { 200: { description: `The terminals. ${ARRAY_PAGE_HEADERS_NOTE}`, schema: z.array(TerminalRecord) } },
      errors: [403, 404],
    },
    async (ctx, { params, query }) => {
      const principal = ctx.state.principal!;
      requireOwnMerchant(principal, params.merchantExternalId);
      const store = await findStore(ctx.deps.db, principal.merchantId, params.storeExternalId, modeOf(principal));
      const paging = pagingOfQuery(query);
      const { terminals, total } = await listTerminals(ctx.deps.db, store.id, paging);
      answerArrayPage(
        ctx,
        terminals.map((t) => toTerminalRecord(t, store.externalId)),
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
      path: BASE,
      summary: 'Register a terminal in the store; the response carries its externalId. It takes payments once the operator links its device',
      tag: TAG,
      auth: 'apiKey',
      area: 'stores',
      params: StoreParams,
      body: TerminalInput,
      responses: { 201: { description: 'The terminal', schema: TerminalRecord } },
      errors: [403, 404, 409],
    },
    async (ctx, { params, body }) => {
      const principal = ctx.state.principal!;
      requireOwnMerchant(principal, params.merchantExternalId);
      const store = await findStore(ctx.deps.db, principal.merchantId, params.storeExternalId, modeOf(principal));
      const terminal = await createTerminal(ctx.deps.db, store, body);
      ctx.status = 201;
      ctx.set('Location', `/api/merchants/${encodeURIComponent(params.merchantExternalId)}/stores/${store.externalId}/terminals/${terminal.externalId}`);
      ctx.body = toTerminalRecord(terminal, store.externalId);
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: `${BASE}/{terminalExternalId}`,
      summary: 'One terminal',
      tag: TAG,
      auth: 'apiKey',
      area: 'stores',
      params: TerminalParams,
      responses: { 200: { description: 'The terminal', schema: TerminalRecord } },
      errors: [403, 404],
    },
    async (ctx, { params }) => {
      const principal = ctx.state.principal!;
      requireOwnMerchant(principal, params.merchantExternalId);
      const store = await findStore(ctx.deps.db, principal.merchantId, params.storeExternalId, modeOf(principal));
      ctx.body = toTerminalRecord(await findTerminal(ctx.deps.db, store, params.terminalExternalId), store.externalId);
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'put',
      path: `${BASE}/{terminalExternalId}`,
      summary: 'Replace a terminal: same body as POST; omitted optional fields are cleared, an omitted status is kept; the device link is untouched',
      tag: TAG,
      auth: 'apiKey',
      area: 'stores',
      params: TerminalParams,
      body: TerminalInput,
      responses: { 200: { description: 'The updated terminal', schema: TerminalRecord } },
      errors: [403, 404, 409],
    },
    async (ctx, { params, body }) => {
      const principal = ctx.state.principal!;
      requireOwnMerchant(principal, params.merchantExternalId);
      const store = await findStore(ctx.deps.db, principal.merchantId, params.storeExternalId, modeOf(principal));
      ctx.body = toTerminalRecord(await replaceTerminal(ctx.deps.db, store, params.terminalExternalId, body), store.externalId);
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'delete',
      path: `${BASE}/{terminalExternalId}`,
      summary: 'Remove a terminal and its device link; 409 after recent payments unless force=true',
      tag: TAG,
      auth: 'apiKey',
      area: 'stores',
      params: TerminalParams,
      query: DeleteQuery,
      responses: { 204: { description: 'Deleted' } },
      errors: [403, 404, 409],
    },
    async (ctx, { params, query }) => {
      const principal = ctx.state.principal!;
      requireOwnMerchant(principal, params.merchantExternalId);
      const store = await findStore(ctx.deps.db, principal.merchantId, params.storeExternalId, modeOf(principal));
      const terminal = await deleteTerminal(ctx.deps, store, params.terminalExternalId, query.force === 'true');
      ctx.state.log.info({ terminalExternalId: terminal.externalId, force: query.force === 'true' }, 'terminal deleted');
      ctx.status = 204;
    },
  );
};
