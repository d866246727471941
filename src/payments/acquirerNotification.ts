import type { Client } from '@temporalio/client';
import { resolverOf } from '../acquirer/resolver';
import type { Acquirers } from '../acquirer/acquirers';
import type { BillState } from '../acquirer/port';
import type { Db } from '../db/client';
import type { Logger } from '../logger';
import { acquirerNotifiedSignal } from '../../core/payment/messages';
import { TrailingCoalescer } from './coalesce';

/** A verified acquirer notification (docs/payments.md, "Acquirer notifications"). */
export interface AcquirerNotification {
  deviceId: string;
  acquirerRef: string;
  event: string;
  voidReference?: string;
  refundReference?: string;
  /** A dispute's notification: relayed by src/disputes/notifications.ts instead. */
  disputeId?: string;
  /** A payout's notification: relayed by src/payouts/notifications.ts instead. */
  payoutId?: string;
  batchReference?: string;
}

/**
 * Whose payments a notification may nudge: an account's notification path only that account's
 * (docs/acquirers.md, "Notifications per account"); the installation path (scope left out) any payment with the bill, as the one
 * sandbox server posts every notification there.
 */
export interface NotificationScope {
  acquirerAccountId: string;
}

export interface RelayDeps {
  db: Db;
  temporal: Client;
  acquirers: Acquirers;
  logger: Logger;
}

/**
 * The same news is signalled again only this long after the last signal about it: a signal lost
 * with a restarting workflow is repaired, and a replayed notification (accepted for the signature
 * tolerance, 5 minutes by default) costs at most a few signals.
 */
export const NUDGE_REPEAT_SECONDS = 30;

interface KnownPayment {
  id: string;
  workflowId: string;
  status: string;
  acquirerName: string;
  acquirerAccountId: string | null;
}

/** What the payment itself shows while the acquirer's bill is in each state: no news then. */
const AGREEING: Partial<Record<string, BillState>> = { CREATED: 'WAITING', AWAITING_TERMINAL: 'WAITING', AUTHORIZED: 'AUTHORIZED' };

/**
 * A notification is only a nudge: the payment's workflow re-reads the acquirer and applies what it
 * says (the workflow is the payment's one writer), so a forged, replayed or stale notification
 * changes nothing. Each signal grows the workflow's history, though, so the nudge is passed on
 * only when there is news (docs/security.md, point 3):
 *  - the acquirer is re-read here and compared with what the payment already knows;
 *  - each piece of news is signalled once per NUDGE_REPEAT_SECONDS across every API process
 *    (claimed in PaymentNudge), and notifications for one payment arriving together in one
 *    process share their reads.
 * So any number of notifications for one payment costs a bounded number of workflow events.
 */
export async function relayAcquirerNotification(deps: RelayDeps, notification: AcquirerNotification, scope?: NotificationScope): Promise<void> {
  const { deviceId, acquirerRef, event, voidReference, refundReference } = notification;
  const key = [scope?.acquirerAccountId ?? '', deviceId, acquirerRef, event, voidReference ?? '', refundReference ?? ''].join('\u0000');
  await inFlight.run(key, async () => {
    const payment = await deps.db.payment.findFirst({
      where: { acquirerRef, deviceId, ...(scope ? { acquirerAccountId: scope.acquirerAccountId } : {}) },
      select: { id: true, workflowId: true, status: true, acquirerName: true, acquirerAccountId: true },
    });
    if (!payment) return; // no matching payment: nothing to do
    const news = await newsOf(deps, payment, notification);
    if (!news || !(await claimNudge(deps.db, payment.id, news))) return;
    try {
      await deps.temporal.workflow
        .getHandle(payment.workflowId)
        .signal(acquirerNotifiedSignal, { event, ...(voidReference ? { voidReference } : {}), ...(refundReference ? { refundReference } : {}) });
    } catch (err) {
      // The workflow is gone: the sweep settles the payment from the acquirer's answer.
      deps.logger.warn({ err: (err as Error).message, paymentId: payment.id }, 'acquirer notification not delivered to the payment workflow');
    }
  });
}

const inFlight = new TrailingCoalescer();

/** What the payment's workflow would learn from re-reading now, as a short key; null when nothing. */
async function newsOf(deps: RelayDeps, payment: KnownPayment, n: AcquirerNotification): Promise<string | null> {
  const acquirer = await resolverOf(deps).ofRecord(payment);
  if (n.event === 'REFUND_SUCCEEDED' || n.event === 'REFUND_FAILED') {
    // A refund's decision matters whatever the payment's status, while the refund is undecided.
    const pending = await deps.db.refund.findFirst({
      where: { paymentId: payment.id, status: 'PENDING', ...(n.refundReference ? { refundReference: n.refundReference } : {}) },
      select: { refundReference: true },
    });
    return pending ? `refund:${n.refundReference ?? '*'}` : null;
  }
  if (n.event === 'VOID_CONFIRMED') {
    if (payment.status !== 'CAPTURED') return null;
    if (!n.voidReference) return 'void:*';
    const answer = await acquirer.getVoidStatus(n.deviceId, n.voidReference, n.acquirerRef).catch(() => undefined);
    return answer?.state === 'PENDING' || answer?.state === 'REJECTED' ? null : `void:${n.voidReference}`;
  }
  const agreeing = AGREEING[payment.status];
  if (!agreeing) return null; // a decided payment's workflow reads the bill no more
  const bill = await acquirer.getBillStatus(n.deviceId, n.acquirerRef).catch(() => undefined);
  if (bill?.state === agreeing) return null;
  // No answer here: the workflow may fare better; its signal is still claimed like any news.
  return `bill:${bill?.state ?? 'unanswered'}`;
}

/** True for the one caller (of any process) that gets to signal this news now. */
async function claimNudge(db: Db, paymentId: string, news: string): Promise<boolean> {
  const claimed = await db.$executeRaw`
    INSERT INTO "PaymentNudge" ("paymentId", "news", "nudgedAt") VALUES (${paymentId}, ${news}, now())
    ON CONFLICT ("paymentId", "news") DO UPDATE SET "nudgedAt" = EXCLUDED."nudgedAt"
    WHERE "PaymentNudge"."nudgedAt" < EXCLUDED."nudgedAt" - make_interval(secs => ${NUDGE_REPEAT_SECONDS}::double precision)`;
  return claimed === 1;
}
