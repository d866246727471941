import type { AdyenDisputeNotice } from '../acquirer/adyen/disputes';
import { parseBillRef } from '../acquirer/adyen/references';
import { recordAdyenDisputeNotice } from './adyenNotices';
import { type DisputeRelayDeps, relayDisputeNotification } from './notifications';

/**
 * Adyen's verified chargeback notifications of one account (docs/disputes.md, "Adyen"). Adyen
 * cannot be asked about a dispute, so the verified notice is kept first (what the adapter then
 * answers); then, as for every acquirer, the dispute is opened when new, or its workflow nudged to
 * re-read. Only this account's adyen payments, named by our reference (the payment's
 * merchantReference, which the notification repeats); the notice is kept under this account (the
 * path's), and a replayed item changes no notice (docs/security.md, "Adyen's dispute
 * notifications"). A replay still nudges the dispute: the re-read finds what the first left.
 */
export async function relayAdyenDisputes(deps: DisputeRelayDeps, notices: AdyenDisputeNotice[], scope: { acquirerAccountId: string }): Promise<void> {
  for (const notice of notices) {
    const payment = await deps.db.payment.findFirst({
      where: { id: parseBillRef(notice.merchantReference).paymentId, acquirerAccountId: scope.acquirerAccountId, acquirerName: 'adyen' },
      select: { acquirerRef: true },
    });
    if (!payment?.acquirerRef) continue; // not a payment of ours
    await recordAdyenDisputeNotice(deps.db, notice, payment.acquirerRef, scope.acquirerAccountId);
    await relayDisputeNotification(deps, { acquirerRef: payment.acquirerRef, disputeId: notice.disputePspReference }, { ...scope, acquirerName: 'adyen' });
  }
}
