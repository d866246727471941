import { SIGNATURE_HEADER } from '../../acquirer/sandbox/notify';
import { relayAcquirerNotification } from '../../payments/acquirerNotification';
import { relayDisputeNotification } from '../../disputes/notifications';
import { relayPayoutNotification } from '../../payouts/notifications';
import type { RouteModule } from '../routeModule';
import { verifiedSandboxNotification } from '../acquirerSignatures';
import { defineRoute } from '../route';

/**
 * The acquirer's notifications (docs/payments.md, "Acquirer notifications"): signed with the shared secret over the time and the
 * raw body (src/acquirer/sandbox/notify.ts), refused outside SANDBOX_NOTIFY_TOLERANCE_SECONDS,
 * then relayed to the payment's workflow only when there is news (src/payments/acquirerNotification.ts).
 */
export const acquirerNotificationRoutes: RouteModule = (router, registry) => {
  defineRoute(
    router,
    registry,
    {
      method: 'post',
      path: '/internal/acquirer/notifications',
      operationId: 'receiveAcquirerNotification',
      summary: `Acquirer notification (internal): verified by ${SIGNATURE_HEADER} (t=<unix seconds>,v1=<HMAC of t.body>) within a tolerance, then the payment re-reads the acquirer`,
      tag: 'Internal',
      auth: 'none',
      responses: { 202: { description: 'Accepted (also when no open payment matches: nothing to do)' } },
      errors: [401],
    },
    async (ctx) => {
      const { db, temporal, acquirers, resolver, logger } = ctx.deps;
      const notification = verifiedSandboxNotification(ctx);
      ctx.status = 202;
      ctx.body = { accepted: true };
      if (!notification) return;
      const log = ctx.state.log ?? logger;
      if (notification.payoutId && notification.batchReference)
        await relayPayoutNotification(
          { ...ctx.deps, logger: log },
          { deviceId: notification.deviceId, payoutId: notification.payoutId, batchReference: notification.batchReference },
          { installation: 'sandbox' },
        );
      else if (notification.disputeId) await relayDisputeNotification({ ...ctx.deps, logger: log }, { ...notification, disputeId: notification.disputeId });
      else await relayAcquirerNotification({ db, temporal, acquirers, resolver, logger: log }, notification);
    },
  );
};
