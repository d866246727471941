import { findOwnBill, listBills } from '../../bills/bills';
import { BillListQuery, BillParams, BillRecordSchema, BillTenderSchema } from '../../bills/schemas';
import { billDetail, toDashboardBill } from '../../dashboard/bills';
import { pagedSchema } from '../../domain/paging';
import { z } from '../../domain/zod';
import { GIVE_BACK_OUTCOMES, PENDING_GIVE_BACK_STEPS } from '../../../core/bill/givenBack';
import { callerOf } from '../caller';
import type { RouteModule } from '../routeModule';
import { defineRoute } from '../route';
import { Mode } from './dashboard';

/**
 * The dashboard's bills (docs/dashboard.md, "Bills") with a session token, under the payment rules
 * of the dashboard (docs/dashboard.md, "The dashboard API"): every role that reads payments, the
 * business's bills of both modes, another business's bill not found. Read by the same code as the
 * API-key reads (src/bills/bills.ts).
 */
const TAG = 'Dashboard';

const DashboardBillQuery = BillListQuery.extend({
  mode: Mode.optional().openapi({ description: 'Only live or only test bills; absent: both' }),
}).strict();

const DashboardBill = BillRecordSchema.extend({
  mode: z.enum(['live', 'test']).openapi({ description: 'The mode of the API key that opened the bill' }),
}).openapi('DashboardBill');

const DashboardBillTender = BillTenderSchema.extend({
  givenBack: z.enum(GIVE_BACK_OUTCOMES).nullable().openapi({
    description:
      'Once the bill is CANCELLING, CANCELLED or EXPIRED: what was done with the tender (VOIDED, REFUNDED, RELEASED, CANCELLED, TO_RETURN_AT_TILL for cash and other tenders, NOTHING_TAKEN); null while a step is still to take, and for a bill not given back',
  }),
  giveBackStep: z.enum(PENDING_GIVE_BACK_STEPS).nullable().openapi({
    description: 'While the bill is being given back: the step still to take for the tender (CANCEL, RELEASE, VOID_OR_REFUND, REFUND_REST); null once done',
  }),
}).openapi('DashboardBillTender');

// The bill's own fields, its tenders with their give-back (a new object: an extension would leave `tenders` typed twice).
const DashboardBillDetail = z.object({ ...DashboardBill.shape, tenders: z.array(DashboardBillTender) }).openapi('DashboardBillDetail');

export const dashboardBillRoutes: RouteModule = (router, registry) => {
  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: '/api/dashboard/bills',
      operationId: 'listDashboardBills',
      summary: 'Bills of the business, live and test, newest first, optionally of one store, status or mode, paged',
      tag: TAG,
      auth: 'session',
      area: 'sharedViews',
      query: DashboardBillQuery,
      responses: { 200: { description: 'A page of bills', schema: pagedSchema(DashboardBill, 'DashboardBillPage') } },
      errors: [403],
    },
    async (ctx, { query }) => {
      const { mode, ...filter } = query;
      ctx.body = await listBills(ctx.deps.db, { merchantId: callerOf(ctx).principal.merchantId, mode }, filter, toDashboardBill);
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: '/api/dashboard/bills/{id}',
      operationId: 'getDashboardBill',
      summary: 'One bill: what is paid and remains, its tenders in sequence order, and once given back what was done with each tender',
      tag: TAG,
      auth: 'session',
      area: 'sharedViews',
      params: BillParams,
      responses: { 200: { description: 'The bill', schema: DashboardBillDetail } },
      errors: [403, 404],
    },
    async (ctx, { params }) => {
      const bill = await findOwnBill(ctx.deps.db, { merchantId: callerOf(ctx).principal.merchantId }, params.id);
      ctx.body = await billDetail(ctx.deps.db, bill);
    },
  );
};
