import type { ApiKeyPrincipal } from '../../auth/principal';
import { normalizeRole } from '../../auth/roles';
import { forbidden } from '../../domain/errors';
import type { Payment } from '../../generated/prisma/client';
import { findOwnPayment } from '../../payments/operations';
import { PaymentParams } from '../../payments/schemas';
import { receiptHtml } from '../../receipts/html';
import { maskEmail } from '../../receipts/mask';
import { buildReceipt, hasReceipt } from '../../receipts/receipt';
import { ReceiptQuery, ReceiptSchema, SendReceiptAnswer, SendReceiptBody } from '../../receipts/schemas';
import { startRequestedReceipt } from '../../receipts/workflowStart';
import { conflict } from '../../domain/errors';
import { auditRequest, callerOf } from '../caller';
import type { ApiContext } from '../context';
import type { RouteModule } from '../routeModule';
import { logWithPayment } from '../requestId';
import { defineRoute } from '../route';
import { RECEIPT_PAGE_CSP } from '../securityHeaders';

/**
 * Receipts (docs/receipts.md): the read for the POS (API key) and the dashboard, as JSON or a
 * printable page, and the dashboard's "Send receipt".
 */
const TAG = 'Receipts';

/** The roles that may send a receipt from the dashboard. */
const SENDING_ROLES = new Set(['ADMIN', 'FINANCE', 'OPERATIONS']);

async function answerReceipt(ctx: ApiContext, payment: Payment, format: 'json' | 'html' | undefined): Promise<void> {
  const receipt = await buildReceipt(ctx.deps.db, payment);
  if (format === 'html') {
    ctx.set('Content-Security-Policy', RECEIPT_PAGE_CSP);
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = receiptHtml(receipt);
    return;
  }
  ctx.body = receipt;
}

const responses = {
  200: { description: 'The receipt (application/json), or with format=html the printable page (text/html)', schema: ReceiptSchema, text: 'text/html' as const },
};

export const receiptRoutes: RouteModule = (router, registry) => {
  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: '/api/in-store/payments/{id}/receipt',
      operationId: 'getPaymentReceipt',
      summary: "The payment's receipt, built from the service's records, for the POS to print: 409 until the payment was captured or authorised",
      tag: TAG,
      auth: 'apiKey',
      area: 'payments',
      params: PaymentParams,
      query: ReceiptQuery,
      responses,
      errors: [403, 404, 409],
    },
    async (ctx, { params, query }) => {
      logWithPayment(ctx, params.id);
      await answerReceipt(ctx, await findOwnPayment(ctx.deps.db, ctx.state.principal as ApiKeyPrincipal, params.id), query.format);
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: '/api/dashboard/payments/{id}/receipt',
      operationId: 'getDashboardPaymentReceipt',
      summary: "The payment's receipt (any dashboard role that sees payments): 409 until the payment was captured or authorised",
      tag: TAG,
      auth: 'session',
      area: 'sharedViews',
      params: PaymentParams,
      query: ReceiptQuery,
      responses,
      errors: [403, 404, 409],
    },
    async (ctx, { params, query }) => {
      logWithPayment(ctx, params.id);
      const { principal } = callerOf(ctx);
      await answerReceipt(ctx, await findOwnPayment(ctx.deps.db, { merchantId: principal.merchantId }, params.id), query.format);
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'post',
      path: '/api/dashboard/payments/{id}/receipt/send',
      operationId: 'sendPaymentReceipt',
      summary:
        'Email the receipt to an address (ADMIN, FINANCE, OPERATIONS): 202 once queued; sent in the background and retried while the mail server is down, then RECEIPT_SENT or RECEIPT_FAILED. Audited',
      tag: TAG,
      auth: 'session',
      area: 'sharedViews',
      params: PaymentParams,
      body: SendReceiptBody,
      responses: { 202: { description: 'Queued', schema: SendReceiptAnswer } },
      errors: [403, 404, 409, 503],
    },
    async (ctx, { params, body }) => {
      logWithPayment(ctx, params.id);
      const { principal } = callerOf(ctx);
      if (!principal.roles.some((r) => SENDING_ROLES.has(normalizeRole(r) ?? ''))) throw forbidden('sending a receipt needs ADMIN, FINANCE or OPERATIONS');
      const payment = await findOwnPayment(ctx.deps.db, { merchantId: principal.merchantId }, params.id);
      if (!hasReceipt(payment)) throw conflict(`the payment is ${payment.status}: a receipt exists once it was captured or authorised`);
      const receiptId = await startRequestedReceipt(ctx.deps, payment.id, body.email);
      const to = maskEmail(body.email);
      await auditRequest(ctx, {
        action: 'RECEIPT_SEND_REQUESTED',
        target: { type: 'PAYMENT', id: payment.id },
        details: { receiptId, to, username: principal.username },
      });
      ctx.status = 202;
      ctx.body = { receiptId, to, status: 'QUEUED' };
    },
  );
};
