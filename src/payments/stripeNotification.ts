import type Stripe from 'stripe';
import { RecentEvents, disputeNudgeOf, nudgeOf, payoutNudgeOf } from '../acquirer/stripe/webhooks';
import { type DisputeRelayDeps, relayDisputeNotification } from '../disputes/notifications';
import { relayBalancePayoutNotification } from '../payouts/notifications';
import { acquirerNotifiedSignal } from '../../core/payment/messages';
import { isOpen } from '../../core/payment/statuses';

/**
 * A verified Stripe event, as a nudge to the one payment it is about (docs/acquirers.md): the
 * payment's workflow re-reads Stripe. Shared by the installation path (STRIPE_WEBHOOK_SECRET) and
 * each Stripe account's own path (its webhookSecret); each nudges only payments taken through it.
 */
export type StripeRelayDeps = DisputeRelayDeps;

/** null: the installation default's payments; else that acquirer account's. */
export type StripeScope = { acquirerAccountId: string | null };

const recent = new RecentEvents();

export async function relayStripeEvent(deps: StripeRelayDeps, event: Stripe.Event, scope: StripeScope): Promise<void> {
  const nudge = nudgeOf(event);
  const disputeNudge = nudge ? null : disputeNudgeOf(event);
  // Payouts pay an account's balance: only an account's own path speaks for them (docs/payouts-and-fees.md, "Stripe's payouts").
  const payoutNudge = nudge || disputeNudge || scope.acquirerAccountId === null ? null : payoutNudgeOf(event);
  // A replay within the signature's tolerance is dropped; keyed by path, so one path's events never hide another's.
  if ((!nudge && !disputeNudge && !payoutNudge) || typeof event.id !== 'string' || !recent.firstTime(`${scope.acquirerAccountId ?? ''}:${event.id}`)) return;
  // A payout's event: its workflow starts (when new) or re-reads Stripe.
  if (payoutNudge) return relayBalancePayoutNotification(deps, { acquirerAccountId: scope.acquirerAccountId!, payoutId: payoutNudge.payoutId });
  // A dispute's event: its workflow opens (when new) or re-reads Stripe (docs/disputes.md, "Stripe").
  if (disputeNudge) return relayDisputeNotification(deps, disputeNudge, { ...scope, acquirerName: 'stripe' });
  if (!nudge) return;
  const payment = await deps.db.payment.findFirst({
    where: {
      acquirerRef: nudge.acquirerRef,
      acquirerName: 'stripe',
      acquirerAccountId: scope.acquirerAccountId,
      ...(nudge.deviceId ? { deviceId: nudge.deviceId } : {}),
    },
    select: { id: true, workflowId: true, status: true },
  });
  // Only a payment still open, or captured with a reversal to confirm, has anything to re-read.
  if (!payment || !(isOpen(payment.status) || payment.status === 'CAPTURED')) return;
  try {
    await deps.temporal.workflow
      .getHandle(payment.workflowId)
      .signal(acquirerNotifiedSignal, { event: nudge.event, ...(nudge.voidReference ? { voidReference: nudge.voidReference } : {}) });
  } catch (err) {
    // The workflow is gone: the sweep settles the payment from Stripe's answer.
    deps.logger.warn({ err: (err as Error).message, paymentId: payment.id }, 'Stripe webhook not delivered to the payment workflow');
  }
}
