import type Stripe from 'stripe';
import { type AdyenNudge, adyenNotificationOf, allSigned, itemNudgeOf } from '../acquirer/adyen/notifications';
import { ADYEN_DISPUTE_EVENT, type AdyenDisputeNotice, disputeNoticeOf } from '../acquirer/adyen/disputes';
import { SIGNATURE_HEADER, verifySandboxSignature } from '../acquirer/sandbox/notify';
import { STRIPE_SIGNATURE_HEADER, verifyStripeEvent } from '../acquirer/stripe/webhooks';
import { z } from '../domain/zod';
import type { AcquirerNotification } from '../payments/acquirerNotification';
import type { ApiContext } from './context';
import { invalid } from '../domain/errors';
import { ApiError } from './errors';

/**
 * The signature checks of acquirer notifications, for every path that receives them (the
 * installation's and each account's): the raw body verified with the given secret, else 401 with
 * nothing read. The schemes themselves live with each acquirer (src/acquirer/<name>/).
 */
const rawBodyOf = (ctx: ApiContext): string => (ctx.request as { rawBody?: string }).rawBody ?? '';

/** A Stripe event signed with `secret` (Stripe-Signature), or 401. */
export function verifiedStripeEvent(ctx: ApiContext, secret: string): Stripe.Event {
  const event = verifyStripeEvent(rawBodyOf(ctx), ctx.get(STRIPE_SIGNATURE_HEADER) || undefined, secret);
  if (!event) throw new ApiError(401, 'Stripe signature missing, invalid, or dated more than the tolerance from now');
  return event;
}

const SandboxNotification = z.object({
  deviceId: z.string().min(1).max(200),
  acquirerRef: z.string().min(1).max(200),
  event: z.string().min(1).max(50),
  voidReference: z.string().max(200).optional(),
  refundReference: z.string().max(200).optional(),
  /** DISPUTE_OPENED and DISPUTE_DECIDED (docs/disputes.md): the acquirer's id of the dispute. */
  disputeId: z.string().min(1).max(200).optional(),
  /** PAYOUT_* (docs/payouts-and-fees.md): the acquirer's id of the payout, and the report it pays. */
  payoutId: z.string().min(1).max(200).optional(),
  batchReference: z.string().min(1).max(300).optional(),
});

/**
 * A sandbox notification signed with the installation's SANDBOX_NOTIFY_SECRET (X-Sandbox-Signature,
 * within SANDBOX_NOTIFY_TOLERANCE_SECONDS), or 401; null when genuine but of a shape we do not know.
 */
export function verifiedSandboxNotification(ctx: ApiContext): AcquirerNotification | null {
  const { SANDBOX_NOTIFY_SECRET: secret, SANDBOX_NOTIFY_TOLERANCE_SECONDS: tolerance } = ctx.deps.config;
  const check = verifySandboxSignature(rawBodyOf(ctx), ctx.get(SIGNATURE_HEADER) || undefined, secret, tolerance);
  if (check === 'invalid') throw new ApiError(401, 'notification signature missing or invalid');
  // Genuine but old (or from a clock far off): a replay is refused before anything is read.
  if (check === 'stale') throw new ApiError(401, `notification signature timestamp is more than ${tolerance} seconds from now`);
  const parsed = SandboxNotification.safeParse(ctx.request.body);
  return parsed.success ? parsed.data : null;
}

/**
 * Adyen's notifications for an account (its `hmacKey` and MID), as nudges: a standard notification
 * only when every item's HMAC (the library's validator) holds, else 401 with nothing read; and only
 * when every item names the account's own MID (`merchantAccountCode`), else 400 naming the field
 * with nothing read: another account's HMAC key signs what its holder writes, so an item naming
 * another MID at this path is no word of Adyen's about this account (docs/security.md, "Adyen's
 * dispute notifications"). A Terminal API event notification is unsigned in the cloud API, so it is
 * taken as a nudge only (the re-read decides). A body of neither shape: 401. Chargeback items come
 * back apart, as dispute notices dated `receivedAt` (their own dates are not signed).
 */
export function verifiedAdyenNudges(
  ctx: ApiContext,
  account: { hmacKey: string; merchantAccountId: string },
  receivedAt: Date,
): { nudges: AdyenNudge[]; disputes: AdyenDisputeNotice[] } {
  const notification = adyenNotificationOf(ctx.request.body);
  // Neither of Adyen's shapes (another acquirer's signed body, say): no signature of this account.
  if (!notification) throw new ApiError(401, 'not an Adyen notification: no HMAC signature of this account');
  if (notification.kind === 'event') return { nudges: notification.nudge ? [notification.nudge] : [], disputes: [] };
  if (!allSigned(notification.items, account.hmacKey)) throw new ApiError(401, 'notification HMAC signature missing or invalid');
  const foreign = notification.items.findIndex((item) => item.merchantAccountCode !== account.merchantAccountId);
  if (foreign >= 0)
    throw invalid(`notificationItems[${foreign}].NotificationRequestItem.merchantAccountCode: is not this account's merchant account; nothing was taken`);
  // A dispute's item (docs/disputes.md, "Adyen") goes to its dispute, not to the payment's workflow.
  const clock = { receivedAt, defensePeriodDays: ctx.deps.config.ADYEN_DEFENSE_PERIOD_DAYS };
  const disputes = notification.items.map((item) => disputeNoticeOf(item, clock));
  return {
    nudges: notification.items
      .filter((item) => !ADYEN_DISPUTE_EVENT[String(item.eventCode)])
      .map(itemNudgeOf)
      .filter((n): n is AdyenNudge => n !== null),
    disputes: disputes.filter((d): d is AdyenDisputeNotice => d !== null),
  };
}
