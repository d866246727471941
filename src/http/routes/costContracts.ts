import { readContract, saveContract, toContractRecord } from '../../fees/contracts';
import { COST_CONTRACT_AREA } from '../../fees/visibility';
import { CostContractBody, CostContractParams, CostContractQuery, CostContractRecord } from '../../fees/schemas';
import type { RouteModule } from '../routeModule';
import { auditSourceOf, callerOf } from '../caller';
import { defineRoute } from '../route';

/**
 * An acquirer account's cost contract (docs/payouts-and-fees.md, "Cost contracts"): ADMIN saves a new version, ADMIN and
 * FINANCE read the one in force. Parse, call src/fees/, answer.
 */
const TAG = 'Fees and payouts';
const PATH = '/api/dashboard/acquirer-accounts/{id}/cost-contract';

export const costContractRoutes: RouteModule = (router, registry) => {
  defineRoute(
    router,
    registry,
    {
      tag: TAG,
      auth: 'session',
      area: COST_CONTRACT_AREA,
      method: 'get',
      path: PATH,
      operationId: 'getCostContract',
      summary: "The account's cost contract in force for a currency",
      params: CostContractParams,
      query: CostContractQuery,
      responses: { 200: { description: 'The contract in force', schema: CostContractRecord } },
      errors: [403, 404],
    },
    async (ctx, { params, query }) => {
      ctx.body = toContractRecord(await readContract(ctx.deps.db, ctx.state.principal!.merchantId, params.id, query.currency));
    },
  );

  defineRoute(
    router,
    registry,
    {
      tag: TAG,
      auth: 'session',
      area: 'acquirerAccounts',
      method: 'put',
      path: PATH,
      operationId: 'replaceCostContract',
      summary: "Replace the account's cost contract for a currency from now on (a new version; earlier ones keep pricing what they priced)",
      params: CostContractParams,
      body: CostContractBody,
      responses: { 200: { description: 'The new version', schema: CostContractRecord } },
      errors: [403, 404],
    },
    async (ctx, { params, body }) => {
      const saved = await saveContract(ctx.deps.db, { ...auditSourceOf(ctx), username: callerOf(ctx).principal.username }, params.id, body);
      ctx.body = toContractRecord(saved);
    },
  );
};
