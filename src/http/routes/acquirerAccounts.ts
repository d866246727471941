import { createAccount, deleteAccount, listAccounts, ownAccount, toAccountRecord, updateAccount, type AccountDeps } from '../../acquirerAccounts/accounts';
import { readRoutes, saveRoutes, toRoutesRecord } from '../../acquirerAccounts/routes';
import { AccountParams, AccountRecord, CreateAccountBody, RoutesBody, RoutesQuery, RoutesRecord, UpdateAccountBody } from '../../acquirerAccounts/schemas';
import { z } from '../../domain/zod';
import type { RouteModule } from '../routeModule';
import { auditSourceOf, callerOf } from '../caller';
import type { ApiContext } from '../context';
import { defineRoute } from '../route';

/**
 * Acquirer accounts (MIDs) and acquirer routes (docs/acquirers.md): ADMIN only, with a dashboard
 * session. Parse, call src/acquirerAccounts/, answer; credentials only ever answered masked.
 */
const TAG = 'Acquirer accounts';
const BASE = '/api/dashboard/acquirer-accounts';
const common = { tag: TAG, auth: 'session', area: 'acquirerAccounts' } as const;

const depsOf = (ctx: ApiContext): AccountDeps => ({ db: ctx.deps.db, production: ctx.deps.config.NODE_ENV === 'production' });

export const acquirerAccountRoutes: RouteModule = (router, registry) => {
  defineRoute(
    router,
    registry,
    {
      ...common,
      method: 'get',
      path: BASE,
      operationId: 'listAcquirerAccounts',
      summary: "The business's acquirer accounts, oldest first",
      responses: { 200: { description: 'The accounts', schema: z.array(AccountRecord) } },
      errors: [403],
    },
    async (ctx) => {
      ctx.body = (await listAccounts(ctx.deps.db, ctx.state.principal!.merchantId)).map(toAccountRecord);
    },
  );

  defineRoute(
    router,
    registry,
    {
      ...common,
      method: 'post',
      path: BASE,
      operationId: 'createAcquirerAccount',
      summary: 'Register an acquirer account: the MID and credentials of one contract with an acquirer',
      body: CreateAccountBody,
      responses: { 201: { description: 'The account, credentials masked', schema: AccountRecord } },
      errors: [403, 409],
    },
    async (ctx, { body }) => {
      const account = await createAccount(depsOf(ctx), auditSourceOf(ctx), body);
      ctx.status = 201;
      ctx.body = toAccountRecord(account);
    },
  );

  defineRoute(
    router,
    registry,
    {
      ...common,
      method: 'get',
      path: `${BASE}/{id}`,
      operationId: 'getAcquirerAccount',
      summary: 'One acquirer account',
      params: AccountParams,
      responses: { 200: { description: 'The account', schema: AccountRecord } },
      errors: [403, 404],
    },
    async (ctx, { params }) => {
      ctx.body = toAccountRecord(await ownAccount(ctx.deps.db, ctx.state.principal!.merchantId, params.id));
    },
  );

  defineRoute(
    router,
    registry,
    {
      ...common,
      method: 'put',
      path: `${BASE}/{id}`,
      operationId: 'updateAcquirerAccount',
      summary: 'Rename, rotate the credentials of, or (de)activate an acquirer account',
      params: AccountParams,
      body: UpdateAccountBody,
      responses: { 200: { description: 'The account, credentials masked', schema: AccountRecord } },
      errors: [403, 404, 409],
    },
    async (ctx, { params, body }) => {
      ctx.body = toAccountRecord(await updateAccount(depsOf(ctx), auditSourceOf(ctx), params.id, body));
    },
  );

  defineRoute(
    router,
    registry,
    {
      ...common,
      method: 'delete',
      path: `${BASE}/{id}`,
      operationId: 'deleteAcquirerAccount',
      summary: 'Remove an acquirer account no route names and no open payment uses',
      params: AccountParams,
      responses: { 204: { description: 'Removed' } },
      errors: [403, 404, 409],
    },
    async (ctx, { params }) => {
      await deleteAccount(depsOf(ctx), auditSourceOf(ctx), params.id);
      ctx.status = 204;
    },
  );

  defineRoute(
    router,
    registry,
    {
      ...common,
      method: 'get',
      path: '/api/dashboard/acquirer-routes',
      operationId: 'getAcquirerRoutes',
      summary: "The business's acquirer routes of one mode (version 0 while never saved)",
      query: RoutesQuery,
      responses: { 200: { description: 'The routes', schema: RoutesRecord } },
      errors: [403],
    },
    async (ctx, { query }) => {
      ctx.body = toRoutesRecord(query.mode, await readRoutes(ctx.deps.db, ctx.state.principal!.merchantId, query.mode));
    },
  );

  defineRoute(
    router,
    registry,
    {
      ...common,
      method: 'put',
      path: '/api/dashboard/acquirer-routes',
      operationId: 'replaceAcquirerRoutes',
      summary: "Replace the business's acquirer routes of one mode: the ordered rules and the default account",
      body: RoutesBody,
      responses: { 200: { description: 'The saved routes', schema: RoutesRecord } },
      errors: [403],
    },
    async (ctx, { body }) => {
      const saved = await saveRoutes(ctx.deps.db, { ...auditSourceOf(ctx), username: callerOf(ctx).principal.username }, body);
      ctx.body = toRoutesRecord(body.mode, saved);
    },
  );
};
