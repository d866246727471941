import type { ApiKeyPrincipal, UserPrincipal } from '../../auth/principal';
import { DomainError, invalid } from '../../domain/errors';
import { z } from '../../domain/zod';
import { findOwnPayment } from '../../payments/operations';
import { CreateRefundBody, RefundRecordSchema, toRefundRecord } from '../../refunds/record';
import { createRefund, findMerchantPayment, listRefunds } from '../../refunds/refunds';
import type { RouteModule } from '../routeModule';
import { auditRequest } from '../caller';
import { logWithPayment } from '../requestId';
import { defineRoute } from '../route';

/**
 * Refunds (docs/refunds.md): created by signed-in ADMIN and FINANCE users (the 'finance' area), read
 * by every dashboard user that sees payments, and by API keys on the transactions side. Rules:
 * docs/refunds.md.
 */
const TAG = 'Refunds';
const Params = z.object({ paymentId: z.string().min(1).max(100).openapi({ description: 'The payment id' }) });
const IDEMPOTENCY_HEADER = 'idempotency-key';

function idempotencyKeyOf(headers: Record<string, string | string[] | undefined>): string | null {
  const raw = headers[IDEMPOTENCY_HEADER];
  if (raw === undefined) return null;
  const key = Array.isArray(raw) ? raw.join(',') : raw;
  if (key.length < 1 || key.length > 255) throw invalid('Idempotency-Key: must be 1-255 characters');
  return key;
}

const IdempotencyHeaders = z.object({
  'Idempotency-Key': z
    .string()
    .min(1)
    .max(255)
    .optional()
    .openapi({ description: 'The same key again within 24 h answers 200 with the same refund; with another body 409. Clients retry with the same key' }),
});

export const refundRoutes: RouteModule = (router, registry) => {
  defineRoute(
    router,
    registry,
    {
      method: 'post',
      path: '/api/dashboard/payments/{paymentId}/refunds',
      operationId: 'createRefund',
      summary:
        'Refund a payment, all that is still refundable or the amount given (ADMIN, FINANCE). 201 with the refund: SUCCEEDED or FAILED when the acquirer decided within REFUND_CONFIRM_TIMEOUT_SECONDS, else PENDING and followed by the service until it decides. Optional Idempotency-Key header: the same key again within 24 h answers 200 with the same refund, with another body 409',
      tag: TAG,
      auth: 'session',
      area: 'finance',
      params: Params,
      headers: IdempotencyHeaders,
      body: CreateRefundBody,
      responses: {
        201: { description: 'The refund', schema: RefundRecordSchema },
        200: { description: 'The refund an earlier request with the same Idempotency-Key created', schema: RefundRecordSchema },
      },
      errors: [403, 404, 409, 503],
    },
    async (ctx, { params, body }) => {
      logWithPayment(ctx, params.paymentId);
      const user = ctx.state.principal as UserPrincipal;
      const key = idempotencyKeyOf(ctx.headers);
      const requested = { paymentId: params.paymentId, amount: body?.amount ?? null, reason: body?.reason ?? null, idempotencyKey: key };
      let result;
      try {
        result = await createRefund({ ...ctx.deps, logger: ctx.state.log }, user, params.paymentId, body, key);
      } catch (err) {
        // Every refund request is in the audit log, also the refused ones.
        if (err instanceof DomainError && err.kind !== 'not_found') {
          await auditRequest(ctx, { action: 'REFUND_REFUSED', target: { type: 'PAYMENT', id: params.paymentId }, details: { ...requested, why: err.message } });
        }
        throw err;
      }
      const { refund, replayed } = result;
      await auditRequest(ctx, {
        action: replayed ? 'REFUND_REPLAYED' : 'REFUND_REQUESTED',
        target: { type: 'PAYMENT', id: refund.paymentId },
        details: {
          ...requested,
          refundId: refund.id,
          amount: refund.amount.toFixed(),
          currency: refund.currency,
          status: refund.status,
          username: user.username,
        },
      });
      ctx.status = replayed ? 200 : 201;
      ctx.body = toRefundRecord(refund);
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: '/api/dashboard/payments/{paymentId}/refunds',
      operationId: 'listRefunds',
      summary: "A payment's refunds, newest first (any dashboard role that sees payments)",
      tag: TAG,
      auth: 'session',
      area: 'sharedViews',
      params: Params,
      responses: { 200: { description: 'Refunds, newest first', schema: z.array(RefundRecordSchema) } },
      errors: [403, 404],
    },
    async (ctx, { params }) => {
      logWithPayment(ctx, params.paymentId);
      const payment = await findMerchantPayment(ctx.deps.db, (ctx.state.principal as UserPrincipal).merchantId, params.paymentId);
      ctx.body = (await listRefunds(ctx.deps.db, payment)).map(toRefundRecord);
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: '/api/transactions/{paymentId}/refunds',
      operationId: 'listTransactionRefunds',
      summary: "A payment's refunds, newest first (read only: refunds are made by dashboard users)",
      tag: 'Transactions',
      auth: 'apiKey',
      area: 'payments',
      params: Params,
      responses: { 200: { description: 'Refunds, newest first', schema: z.array(RefundRecordSchema) } },
      errors: [404],
    },
    async (ctx, { params }) => {
      logWithPayment(ctx, params.paymentId);
      const payment = await findOwnPayment(ctx.deps.db, ctx.state.principal as ApiKeyPrincipal, params.paymentId);
      ctx.body = (await listRefunds(ctx.deps.db, payment)).map(toRefundRecord);
    },
  );
};
