import { areasOfRoles } from '../../auth/roles';
import { dashboardSummary } from '../../dashboard/summary';
import { nameDirectory } from '../../dashboard/names';
import { StoreByName } from '../../stores/schemas';
import { paymentDetail } from '../../dashboard/paymentDetail';
import { PaymentListQuery } from '../../payments/listQuery';
import { instant } from '../../domain/listQuery';
import { findOwnPayment } from '../../payments/operations';
import { PaymentParams, PaymentRecordSchema } from '../../payments/schemas';
import { listPayments } from '../../payments/queries';
import { callerOf } from '../caller';
import { getUser } from '../../users/management';
import { UserRecord } from '../../users/userRecord';
import { paymentViewOf } from '../../fees/visibility';
import type { RouteModule } from '../routeModule';
import { invalid } from '../../domain/errors';
import { z } from '../../domain/zod';
import { pagedSchema } from '../../domain/paging';
import { logWithPayment } from '../requestId';
import { defineRoute } from '../route';

/**
 * The merchant dashboard's own reads (docs/dashboard.md, "The dashboard API") with a session token: who is signed in and
 * what they may reach, payments of both modes, the home page's figures. Every call is checked
 * against the role table (docs/users-and-keys.md, "Roles") by the route's area; the payments are read by the same code
 * the API-key endpoints use (src/payments/search.ts, findOwnPayment).
 */
const TAG = 'Dashboard';

/** A dashboard list's mode filter (live and test alike when absent). */
export const Mode = z.enum(['live', 'test'], { message: "must be 'live' or 'test'" });

const DashboardPaymentQuery = PaymentListQuery.extend({
  mode: Mode.optional().openapi({ description: 'Only live or only test payments; absent: both' }),
}).strict();

const DashboardPaymentDetail = PaymentRecordSchema.extend({
  history: z.array(
    z.object({ status: z.string(), previousStatus: z.string().nullable(), actionReference: z.string(), source: z.string(), occurredAt: z.string() }),
  ),
  webhookEvents: z
    .array(
      z.object({
        eventId: z.string(),
        eventType: z.string(),
        createdAt: z.string(),
        deliveries: z.array(z.object({ configId: z.string(), url: z.string(), status: z.string(), attempts: z.number().int(), updatedAt: z.string() })),
      }),
    )
    .nullable()
    .openapi({ description: 'Events sent for the payment, newest first; null for a caller without the webhooks area' }),
}).openapi('DashboardPaymentDetail');

const Me = z
  .object({
    user: UserRecord,
    areas: z.array(z.string()).openapi({ description: 'The areas of the role table the user reaches (union of their roles)' }),
    disputeReminderHours: z.number().openapi({
      description: 'DISPUTE_REMINDER_HOURS: a dispute due within this many hours is reminded of, and the dashboard marks it',
    }),
  })
  .openapi('DashboardMe');

const SummaryQuery = z
  .strictObject({
    from: instant.optional().openapi({ description: 'inclusive; default the start of the current UTC day' }),
    to: instant.optional().openapi({ description: 'exclusive; default 24 hours after from' }),
    mode: Mode.optional(),
  })
  .openapi('DashboardSummaryQuery');

const Summary = z
  .object({
    from: z.string(),
    to: z.string(),
    stores: z.array(
      z.object({
        storeExternalId: z.string(),
        currency: z.string(),
        payments: z.number().int(),
        captured: z.number().int(),
        capturedAmount: z.number(),
        refused: z.number().int(),
        open: z.number().int(),
      }),
    ),
    hours: z.array(z.object({ hour: z.string(), status: z.string(), count: z.number().int() })),
  })
  .openapi('DashboardSummary');

