import crypto from 'node:crypto';
import Decimal from 'decimal.js';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { merchantExternalIdOf } from '../db/merchantExternalIds';
import type { ComplianceAlert } from '../generated/prisma/client';
import type { Logger } from '../logger';
import type { DispatchDeps } from '../webhooks/dispatch';
import type { WebhookEventBody } from '../webhooks/payload';
import { attemptFirst, type NewWebhookEvent, recordEvent } from '../webhooks/publish';
import { type AlertType, judge, nextStep, type Threshold } from './decision';
import { measure, type Measures, type Target, targetKey } from './measures';
import { toAlertRecord } from './record';

/**
 * Compliance alerts (docs/disputes.md, "Compliance alerts"): each target (a store, an
 * acquirer account) is measured over the last COMPLIANCE_WINDOW_DAYS, and its alert of each type
 * raised, kept up to date or resolved. Safe to run again and from many places at once: one OPEN
 * alert per type and target is a partial unique index (a second raise inserts nothing), a resolve
 * changes only an OPEN row, and each alert's events derive their ids from it.
 */
export type ComplianceDeps = DispatchDeps & { db: Db; config: Config; logger?: Logger };

const thresholdOf = (config: Config, type: AlertType): Threshold =>
  type === 'CHARGEBACK_RATIO'
    ? { ratio: config.COMPLIANCE_CHARGEBACK_RATIO, minCount: config.COMPLIANCE_CHARGEBACK_MIN_COUNT }
    : { ratio: config.COMPLIANCE_REFUND_RATIO, minCount: config.COMPLIANCE_REFUND_MIN_COUNT };

const openWhere = (t: Target, type: AlertType) => ({
  merchantId: t.merchantId,
  mode: t.mode,
  type,
  scope: t.scope,
  status: 'OPEN',
  ...(t.scope === 'STORE' ? { storeExternalId: t.storeExternalId } : { acquirerAccountId: t.acquirerAccountId }),
});

/** Evaluates each target once; answers the alerts raised and resolved. */
export async function evaluateTargets(deps: ComplianceDeps, targets: Target[], now = new Date()): Promise<{ raised: string[]; resolved: string[] }> {
  const since = new Date(now.getTime() - deps.config.COMPLIANCE_WINDOW_DAYS * 86_400_000);
  const seen = new Set<string>();
  const out = { raised: [] as string[], resolved: [] as string[] };
  for (const t of targets) {
    if (seen.has(targetKey(t))) continue;
    seen.add(targetKey(t));
    const m = await measure(deps.db, t, since);
    for (const type of ['CHARGEBACK_RATIO', 'REFUND_RATIO'] as const) {
      const step = await apply(deps, t, type, m, now);
      if (step?.raised) out.raised.push(step.raised);
      if (step?.resolved) out.resolved.push(step.resolved);
    }
  }
  return out;
}

async function apply(deps: ComplianceDeps, t: Target, type: AlertType, m: Measures, now: Date): Promise<{ raised?: string; resolved?: string } | null> {
  const { db, config } = deps;
  const measured = type === 'CHARGEBACK_RATIO' ? m.chargebacks : m.refunds;
  const threshold = thresholdOf(config, type);
  const verdict = judge(measured, threshold);
  const open = await db.complianceAlert.findFirst({ where: openWhere(t, type) });
  const step = nextStep(open !== null, verdict);
  if (step === 'NONE') return null;
  if (step === 'UPDATE' && open) {
    await db.complianceAlert.updateMany({ where: { id: open.id, status: 'OPEN' }, data: { count: measured.count, ratio: verdict.ratio!.toFixed() } });
    return null;
  }
  if (step === 'RESOLVE' && open) {
    // The change and its event commit together: a crash between them cannot lose the event.
    const deliveries = await db.$transaction(async (tx) => {
      const { count } = await tx.complianceAlert.updateMany({
        where: { id: open.id, status: 'OPEN' },
        data: { status: 'RESOLVED', resolvedAt: now, count: measured.count, ratio: (verdict.ratio ?? new Decimal(0)).toFixed() },
      });
      if (count === 0) return null; // resolved by another evaluation: its events are its own
      return recordEvent(tx, await alertEvent(tx, await tx.complianceAlert.findUniqueOrThrow({ where: { id: open.id } }), 'COMPLIANCE_ALERT_RESOLVED'));
    });
    if (!deliveries) return null;
    attemptFirst(deps, deliveries);
    return { resolved: open.id };
  }
  const id = crypto.randomUUID();
  const deliveries = await db.$transaction(async (tx) => {
    // ON CONFLICT on the partial unique index: an alert raised meanwhile by another evaluation wins, this one is not written.
    const inserted = await tx.$executeRaw`
    INSERT INTO "ComplianceAlert" ("id", "merchantId", "mode", "type", "scope", "storeExternalId", "acquirerAccountId", "windowDays", "count", "ratio", "threshold", "status", "raisedAt")
    VALUES (${id}, ${t.merchantId}, ${t.mode}, ${type}, ${t.scope}, ${t.scope === 'STORE' ? t.storeExternalId : null}, ${t.scope === 'ACQUIRER_ACCOUNT' ? t.acquirerAccountId : null},
      ${new Decimal(config.COMPLIANCE_WINDOW_DAYS).toFixed()}::numeric, ${measured.count}, ${verdict.ratio!.toFixed()}::numeric, ${new Decimal(threshold.ratio).toFixed()}::numeric, 'OPEN', ${now})
    ON CONFLICT DO NOTHING`;
    if (inserted === 0) return null;
    // The alert and its event commit together: a crash between them cannot lose the event.
    return recordEvent(tx, await alertEvent(tx, await tx.complianceAlert.findUniqueOrThrow({ where: { id } }), 'COMPLIANCE_ALERT_RAISED'));
  });
  if (!deliveries) return null;
  attemptFirst(deps, deliveries);
  return { raised: id };
}

