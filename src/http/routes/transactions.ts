import { findOwnPayment } from '../../payments/operations';
import { PaymentListQuery } from '../../payments/listQuery';
import { listPayments, paymentHistory } from '../../payments/queries';
import { toPaymentRecord } from '../../payments/record';
import { PaymentParams, PaymentRecordSchema } from '../../payments/schemas';
import { HISTORY_SOURCES } from '../../../core/payment/statuses';
import type { ApiKeyPrincipal } from '../../auth/principal';
import { paymentViewOf } from '../../fees/visibility';
import type { RouteModule } from '../routeModule';
import { pagedSchema } from '../../domain/paging';
import { z } from '../../domain/zod';
import { logWithPayment } from '../requestId';
import { defineRoute } from '../route';

const HistoryEntry = z
  .object({ status: z.string(), previousStatus: z.string().nullable(), actionReference: z.string(), source: z.enum(HISTORY_SOURCES), occurredAt: z.string() })
  .openapi('PaymentHistoryEntry');

const ByPaymentParams = z.object({ paymentId: z.string().min(1).max(100) });

const ListQuery = PaymentListQuery.extend({ merchantExternalId: z.string().min(1).optional() }).strict();

/** The read side of payments (docs/payments.md, "Reading payments"): parse, call src/payments/queries.ts, answer. */
export const transactionRoutes: RouteModule = (router, registry) => {
  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: '/api/transactions/by-payment/{paymentId}',
      operationId: 'listTransactionHistory',
      summary: 'Status history of a payment, newest first, one entry per status event',
      tag: 'Transactions',
      auth: 'apiKey',
      area: 'payments',
      params: ByPaymentParams,
      responses: { 200: { description: 'History entries', schema: z.array(HistoryEntry) } },
      errors: [404],
    },
    async (ctx, { params }) => {
      logWithPayment(ctx, params.paymentId);
      ctx.body = await paymentHistory(ctx.deps.db, ctx.state.principal as ApiKeyPrincipal, params.paymentId);
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: '/api/transactions/{id}',
      operationId: 'getTransaction',
      summary: "A payment's current state, without contacting the terminal",
      tag: 'Transactions',
      auth: 'apiKey',
      area: 'payments',
      params: PaymentParams,
      responses: { 200: { description: 'The payment', schema: PaymentRecordSchema } },
      errors: [404],
    },
    async (ctx, { params }) => {
      logWithPayment(ctx, params.id);
      ctx.body = toPaymentRecord(await findOwnPayment(ctx.deps.db, ctx.state.principal as ApiKeyPrincipal, params.id), paymentViewOf(ctx.state.principal!));
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: '/api/transactions',
      operationId: 'listTransactions',
      summary: 'Payments, newest first, filtered and paged',
      tag: 'Transactions',
      auth: 'apiKey',
      area: 'payments',
      query: ListQuery,
      responses: { 200: { description: 'A page of payments', schema: pagedSchema(PaymentRecordSchema, 'PaymentPage') } },
      errors: [404],
    },
    async (ctx, { query }) => {
      const { page, size, ...filter } = query;
      ctx.body = await listPayments(ctx.deps.db, ctx.state.principal as ApiKeyPrincipal, filter, { page, size }, paymentViewOf(ctx.state.principal!));
    },
  );
};