const Names = z
  .object({
    stores: z.array(
      StoreByName.extend({
        status: z.string(),
        terminals: z.array(z.object({ externalId: z.string(), label: z.string(), status: z.string() })),
      }),
    ),
    users: z.array(z.object({ id: z.number().int(), username: z.string(), displayName: z.string().nullable() })),
    accounts: z
      .array(z.object({ id: z.string(), name: z.string(), acquirer: z.string(), mode: z.enum(['live', 'test']) }))
      .openapi({ description: "The business's acquirer accounts by name (no MID, no credential)" }),
  })
  .openapi('DashboardNames');

const DAY_MS = 86_400_000;

export const dashboardRoutes: RouteModule = (router, registry) => {
  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: '/api/dashboard/me',
      operationId: 'getDashboardProfile',
      summary: 'The signed-in user and the areas their roles reach',
      tag: TAG,
      auth: 'session',
      area: 'ownAccount',
      responses: { 200: { description: 'The user and areas', schema: Me } },
    },
    async (ctx) => {
      const caller = callerOf(ctx);
      ctx.body = {
        user: await getUser(ctx.deps.db, caller, caller.principal.userId),
        areas: [...areasOfRoles(caller.principal.roles)],
        disputeReminderHours: ctx.deps.config.DISPUTE_REMINDER_HOURS,
      };
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: '/api/dashboard/summary',
      operationId: 'getDashboardSummary',
      summary: "Home figures: per store and currency today's payments, and payments per hour by status",
      tag: TAG,
      auth: 'session',
      area: 'sharedViews',
      query: SummaryQuery,
      responses: { 200: { description: 'The figures', schema: Summary } },
      errors: [403],
    },
    async (ctx, { query }) => {
      const now = new Date();
      const from = query.from ?? new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
      const to = query.to ?? new Date(from.getTime() + DAY_MS);
      if (to <= from) throw invalid('to: must be after from');
      if (to.getTime() - from.getTime() > 31 * DAY_MS) throw invalid('to: the period must be at most 31 days');
      ctx.body = await dashboardSummary(ctx.deps.db, callerOf(ctx).principal.merchantId, query.mode, from, to);
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: '/api/dashboard/names',
      operationId: 'getDashboardNames',
      summary: "The business's stores, terminals, users and acquirer accounts by name: what the pages show instead of ids, and the filters suggest",
      tag: TAG,
      auth: 'session',
      area: 'sharedViews',
      responses: { 200: { description: 'Stores with their terminals, and users', schema: Names } },
      errors: [403],
    },
    async (ctx) => {
      ctx.body = await nameDirectory(ctx.deps.db, callerOf(ctx).principal.merchantId);
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: '/api/dashboard/payments',
      operationId: 'listDashboardPayments',
      summary: 'Payments of the business, live and test, newest first, filtered and paged',
      tag: TAG,
      auth: 'session',
      area: 'sharedViews',
      query: DashboardPaymentQuery,
      responses: { 200: { description: 'A page of payments', schema: pagedSchema(PaymentRecordSchema, 'DashboardPaymentPage') } },
      errors: [403],
    },
    async (ctx, { query }) => {
      const { merchantId } = callerOf(ctx).principal;
      const { page, size, mode, ...filter } = query;
      ctx.body = await listPayments(ctx.deps.db, { merchantId, mode }, filter, { page, size }, paymentViewOf(callerOf(ctx).principal));
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: '/api/dashboard/payments/{id}',
      operationId: 'getDashboardPayment',
      summary: 'One payment with its status history and (webhooks area) its webhook deliveries',
      tag: TAG,
      auth: 'session',
      area: 'sharedViews',
      params: PaymentParams,
      responses: { 200: { description: 'The payment', schema: DashboardPaymentDetail } },
      errors: [403, 404],
    },
    async (ctx, { params }) => {
      logWithPayment(ctx, params.id);
      const { principal } = callerOf(ctx);
      const payment = await findOwnPayment(ctx.deps.db, { merchantId: principal.merchantId }, params.id);
      ctx.body = await paymentDetail(ctx.deps.db, payment, { withWebhooks: areasOfRoles(principal.roles).has('webhooks'), view: paymentViewOf(principal) });
    },
  );
};