export type AlertEventType = 'COMPLIANCE_ALERT_RAISED' | 'COMPLIANCE_ALERT_RESOLVED';

/** Once per alert and type: the id derives from both. */
export const alertEventId = (alertId: string, eventType: AlertEventType): string =>
  `evt_${crypto.createHash('sha256').update(`compliance:${alertId}:${eventType}`).digest('hex').slice(0, 32)}`;

/** The alert's event: `data.alert` is the alert as the API shows it. */
async function alertEvent(db: Pick<Db, 'merchant'>, alert: ComplianceAlert, eventType: AlertEventType): Promise<NewWebhookEvent> {
  const merchantExternalId = await merchantExternalIdOf(db, alert.merchantId);
  const eventId = alertEventId(alert.id, eventType);
  const body = {
    eventId,
    eventType,
    merchantExternalId,
    timestamp: (eventType === 'COMPLIANCE_ALERT_RAISED' ? alert.raisedAt : (alert.resolvedAt ?? new Date())).toISOString(),
    data: { alert: toAlertRecord(alert) },
  } as unknown as WebhookEventBody;
  return { id: eventId, merchantId: alert.merchantId, mode: alert.mode, paymentId: null, eventType, body };
}

/** The targets a payment counts for: its store, and its acquirer account when it has one (the installation default is no MID of the business). */
export async function targetsOfPayment(db: Db, paymentId: string): Promise<Target[]> {
  const p = await db.payment.findUnique({ where: { id: paymentId }, select: { merchantId: true, mode: true, storeExternalId: true, acquirerAccountId: true } });
  if (!p) return [];
  return [
    { merchantId: p.merchantId, mode: p.mode, scope: 'STORE', storeExternalId: p.storeExternalId },
    ...(p.acquirerAccountId ? [{ merchantId: p.merchantId, mode: p.mode, scope: 'ACQUIRER_ACCOUNT' as const, acquirerAccountId: p.acquirerAccountId }] : []),
  ];
}

/** When a dispute opens or a refund succeeds: the payment's store and account. */
export async function evaluatePayment(deps: ComplianceDeps, paymentId: string, now = new Date()) {
  return evaluateTargets(deps, await targetsOfPayment(deps.db, paymentId), now);
}

/**
 * The daily evaluation: every store and acquirer account, and the target of every open alert (a
 * store deleted since is still resolved). Each target is a few index range reads.
 */
export async function evaluateAll(deps: ComplianceDeps, now = new Date()): Promise<{ raised: string[]; resolved: string[] }> {
  const { db } = deps;
  const stores = await db.store.findMany({ select: { merchantId: true, mode: true, externalId: true } });
  const accounts = await db.acquirerAccount.findMany({ select: { id: true, merchantId: true, mode: true } });
  const open = await db.complianceAlert.findMany({
    where: { status: 'OPEN' },
    select: { merchantId: true, mode: true, scope: true, storeExternalId: true, acquirerAccountId: true },
  });
  const targets: Target[] = [
    ...stores.map((s) => ({ merchantId: s.merchantId, mode: s.mode, scope: 'STORE' as const, storeExternalId: s.externalId })),
    ...accounts.map((a) => ({ merchantId: a.merchantId, mode: a.mode, scope: 'ACQUIRER_ACCOUNT' as const, acquirerAccountId: a.id })),
    ...open.map((a): Target =>
      a.scope === 'STORE'
        ? { merchantId: a.merchantId, mode: a.mode, scope: 'STORE', storeExternalId: a.storeExternalId! }
        : { merchantId: a.merchantId, mode: a.mode, scope: 'ACQUIRER_ACCOUNT', acquirerAccountId: a.acquirerAccountId! },
    ),
  ];
  const result = await evaluateTargets(deps, targets, now);
  if (result.raised.length || result.resolved.length)
    deps.logger?.info({ raised: result.raised.length, resolved: result.resolved.length }, 'compliance alerts evaluated');
  return result;
}
