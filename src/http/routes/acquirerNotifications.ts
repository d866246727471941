import { SIGNATURE_HEADER, verifySandboxSignature } from '../../acquirer/sandbox/notify';
import { relayAcquirerNotification } from '../../payments/acquirerNotification';
import type { RouteModule } from '../app';
import { ApiError } from '../errors';
import { z } from '../../domain/zod';
import { defineRoute } from '../route';

/**
 * The acquirer's notifications (contracts 4): signed with the shared secret over the raw body,
 * answered 202 at once, then relayed to the payment's workflow (src/payments/acquirerNotification.ts).
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
      summary: `Acquirer notification (internal): verified by ${SIGNATURE_HEADER} over the raw body, then the payment re-reads the acquirer`,
      tag: 'Internal',
      auth: 'none',
      responses: { 202: { description: 'Accepted (also when no open payment matches: nothing to do)' } },
      errors: [401],
    },
    async (ctx) => {
      const { config, db, temporal, logger } = ctx.deps;
      const raw = (ctx.request as { rawBody?: string }).rawBody ?? '';
      if (!verifySandboxSignature(raw, ctx.get(SIGNATURE_HEADER) || undefined, config.SANDBOX_NOTIFY_SECRET)) {
        throw new ApiError(401, 'notification signature missing or invalid');
      }
      const parsed = Notification.safeParse(ctx.request.body);
      ctx.status = 202;
      ctx.body = { accepted: true };
      if (!parsed.success) return;
      await relayAcquirerNotification({ db, temporal, logger: ctx.state.log ?? logger }, parsed.data);
    },
  );
};
