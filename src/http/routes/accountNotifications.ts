import { accountForNotification } from '../../acquirerAccounts/notifications';
import { SIGNATURE_HEADER } from '../../acquirer/sandbox/notify';
import { STRIPE_SIGNATURE_HEADER } from '../../acquirer/stripe/webhooks';
import { z } from '../../domain/zod';
import { relayAcquirerNotification } from '../../payments/acquirerNotification';
import { relayDisputeNotification } from '../../disputes/notifications';
import { relayPayoutNotification } from '../../payouts/notifications';
import { relayAdyenNudges } from '../../payments/adyenNotification';
import { relayAdyenDisputes } from '../../disputes/adyenNotifications';
import { relayStripeEvent } from '../../payments/stripeNotification';
import type { RouteModule } from '../routeModule';
import { verifiedAdyenNudges, verifiedSandboxNotification, verifiedStripeEvent } from '../acquirerSignatures';
import { defineRoute } from '../route';

/**
 * Each acquirer account's own notification path (its `notificationPath`, docs/acquirers.md, "Notifications per account"): the
 * account's acquirer's notifications, verified with that account's secret, nudging only that
 * account's payments. Answers as each acquirer expects: Stripe 200, the sandbox 202, Adyen 200
 * `[accepted]`; a missing or forged signature 401 with nothing changed (docs/acquirers.md,
 * "Notifications per account").
 */
const Params = z.object({ accountId: z.string().max(100, 'must be an account id') });

export const accountNotificationRoutes: RouteModule = (router, registry) => {
  defineRoute(
    router,
    registry,
    {
      method: 'post',
      path: '/internal/acquirer/{accountId}/notifications',
      operationId: 'receiveAccountNotification',
      summary: `Acquirer account notification (internal): a stripe account's events by ${STRIPE_SIGNATURE_HEADER} with its webhookSecret, a sandbox account's by ${SIGNATURE_HEADER}, an adyen account's standard notifications by each item's HMAC with its hmacKey, each item naming the account's MID (its Terminal API event notifications unsigned, a nudge only); then the account's payment re-reads the acquirer`,
      tag: 'Internal',
      auth: 'none',
      params: Params,
      responses: {
        200: { description: 'A stripe account: received; an adyen account: `[accepted]` (also when nothing of the account matches)' },
        202: { description: 'A sandbox account: accepted (also when no open payment of the account matches)' },
      },
      // 400: an adyen item naming another merchant account (merchantAccountCode) than the account's; nothing is taken.
      errors: [401, 404],
    },
    async (ctx, { params }) => {
      const { db, temporal, acquirers, resolver, logger } = ctx.deps;
      const log = ctx.state.log ?? logger;
      const account = await accountForNotification(db, params.accountId);
      const scope = { acquirerAccountId: account.id };
      if (account.acquirer === 'stripe') {
        const event = verifiedStripeEvent(ctx, account.webhookSecret!);
        ctx.status = 200;
        ctx.body = { received: true };
        await relayStripeEvent({ ...ctx.deps, logger: log }, event, scope);
      } else if (account.acquirer === 'sandbox') {
        // The sandbox is one server: it signs every notification with the installation's secret.
        const notification = verifiedSandboxNotification(ctx);
        ctx.status = 202;
        ctx.body = { accepted: true };
        if (notification?.payoutId && notification.batchReference)
          await relayPayoutNotification(
            { ...ctx.deps, logger: log },
            { deviceId: notification.deviceId, payoutId: notification.payoutId, batchReference: notification.batchReference },
            scope,
          );
        else if (notification?.disputeId)
          await relayDisputeNotification({ ...ctx.deps, logger: log }, { ...notification, disputeId: notification.disputeId }, scope);
        else if (notification) await relayAcquirerNotification({ db, temporal, acquirers, resolver, logger: log }, notification, scope);
      } else {
        const { nudges, disputes } = verifiedAdyenNudges(ctx, { hmacKey: account.hmacKey!, merchantAccountId: account.merchantAccountId! }, new Date());
        // Adyen retries until it reads exactly this.
        ctx.status = 200;
        ctx.type = 'text/plain';
        ctx.body = '[accepted]';
        await relayAdyenNudges({ db, temporal, acquirers, resolver, logger: log }, nudges, scope);
        await relayAdyenDisputes({ ...ctx.deps, logger: log }, disputes, scope);
      }
    },
  );
};
