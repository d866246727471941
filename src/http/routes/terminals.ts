import { randomBase62 } from '../../auth/apiKeys';
import { isUniqueViolation } from '../../db/client';
import { deleteGuarded } from '../../stores/deleteGuard';
import { findStore, findTerminal, isForeignKeyViolation, isRecordGone, requireOwnMerchant } from '../../stores/lookup';
import { DeleteQuery, StoreParams, TerminalInput, TerminalParams, TerminalRecord, terminalData } from '../../stores/schemas';
import { listTerminals } from '../../stores/search';
import { toTerminalRecord } from '../../stores/serializers';
import type { RouteModule } from '../app';
import { conflict, notFound } from '../../domain/errors';
import { z } from '../../domain/zod';
import { defineRoute } from '../route';

/** Terminals of spec 4.3, over the API key ('stores' scope). Rules: docs/stores-and-terminals.md. */
const BASE = '/api/merchants/{merchantExternalId}/stores/{storeExternalId}/terminals';
const TAG = 'Terminals';

export const newTerminalExternalId = (): string => `term_${randomBase62(20)}`;

/** The serial number index (merchant, lower(serialNumber)) is the only unique rule a terminal write can break. */
const duplicateSerial = () => conflict("serialNumber: another terminal of this business already has this serial number (compared without case)");

export const terminalRoutes: RouteModule = (router, registry) => {
  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: BASE,
      summary: "The store's terminals, ordered by label (a JSON array)",
      tag: TAG,
      auth: 'apiKey',
      area: 'stores',
      params: StoreParams,
      responses: { 200: { description: 'The terminals', schema: z.array(TerminalRecord) } },
      errors: [403, 404],
    },
    async (ctx, { params }) => {
      const principal = ctx.state.principal!;
      requireOwnMerchant(principal, params.merchantExternalId);
      const store = await findStore(ctx.deps.db, principal.merchantId, params.storeExternalId);
      ctx.body = (await listTerminals(ctx.deps.db, store.id)).map((t) => toTerminalRecord(t, store.externalId));
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
      const store = await findStore(ctx.deps.db, principal.merchantId, params.storeExternalId);
      try {
        const terminal = await ctx.deps.db.terminal.create({
          data: { merchantId: principal.merchantId, storeId: store.id, externalId: newTerminalExternalId(), status: 'ACTIVE', ...terminalData(body) },
        });
        ctx.status = 201;
        ctx.set('Location', `/api/merchants/${encodeURIComponent(params.merchantExternalId)}/stores/${store.externalId}/terminals/${terminal.externalId}`);
        ctx.body = toTerminalRecord(terminal, store.externalId);
      } catch (err) {
        if (isUniqueViolation(err)) throw duplicateSerial();
        if (isForeignKeyViolation(err)) throw notFound('store'); // deleted meanwhile
        throw err;
      }
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
      const store = await findStore(ctx.deps.db, principal.merchantId, params.storeExternalId);
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
      const store = await findStore(ctx.deps.db, principal.merchantId, params.storeExternalId);
      const terminal = await findTerminal(ctx.deps.db, store, params.terminalExternalId);
      try {
        const updated = await ctx.deps.db.terminal.update({ where: { id: terminal.id }, data: terminalData(body) });
        ctx.body = toTerminalRecord(updated, store.externalId);
      } catch (err) {
        if (isUniqueViolation(err)) throw duplicateSerial();
        if (isRecordGone(err)) throw notFound('terminal');
        throw err;
      }
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
      const { db, config } = ctx.deps;
      const store = await findStore(db, principal.merchantId, params.storeExternalId);
      const terminal = await findTerminal(db, store, params.terminalExternalId);
      await deleteGuarded(db, 'terminal', terminal.id, { force: query.force === 'true', hours: config.DELETE_GUARD_HOURS });
      ctx.state.log.info({ terminalExternalId: terminal.externalId, force: query.force === 'true' }, 'terminal deleted');
      ctx.status = 204;
    },
  );
};
