import { SIGNATURE_HEADER, verifySandboxSignature } from '../../acquirer/sandbox/notify';
import { relayAcquirerNotification } from '../../payments/acquirerNotification';
import type { RouteModule } from '../app';
import { ApiError } from '../errors';
import { z } from '../../domain/zod';
import { defineRoute } from '../route';

/**
 * The acquirer's notifications (contracts 4): signed with the shared secret over the time and the
 * raw body (src/acquirer/sandbox/notify.ts), refused outside SANDBOX_NOTIFY_TOLERANCE_SECONDS,
 * then relayed to the payment's workflow only when there is news (src/payments/acquirerNotification.ts).
 */
const Notification = z.object({
  deviceId: z.string().min(1).max(200),
  acquirerRef: z.string().min(1).max(200),
  event: z.string().min(1).max(50),
  voidReference: z.string().max(200).optional(),
  refundReference: z.string().max(200).optional(),
});

export const acquirerNotificationRoutes: RouteModule = (router, registry) => {
  defineRoute(
    router,
    registry,
    {
      method: 'post',
      path: '/internal/acquirer/notifications',
      summary: `Acquirer notification (internal): verified by ${SIGNATURE_HEADER} (t=<unix seconds>,v1=<HMAC of t.body>) within a tolerance, then the payment re-reads the acquirer`,
      tag: 'Internal',
      auth: 'none',
      responses: { 202: { description: 'Accepted (also when no open payment matches: nothing to do)' } },
      errors: [401],
    },
    async (ctx) => {
      const { config, db, temporal, acquirers, logger } = ctx.deps;
      const raw = (ctx.request as { rawBody?: string }).rawBody ?? '';
      const tolerance = config.SANDBOX_NOTIFY_TOLERANCE_SECONDS;
      const check = verifySandboxSignature(raw, ctx.get(SIGNATURE_HEADER) || undefined, config.SANDBOX_NOTIFY_SECRET, tolerance);
      if (check === 'invalid') throw new ApiError(401, 'notification signature missing or invalid');
      // Genuine but old (or from a clock far off): a replay is refused before anything is read.
      if (check === 'stale') throw new ApiError(401, `notification signature timestamp is more than ${tolerance} seconds from now`);
      const parsed = Notification.safeParse(ctx.request.body);
      ctx.status = 202;
      ctx.body = { accepted: true };
      if (!parsed.success) return;
      await relayAcquirerNotification({ db, temporal, acquirers, logger: ctx.state.log ?? logger }, parsed.data);
    },
  );
};
