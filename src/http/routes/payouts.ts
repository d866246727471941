import { pagedSchema } from '../../domain/paging';
import { z } from '../../domain/zod';
import { BalanceRecord, balancesOf, findOwnPayout, listPayouts, PayoutIdParams, PayoutListQuery } from '../../payouts/queries';
import { PayoutRecord } from '../../payouts/record';
import type { RouteModule } from '../routeModule';
import { defineRoute } from '../route';

/** Payouts and balances (docs/payouts-and-fees.md): ADMIN and FINANCE (the 'finance' area); another business's payout 404. */
const TAG = 'Fees and payouts';
const common = { tag: TAG, auth: 'session', area: 'finance' } as const;

export const payoutRoutes: RouteModule = (router, registry) => {
  defineRoute(
    router,
    registry,
    {
      ...common,
      method: 'get',
      path: '/api/dashboard/payouts',
      operationId: 'listPayouts',
      summary: "The business's payouts, newest first",
      query: PayoutListQuery,
      responses: { 200: { description: 'A page of payouts', schema: pagedSchema(PayoutRecord, 'PayoutPage') } },
      errors: [403],
    },
    async (ctx, { query }) => {
      ctx.body = await listPayouts(ctx.deps.db, ctx.state.principal!.merchantId, query);
    },
  );

  defineRoute(
    router,
    registry,
    {
      ...common,
      method: 'get',
      path: '/api/dashboard/payouts/{id}',
      operationId: 'getPayout',
      summary: 'One payout, with its reconciliation',
      params: PayoutIdParams,
      responses: { 200: { description: 'The payout', schema: PayoutRecord } },
      errors: [403, 404],
    },
    async (ctx, { params }) => {
      ctx.body = await findOwnPayout(ctx.deps.db, ctx.state.principal!.merchantId, params.id);
    },
  );

  defineRoute(
    router,
    registry,
    {
      ...common,
      method: 'get',
      path: '/api/dashboard/balances',
      operationId: 'listBalances',
      summary: 'Per account and currency: settled not yet paid out, in transit, paid out in the last 30 days',
      responses: { 200: { description: 'The balances', schema: z.array(BalanceRecord) } },
      errors: [403],
    },
    async (ctx) => {
      ctx.body = await balancesOf(ctx.deps.db, ctx.state.principal!.merchantId);
    },
  );
};
