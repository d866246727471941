import type { AdyenNudge } from '../acquirer/adyen/notifications';
import { RecentEvents } from '../acquirer/stripe/webhooks';
import { type NotificationScope, type RelayDeps, relayAcquirerNotification } from './acquirerNotification';

/**
 * Verified Adyen notifications of one account as nudges (docs/acquirers.md): each names our payment
 * id, which is looked up among that account's adyen payments only; its workflow then re-reads the
 * terminal through the shared relay (news only, bounded signals). A standard item seen lately is
 * dropped: Adyen retries until it reads `[accepted]`, and a replay is no news.
 */
const recent = new RecentEvents();

export async function relayAdyenNudges(deps: RelayDeps, nudges: AdyenNudge[], scope: NotificationScope): Promise<void> {
  for (const nudge of nudges) {
    if (nudge.itemKey && !recent.firstTime(`${scope.acquirerAccountId}:${nudge.itemKey}`)) continue;
    const payment = await deps.db.payment.findFirst({
      where: { id: nudge.paymentId, acquirerAccountId: scope.acquirerAccountId, acquirerName: 'adyen' },
      select: { deviceId: true, acquirerRef: true },
    });
    if (!payment?.acquirerRef || !payment.deviceId) continue; // not ours, or not placed yet (the workflow reads it anyway)
    await relayAcquirerNotification(deps, { deviceId: payment.deviceId, acquirerRef: payment.acquirerRef, event: nudge.event }, scope);
  }
}
