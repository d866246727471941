import { STRIPE_SIGNATURE_HEADER, RecentEvents, nudgeOf, verifyStripeEvent } from '../../acquirer/stripe/webhooks';
import { acquirerNotifiedSignal } from '../../../core/payment/messages';
import { isOpen } from '../../../core/payment/statuses';
import type { RouteModule } from '../app';
import { ApiError } from '../errors';
import { defineRoute } from '../route';

const recent = new RecentEvents();

/**
 * Stripe's webhooks (ACQUIRER=stripe, docs/acquirers.md): verified with the library's signature
 * check against STRIPE_WEBHOOK_SECRET, then only a nudge: the payment's workflow re-reads Stripe.
 * An unsigned, forged or stale event is 401; a replayed one (same event id) is accepted and dropped.
 */
export const stripeWebhookRoutes: RouteModule = (router, registry) => {
  defineRoute(
    router,
    registry,
    {
      method: 'post',
      path: '/internal/acquirer/stripe/webhooks',
      summary: `Stripe webhook (internal): verified by the ${STRIPE_SIGNATURE_HEADER} header, then the payment re-reads Stripe`,
      tag: 'Internal',
      auth: 'none',
      responses: { 200: { description: 'Received (also when the event concerns no open payment: nothing to do)' } },
      errors: [401],
    },
    async (ctx) => {
      const { config, db, temporal, logger } = ctx.deps;
      const secret = config.STRIPE_WEBHOOK_SECRET;
      if (!secret) throw new ApiError(401, 'Stripe webhooks are not configured (STRIPE_WEBHOOK_SECRET)');
      const raw = (ctx.request as { rawBody?: string }).rawBody ?? '';
      const event = verifyStripeEvent(raw, ctx.get(STRIPE_SIGNATURE_HEADER) || undefined, secret);
      if (!event) throw new ApiError(401, 'Stripe signature missing, invalid, or dated more than the tolerance from now');
      ctx.status = 200;
      ctx.body = { received: true };
      const nudge = nudgeOf(event);
      if (!nudge || typeof event.id !== 'string' || !recent.firstTime(event.id)) return;
      const payment = await db.payment.findFirst({
        where: { acquirerRef: nudge.acquirerRef, acquirerName: 'stripe', ...(nudge.deviceId ? { deviceId: nudge.deviceId } : {}) },
        select: { id: true, workflowId: true, status: true },
      });
      // Only a payment still open, or captured with a reversal to confirm, has anything to re-read.
      if (!payment || !(isOpen(payment.status) || payment.status === 'CAPTURED')) return;
      try {
        await temporal.workflow
          .getHandle(payment.workflowId)
          .signal(acquirerNotifiedSignal, { event: nudge.event, ...(nudge.voidReference ? { voidReference: nudge.voidReference } : {}) });
      } catch (err) {
        // The workflow is gone: the sweep settles the payment from Stripe's answer.
        (ctx.state.log ?? logger).warn({ err: (err as Error).message, paymentId: payment.id }, 'Stripe webhook not delivered to the payment workflow');
      }
    },
  );
};
