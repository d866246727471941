import { STRIPE_SIGNATURE_HEADER } from '../../acquirer/stripe/webhooks';
import { relayStripeEvent } from '../../payments/stripeNotification';
import type { RouteModule } from '../routeModule';
import { verifiedStripeEvent } from '../acquirerSignatures';
import { ApiError } from '../errors';
import { defineRoute } from '../route';

/**
 * Stripe's webhooks for the installation default (ACQUIRER=stripe, docs/acquirers.md): verified with
 * the library's signature check against STRIPE_WEBHOOK_SECRET, then only a nudge to a payment taken
 * without an acquirer account (an account's events come to its own path). An unsigned, forged or
 * stale event is 401; a replayed one (same event id) is accepted and dropped.
 */
export const stripeWebhookRoutes: RouteModule = (router, registry) => {
  defineRoute(
    router,
    registry,
    {
      method: 'post',
      path: '/internal/acquirer/stripe/webhooks',
      operationId: 'receiveStripeWebhook',
      summary: `Stripe webhook (internal): verified by the ${STRIPE_SIGNATURE_HEADER} header, then the payment re-reads Stripe`,
      tag: 'Internal',
      auth: 'none',
      responses: { 200: { description: 'Received (also when the event concerns no open payment: nothing to do)' } },
      errors: [401],
    },
    async (ctx) => {
      const { config, logger } = ctx.deps;
      const secret = config.STRIPE_WEBHOOK_SECRET;
      if (!secret) throw new ApiError(401, 'Stripe webhooks are not configured (STRIPE_WEBHOOK_SECRET)');
      const event = verifiedStripeEvent(ctx, secret);
      ctx.status = 200;
      ctx.body = { received: true };
      await relayStripeEvent({ ...ctx.deps, logger: ctx.state.log ?? logger }, event, { acquirerAccountId: null });
    },
  );
};
