import type { ApiKeyPrincipal } from '../../auth/principal';
import { createPayment } from '../../payments/createPayment';
import { cancelPayment, capturePayment, syncStatus, voidPayment } from '../../payments/operations';
import { toPaymentRecord } from '../../payments/record';
import { CaptureBody, CreatePaymentBody, PaymentParams, PaymentRecordSchema } from '../../payments/schemas';
import { paymentViewOf } from '../../fees/visibility';
import type { RouteModule } from '../routeModule';
import type { ApiContext } from '../context';
import { logWithPayment } from '../requestId';
import { defineRoute } from '../route';

/** In-store payments (write side), over the API key ('payments' scope). Rules: docs/payments.md. */
const BASE = '/api/in-store/payments';
const TAG = 'Payments';

/** Response header of a repeated create answered with the open payment that has the same reference. */
export const IDEMPOTENT_REPLAY_HEADER = 'Idempotent-Replayed';

const principalOf = (ctx: ApiContext) => ctx.state.principal as ApiKeyPrincipal;
/** The request's logger, which names the payment once logWithPayment has run. */
const depsOf = (ctx: ApiContext) => ({ ...ctx.deps, logger: ctx.state.log });

export const paymentRoutes: RouteModule = (router, registry) => {
  defineRoute(
    router,
    registry,
    {
      method: 'post',
      path: BASE,
      operationId: 'createPayment',
      summary:
        'Create a payment: the bill goes to the terminal. 201 once it is on the device (AWAITING_TERMINAL) or refused (REFUSED, refusalReason); always branch on status. A repeat with the reference of an open payment returns that payment (header Idempotent-Replayed: true). 503 when the acquirer did not answer in time: retry with the same reference',
      tag: TAG,
      auth: 'apiKey',
      area: 'payments',
      body: CreatePaymentBody,
      responses: { 201: { description: 'The payment (AWAITING_TERMINAL, or REFUSED with refusalReason)', schema: PaymentRecordSchema } },
      errors: [403, 404, 409, 503],
    },
    async (ctx, { body }) => {
      const { payment, replayed } = await createPayment(depsOf(ctx), principalOf(ctx), body);
      logWithPayment(ctx, payment.id);
      ctx.status = 201;
      if (replayed) ctx.set(IDEMPOTENT_REPLAY_HEADER, 'true');
      ctx.body = toPaymentRecord(payment, paymentViewOf(ctx.state.principal!));
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'post',
      path: `${BASE}/{id}/sync-status`,
      operationId: 'syncPaymentStatus',
      summary: 'The payment, refreshed from the acquirer first; safe to repeat. A final payment is answered as it stands',
      tag: TAG,
      auth: 'apiKey',
      area: 'payments',
      params: PaymentParams,
      responses: { 200: { description: 'The payment', schema: PaymentRecordSchema } },
      errors: [403, 404, 503],
    },
    async (ctx, { params }) => {
      logWithPayment(ctx, params.id);
      ctx.body = toPaymentRecord(await syncStatus(depsOf(ctx), principalOf(ctx), params.id), paymentViewOf(ctx.state.principal!));
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'post',
      path: `${BASE}/{id}/cancel`,
      operationId: 'cancelPayment',
      summary:
        'Withdraw a bill still waiting at the terminal, or release a two-step authorisation (AUTHORIZED: 200 CANCELLED, previousStatus AUTHORIZED). 200 with the resulting payment: CANCELLED, CAPTURED when the customer completed first, AWAITING_TERMINAL when the acquirer could not be reached (the sweep settles it). 409 when the payment is already decided',
      tag: TAG,
      auth: 'apiKey',
      area: 'payments',
      params: PaymentParams,
      responses: { 200: { description: 'The payment in its resulting state; read status', schema: PaymentRecordSchema } },
      errors: [403, 404, 409, 503],
    },
    async (ctx, { params }) => {
      logWithPayment(ctx, params.id);
      ctx.body = toPaymentRecord(await cancelPayment(depsOf(ctx), principalOf(ctx), params.id), paymentViewOf(ctx.state.principal!));
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'post',
      path: `${BASE}/{id}/capture`,
      operationId: 'capturePayment',
      summary:
        'Complete a two-step authorisation, all of it or the amount given (at most the authorised amount). 200 CAPTURED with capturedAmount and capturedAt (the void window runs from this capture); 200 still AUTHORIZED when the acquirer could not be reached: the capture is kept and completed by the service later. 409 for any status but AUTHORIZED',
      tag: TAG,
      auth: 'apiKey',
      area: 'payments',
      params: PaymentParams,
      body: CaptureBody,
      responses: { 200: { description: 'The payment: CAPTURED, or still AUTHORIZED with the capture under way', schema: PaymentRecordSchema } },
      errors: [403, 404, 409, 503],
    },
    async (ctx, { params, body }) => {
      logWithPayment(ctx, params.id);
      ctx.body = toPaymentRecord(await capturePayment(depsOf(ctx), principalOf(ctx), params.id, body?.amount), paymentViewOf(ctx.state.principal!));
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'post',
      path: `${BASE}/{id}/void`,
      operationId: 'voidPayment',
      summary:
        'Reverse a captured payment inside the void window (each call submits another reversal). 200 CANCELLED when the acquirer confirms in time, 200 CAPTURED when the reversal is not confirmed yet; 409 when a precondition fails, 404 when the store or terminal no longer exists',
      tag: TAG,
      auth: 'apiKey',
      area: 'payments',
      params: PaymentParams,
      responses: { 200: { description: 'The payment: CANCELLED (previousStatus CAPTURED) or still CAPTURED', schema: PaymentRecordSchema } },
      errors: [403, 404, 409, 503],
    },
    async (ctx, { params }) => {
      logWithPayment(ctx, params.id);
      ctx.body = toPaymentRecord(await voidPayment(depsOf(ctx), principalOf(ctx), params.id), paymentViewOf(ctx.state.principal!));
    },
  );
};
