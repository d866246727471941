import type { Client } from '@temporalio/client';
import { type AcquirerResolver, resolverOf } from '../acquirer/resolver';
import type { Acquirers } from '../acquirer/acquirers';
import type { BillState } from '../acquirer/port';
import type { Db } from '../db/client';
import { Prisma } from '../generated/prisma/client';
import type { Logger } from '../logger';
import { acquirerNotifiedSignal, type TakenBy } from '../../core/payment/messages';
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
  /** The API process's resolver (src/service.ts): a bill placed by this process is relayed with one statement less. */
  resolver?: AcquirerResolver;
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
    // A bill this process placed: its acquirer is known, so the bill is read first and the payment read with the claim (one statement).
    const known = asksTheBill(event) ? deps.resolver?.knownTakenByBill({ deviceId, acquirerRef }) : undefined;
    if (known && (!scope || scope.acquirerAccountId === known.acquirerAccountId)) {
      const claimed = await claimKnownBill(deps, known, notification, scope);
      if (claimed !== 'ask the row') {
        if (claimed) await signalNews(deps, claimed, notification);
        return;
      }
    }
    const payment = await deps.db.payment.findFirst({
      where: { acquirerRef, deviceId, ...(scope ? { acquirerAccountId: scope.acquirerAccountId } : {}) },
      select: { id: true, workflowId: true, status: true, acquirerName: true, acquirerAccountId: true },
    });
    if (!payment) return; // no matching payment: nothing to do
    const news = await newsOf(deps, payment, notification);
    if (!news) return;
    const claimed = await claimNews(deps.db, { paymentId: payment.id }, news);
    if (claimed) await signalNews(deps, claimed, notification);
  });
}

async function signalNews(deps: RelayDeps, payment: Pick<KnownPayment, 'id' | 'workflowId'>, n: AcquirerNotification): Promise<void> {
  const { event, voidReference, refundReference } = n;
  try {
    await deps.temporal.workflow
      .getHandle(payment.workflowId)
      .signal(acquirerNotifiedSignal, { event, ...(voidReference ? { voidReference } : {}), ...(refundReference ? { refundReference } : {}) });
  } catch (err) {
    // The workflow is gone: the sweep settles the payment from the acquirer's answer.
    deps.logger.warn({ err: (err as Error).message, paymentId: payment.id }, 'acquirer notification not delivered to the payment workflow');
  }
}

/** Whether an event's news is the bill's state (the rest are about a void or a refund: newsOf). */
const asksTheBill = (event: string): boolean => event !== 'REFUND_SUCCEEDED' && event !== 'REFUND_FAILED' && event !== 'VOID_CONFIRMED';

/**
 * A bill this process placed (AcquirerResolver.created): the bill is read at the acquirer that
 * took it, then the payment is read and the news claimed in one statement, where the payment's
 * status shows the bill's state is news (billNewsIn: the rule newsOf applies). The claimed
 * payment, null when there is nothing to signal, 'ask the row' when the payment names another
 * acquirer than remembered (read the ordinary way). The price: a notification about a payment
 * already decided costs one acquirer read here that the ordinary way leaves out.
 */
async function claimKnownBill(
  deps: RelayDeps,
  takenBy: TakenBy,
  n: AcquirerNotification,
  scope: NotificationScope | undefined,
): Promise<KnownPayment | null | 'ask the row'> {
  const acquirer = await (deps.resolver ?? resolverOf(deps)).ofRecord(takenBy);
  const state = (await acquirer.getBillStatus(n.deviceId, n.acquirerRef).catch(() => undefined))?.state;
  const payment = await claimNews(deps.db, { bill: n, scope, takenBy }, billNews(state), billNewsIn(state));
  return payment === undefined ? 'ask the row' : payment;
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
  if (!(payment.status in AGREEING)) return null; // a decided payment's workflow reads the bill no more
  const state = (await acquirer.getBillStatus(n.deviceId, n.acquirerRef).catch(() => undefined))?.state;
  return billNewsIn(state).includes(payment.status) ? billNews(state) : null;
}

/** The payment statuses in which a bill in `state` is news (undefined: the acquirer did not answer, which the workflow may fare better with). */
function billNewsIn(state: BillState | undefined): string[] {
  return Object.keys(AGREEING).filter((status) => AGREEING[status] !== state);
}

/** The news a bill's state is, as claimed in PaymentNudge. */
const billNews = (state: BillState | undefined): string => `bill:${state ?? 'unanswered'}`;

type ClaimTarget =
  { paymentId: string } | { bill: Pick<AcquirerNotification, 'deviceId' | 'acquirerRef'>; scope: NotificationScope | undefined; takenBy: TakenBy };

/**
 * Claims a piece of news for the one caller (of any process) that gets to signal it now: the
 * payment read and the claim in one statement. `newsIn`: claimed only while the payment's status
 * is one of these. The payment when this caller claimed it, null when not (or no such payment),
 * undefined when a payment found by its bill was not taken by `takenBy`.
 */
async function claimNews(db: Db, target: ClaimTarget, news: string, newsIn?: string[]): Promise<KnownPayment | null | undefined> {
  const where =
    'paymentId' in target
      ? Prisma.sql`"id" = ${target.paymentId}`
      : Prisma.sql`"acquirerRef" = ${target.bill.acquirerRef} AND "deviceId" = ${target.bill.deviceId}
          ${target.scope ? Prisma.sql`AND "acquirerAccountId" = ${target.scope.acquirerAccountId}` : Prisma.empty}`;
  const [row] = await db.$queryRaw<(KnownPayment & { claimed: boolean })[]>`
    WITH p AS (
      SELECT "id", "workflowId", "status", "acquirerName", "acquirerAccountId" FROM "Payment" WHERE ${where} LIMIT 1
    ),
    claimed AS (
      INSERT INTO "PaymentNudge" ("paymentId", "news", "nudgedAt")
      SELECT "id", ${news}, now() FROM p
      WHERE true
        ${newsIn ? Prisma.sql`AND p."status" IN (${Prisma.join(newsIn)})` : Prisma.empty}
        ${'takenBy' in target ? Prisma.sql`AND p."acquirerName" IS NOT DISTINCT FROM ${target.takenBy.acquirerName}::text AND p."acquirerAccountId" IS NOT DISTINCT FROM ${target.takenBy.acquirerAccountId}::text` : Prisma.empty}
      ON CONFLICT ("paymentId", "news") DO UPDATE SET "nudgedAt" = EXCLUDED."nudgedAt"
      WHERE "PaymentNudge"."nudgedAt" < EXCLUDED."nudgedAt" - make_interval(secs => ${NUDGE_REPEAT_SECONDS}::double precision)
      RETURNING "paymentId"
    )
    SELECT p.*, EXISTS (SELECT 1 FROM claimed) AS "claimed" FROM p`;
  if (!row) return null; // no matching payment: nothing to do
  const { claimed, ...payment } = row;
  if ('takenBy' in target && (payment.acquirerName !== target.takenBy.acquirerName || payment.acquirerAccountId !== target.takenBy.acquirerAccountId))
    return undefined;
  return claimed ? payment : null;
}
