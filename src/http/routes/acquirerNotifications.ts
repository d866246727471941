import { SIGNATURE_HEADER, verifySandboxSignature } from '../../acquirer/sandbox/notify';
import { acquirerNotifiedSignal } from '../../../workflows/payment/messages';
import { isOpen } from '../../../workflows/payment/statuses';
import type { RouteModule } from '../app';
import { ApiError } from '../errors';
import { z } from '../../domain/zod';
import { defineRoute } from '../route';

/**
 * The acquirer's notifications (contracts 4): signed with the shared secret over the raw body. A
 * notification is only a nudge: the payment's workflow re-reads the acquirer and applies what the
 * acquirer says, so a forged, replayed or stale notification changes nothing.
 */
const Notification = z.object({
  deviceId: z.string().min(1).max(200),
  acquirerRef: z.string().min(1).max(200),
  event: z.string().min(1).max(50),
  voidReference: z.string().max(200).optional(),
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
      const { deviceId, acquirerRef, event, voidReference } = parsed.data;
      const payment = await db.payment.findFirst({
        where: { acquirerRef, deviceId },
        select: { id: true, workflowId: true, status: true },
      });
      // Only a payment still open, or captured with a reversal to confirm, has anything to re-read.
      if (!payment || !(isOpen(payment.status) || payment.status === 'CAPTURED')) return;
      try {
        await temporal.workflow.getHandle(payment.workflowId).signal(acquirerNotifiedSignal, { event, ...(voidReference ? { voidReference } : {}) });
      } catch (err) {
        // The workflow is gone: the sweep settles the payment from the acquirer's answer.
        (ctx.state.log ?? logger).warn({ err: (err as Error).message, paymentId: payment.id }, 'acquirer notification not delivered to the payment workflow');
      }
    },
  );
};
