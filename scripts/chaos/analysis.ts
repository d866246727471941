import path from 'node:path';
import { readStateFiles } from '../../src/acquirer/sandbox/state';
import { eventTypeForEntry } from '../../src/webhooks/events';
import type { TrackedPayment } from './cashiers';
import type { FaultRecord } from './faults';
import { request, sleep } from '../../support/http';
import type { ChaosReceiver, ReceivedEvent } from './receiver';
import type { Shop } from '../../support/shop';
import { isFinal } from '../../core/payment/statuses';

/**
 * After the load: wait until everything has settled (bounded), then read back every payment of the
 * business through the API (record, status history, list), the bills from the sandbox acquirer's
 * own records, and the events from the receiver, and derive the four figures of issue 6.
 */

export interface Timing {
  expiryGraceSeconds: number;
  sweepIntervalSeconds: number;
  /** Used for payments the run never got a 201 for (their timeout is not known to the run). */
  longestTerminalTimeoutMinutes: number;
}

interface HistoryEntry {
  status: string;
  previousStatus: string | null;
  actionReference: string;
  source: string;
  occurredAt: string;
}

interface PaymentRecord {
  id: string;
  pspReference: string;
  status: string;
  reference: string | null;
  createdAt: string;
  capturedAt: string | null;
  capturedAmount: number | null;
  customerEmail: string | null;
}

interface SandboxBill {
  acquirerRef: string;
  paymentId: string;
  state: string;
  voided: boolean;
}

export interface PaymentView {
  id: string;
  pspReference: string;
  reference: string | null;
  acknowledged: boolean;
  status: string | null;
  capturedAmount: number | null;
  /** The address its receipts go to, as the API answers it (./receiptAnalysis.ts). */
  customerEmail: string | null;
  inList: boolean;
  history: HistoryEntry[]; // oldest first
  createdAt: string | null;
  finalAt: string | null;
  timeToFinalMs: number | null;
  netTimeToFinalMs: number | null;
  boundMs: number;
  /** Kinds of the blocking fault windows its open time overlapped. */
  faultsOverlapped: string[];
  /** What the cashier or customer did and the answer it got, e.g. `pay (200)`; null when untracked. */
  cashierAction: string | null;
}

async function listAll(apiUrl: string, shop: Shop): Promise<PaymentRecord[] | null> {
  const all: PaymentRecord[] = [];
  // Bounded: at most 200 pages of 100.
  for (let page = 0; page < 200; page++) {
    const res = await request('GET', `${apiUrl}/api/transactions?merchantExternalId=${shop.merchantExternalId}&size=100&page=${page}`, { key: shop.key });
    if (res.status !== 200) return null;
    all.push(...res.body.content);
    if (page + 1 >= res.body.totalPages) break;
  }
  return all;
}

/**
 * Waits until every payment of the business is final (acknowledged or not), and every void a
 * cashier had answered "not confirmed yet" (200 CAPTURED) is decided, or the deadline passes: a void
 * confirmed after the read would send a PAYMENT_CANCELLED the read history does not have.
 */
export async function waitSettled(apiUrl: string, shop: Shop, tracked: Map<string, TrackedPayment>, deadline: number, log: (l: string) => void): Promise<void> {
  let lastOpen = -1;
  while (Date.now() < deadline) {
    const listed = await listAll(apiUrl, shop);
    if (listed) {
      const ids = new Set(listed.map((p) => p.id));
      const status = new Map(listed.map((p) => [p.id, p.status]));
      const voidsOpen = [...tracked.values()].filter((t) => t.voidAnswer === 200 && status.get(t.id) === 'CAPTURED').length;
      const open = listed.filter((p) => !isFinal(p.status)).length + [...tracked.keys()].filter((id) => !ids.has(id)).length + voidsOpen;
      if (open !== lastOpen) log(`settling: ${open} payment(s) not final yet`);
      lastOpen = open;
      if (open === 0) return;
    }
    await sleep(2000);
  }
}

/** A fault's blocking window: from the injection until the part is back, plus its recovery time. */
export interface BlockingWindow {
  kind: string;
  startedAt: number;
  endedAt: number;
}

export function blockingWindows(faults: FaultRecord[]): BlockingWindow[] {
  return faults
    .filter((f) => f.blocking)
    .map((f) => ({ kind: f.kind, startedAt: f.startedAt, endedAt: f.windowMs !== undefined ? f.startedAt + f.windowMs : f.endedAt + f.recoveryMs }));
}

/** Total length of the parts of [from, to] covered by the windows. */
export function overlap(from: number, to: number, windows: { startedAt: number; endedAt: number }[]): number {
  const sorted = windows
    .map((w) => [Math.max(from, w.startedAt), Math.min(to, w.endedAt)] as const)
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  let total = 0;
  let end = -Infinity;
  for (const [a, b] of sorted) {
    const start = Math.max(a, end);
    if (b > start) total += b - start;
    end = Math.max(end, b);
  }
  return total;
}

/** Reads every payment back through the API. */
export async function readPayments(
  apiUrl: string,
  shop: Shop,
  tracked: Map<string, TrackedPayment>,
  faults: FaultRecord[],
  timing: Timing,
): Promise<PaymentView[]> {
  const listed = (await listAll(apiUrl, shop)) ?? [];
  const listedIds = new Set(listed.map((p) => p.id));
  const ids = [...new Set([...tracked.keys(), ...listedIds])];
  const blocking = blockingWindows(faults);
  const views: PaymentView[] = [];
  // A few at a time: enough to be quick, few enough not to be a load test of its own.
  for (let i = 0; i < ids.length; i += 8) {
    views.push(
      ...(await Promise.all(
        ids.slice(i, i + 8).map(async (id): Promise<PaymentView> => {
          const t = tracked.get(id);
          const [rec, hist] = await Promise.all([
            request<PaymentRecord>('GET', `${apiUrl}/api/transactions/${id}`, { key: shop.key }),
            request<HistoryEntry[]>('GET', `${apiUrl}/api/transactions/by-payment/${id}`, { key: shop.key }),
          ]);
          const record = rec.status === 200 ? rec.body : null;
          const history = hist.status === 200 ? [...hist.body].reverse() : [];
          const timeoutMinutes = t?.terminalTimeoutMinutes ?? timing.longestTerminalTimeoutMinutes;
          const boundMs = Math.round(timeoutMinutes * 60_000 + timing.expiryGraceSeconds * 1000 + timing.sweepIntervalSeconds * 1000);
          // Its first final entry: a void that later turns CAPTURED into CANCELLED does not make the sale later.
          const final = record && isFinal(record.status) ? history.find((h) => isFinal(h.status)) : undefined;
          const createdAt = record?.createdAt ?? t?.createdAt ?? null;
          let timeToFinalMs: number | null = null;
          let netTimeToFinalMs: number | null = null;
          let faultsOverlapped: string[] = [];
          if (final && createdAt) {
            const from = Date.parse(createdAt);
            const to = Date.parse(final.occurredAt);
            timeToFinalMs = Math.max(0, to - from);
            netTimeToFinalMs = Math.max(0, timeToFinalMs - overlap(from, to, blocking));
            faultsOverlapped = blocking.filter((f) => f.startedAt < to && f.endedAt > from).map((f) => f.kind);
          }
          return {
            id,
            pspReference: record?.pspReference ?? t?.pspReference ?? '',
            reference: record?.reference ?? t?.reference ?? null,
            acknowledged: !!t,
            status: record?.status ?? null,
            capturedAmount: record?.capturedAmount ?? null,
            customerEmail: record?.customerEmail ?? null,
            inList: listedIds.has(id),
            history,
            createdAt,
            finalAt: final?.occurredAt ?? null,
            timeToFinalMs,
            netTimeToFinalMs,
            boundMs,
            faultsOverlapped,
            cashierAction: t?.action ? `${t.action} (${t.actionAnswer ?? 'no call'})` : null,
          };
        }),
      )),
    );
  }
  return views;
}

/** The events a payment's history must have produced (docs/webhooks.md): one per evented status entry, as the publisher names it. */
export function expectedEvents(view: PaymentView): string[] {
  const out: string[] = [];
  for (const h of view.history) {
    const type = eventTypeForEntry(h);
    if (!type) continue;
    // A refusal at creation (another bill on the device) is answered by the 201 and raises no event.
    if (h.status === 'REFUSED' && h.actionReference.startsWith('CREATE-')) continue;
    out.push(type);
  }
  return out;
}

/** Waits (bounded) until the receiver holds every expected event. */
export async function waitEvents(views: PaymentView[], receiver: ChaosReceiver, deadline: number, log: (l: string) => void): Promise<void> {
  let last = -1;
  while (Date.now() < deadline) {
    const missing = missingEvents(views, receiver).length;
    if (missing !== last) log(`events: ${missing} expected event(s) not received yet`);
    last = missing;
    if (missing === 0) return;
    await sleep(1000);
  }
}

export function missingEvents(views: PaymentView[], receiver: ChaosReceiver): { paymentId: string; pspReference: string; eventType: string }[] {
  const got = new Set([...receiver.events.values()].map((e) => `${e.pspReference}:${e.eventType}`));
  const missing: { paymentId: string; pspReference: string; eventType: string }[] = [];
  for (const v of views)
    for (const type of expectedEvents(v))
      if (!got.has(`${v.pspReference}:${type}`)) missing.push({ paymentId: v.id, pspReference: v.pspReference, eventType: type });
  return missing;
}

/** The sandbox acquirer's own records of every bill (its state file in the run's DATA_DIR). */
export function readSandboxBills(dataDir: string): SandboxBill[] {
  const state = readStateFiles(path.join(dataDir, 'sandbox'));
  return Object.values(state?.bills ?? {}) as SandboxBill[];
}

/** A payment's time to its final state, with what it went through (for the report's details). */
export interface TimedPayment {
  id: string;
  timeToFinalMs: number;
  netTimeToFinalMs: number;
  boundMs: number;
  createdAt: string | null;
  history: string[];
  faultsOverlapped: string[];
  cashierAction: string | null;
}

function timedPayment(v: PaymentView): TimedPayment {
  return {
    id: v.id,
    timeToFinalMs: v.timeToFinalMs!,
    netTimeToFinalMs: v.netTimeToFinalMs!,
    boundMs: v.boundMs,
    createdAt: v.createdAt,
    history: v.history.map((h) => `${h.occurredAt.slice(11, 23)} ${h.status} (${h.source}, ${h.actionReference})`),
    faultsOverlapped: v.faultsOverlapped,
    cashierAction: v.cashierAction,
  };
}

export interface Findings {
  created: number;
  acknowledgedByStatus: Record<string, number>;
  finalByStatus: Record<string, number>;
  lost: { id: string; why: string }[];
  unacknowledgedNotFinal: { id: string; status: string | null }[];
  doubleCaptures: { id: string; why: string }[];
  capturesUnknownToAcquirer: { id: string; why: string }[];
  longest: TimedPayment | null;
  longestRaw: TimedPayment | null;
  overBound: TimedPayment[];
  undelivered: { paymentId: string; pspReference: string; eventType: string }[];
  eventConflicts: { eventId: string; why: string }[];
  eventsMintedTwice: { pspReference: string; eventType: string; eventIds: string[] }[];
  eventsReceived: number;
  deliveries: number;
  badSignatures: number;
}

/** `elsewhere`: events judged by another part of the run (the bill business's, ./billAnalysis.ts). */
export function judge(
  views: PaymentView[],
  tracked: Map<string, TrackedPayment>,
  bills: SandboxBill[],
  receiver: ChaosReceiver,
  elsewhere: (e: ReceivedEvent) => boolean = () => false,
): Findings {
  const count = (m: Record<string, number>, k: string) => (m[k] = (m[k] ?? 0) + 1);
  const acknowledgedByStatus: Record<string, number> = {};
  for (const t of tracked.values()) count(acknowledgedByStatus, t.statusAtCreate);
  const finalByStatus: Record<string, number> = {};
  const lost: Findings['lost'] = [];
  const unacknowledgedNotFinal: Findings['unacknowledgedNotFinal'] = [];
  const doubleCaptures: Findings['doubleCaptures'] = [];
  const capturesUnknownToAcquirer: Findings['capturesUnknownToAcquirer'] = [];
  const byId = new Map(views.map((v) => [v.id, v]));

  for (const v of views) {
    count(finalByStatus, v.status ?? 'MISSING');
    const settled = v.status !== null && isFinal(v.status);
    if (v.acknowledged) {
      if (v.status === null) lost.push({ id: v.id, why: 'GET /api/transactions/{id} does not find it' });
      else if (!settled) lost.push({ id: v.id, why: `still ${v.status}` });
      else if (!v.inList) lost.push({ id: v.id, why: 'missing from GET /api/transactions' });
    } else if (!settled) {
      unacknowledgedNotFinal.push({ id: v.id, status: v.status });
    }
    const captures = v.history.filter((h) => h.status === 'CAPTURED').length;
    if (captures > 1) doubleCaptures.push({ id: v.id, why: `${captures} CAPTURED history entries` });
    // A void (the cashiers void some captured payments) turns CAPTURED into CANCELLED: not a second settlement.
    // Nothing else may follow a final status.
    const finals = v.history.filter((h) => isFinal(h.status) && !(h.status === 'CANCELLED' && h.previousStatus === 'CAPTURED'));
    if (finals.length > 1 && captures <= 1) doubleCaptures.push({ id: v.id, why: `settled ${finals.length} times: ${finals.map((h) => h.status).join(', ')}` });
  }

  // The acquirer's side: money taken must be a capture the service reports, once.
  const billsByPayment = new Map<string, SandboxBill[]>();
  for (const b of bills) if (byId.has(b.paymentId)) billsByPayment.set(b.paymentId, [...(billsByPayment.get(b.paymentId) ?? []), b]);
  for (const [paymentId, list] of billsByPayment) {
    const captured = list.filter((b) => b.state === 'CAPTURED' && !b.voided);
    const status = byId.get(paymentId)!.status;
    if (captured.length > 1) doubleCaptures.push({ id: paymentId, why: `${captured.length} captured bills at the acquirer` });
    if (captured.length >= 1 && status !== 'CAPTURED')
      doubleCaptures.push({ id: paymentId, why: `acquirer captured bill ${captured[0]!.acquirerRef}, the service reports ${status}` });
  }
  for (const v of views) {
    if (v.status !== 'CAPTURED') continue;
    const captured = (billsByPayment.get(v.id) ?? []).filter((b) => b.state === 'CAPTURED');
    if (captured.length === 0) capturesUnknownToAcquirer.push({ id: v.id, why: 'CAPTURED in the service, no captured bill at the acquirer' });
  }

  const timed = views.filter((v) => v.netTimeToFinalMs !== null);
  const longest = timed.reduce<PaymentView | null>((a, v) => (!a || v.netTimeToFinalMs! > a.netTimeToFinalMs! ? v : a), null);
  const longestRaw = timed.reduce<PaymentView | null>((a, v) => (!a || v.timeToFinalMs! > a.timeToFinalMs! ? v : a), null);
  const overBound = timed.filter((v) => v.netTimeToFinalMs! > v.boundMs).map(timedPayment);

  // Receiver side: one event id per payment status event, never shared between payments.
  const known = new Map(views.map((v) => [v.pspReference, v]));
  const eventConflicts: Findings['eventConflicts'] = receiver.conflicts.map((c) => ({ eventId: c.eventId, why: `arrived as ${c.first} and as ${c.other}` }));
  const idsByKey = new Map<string, string[]>();
  for (const e of receiver.events.values()) {
    // A business's own events (a payout of a daily close, a compliance alert) are about no payment; a
    // receipt's outcome (RECEIPT_SENT, RECEIPT_FAILED) names its payment in data.receipt, not data.pspReference:
    // the receipts are judged by what reached the mailbox (./receiptAnalysis.ts).
    if (/^(PAYOUT|COMPLIANCE|RECEIPT)_/.test(e.eventType) || elsewhere(e)) continue;
    const v = e.pspReference ? known.get(e.pspReference) : undefined;
    if (!v) {
      eventConflicts.push({ eventId: e.eventId, why: `${e.eventType} for an unknown payment ${e.pspReference}` });
      continue;
    }
    if (!expectedEvents(v).includes(e.eventType))
      eventConflicts.push({ eventId: e.eventId, why: `${e.eventType} for payment ${v.id}, whose history is ${v.history.map((h) => h.status).join(' > ')}` });
    const key = `${e.pspReference}:${e.eventType}`;
    idsByKey.set(key, [...(idsByKey.get(key) ?? []), e.eventId]);
  }
  const eventsMintedTwice = [...idsByKey]
    .filter(([, ids]) => ids.length > 1)
    .map(([key, eventIds]) => {
      const [pspReference, eventType] = key.split(':') as [string, string];
      return { pspReference, eventType, eventIds };
    });

  return {
    created: tracked.size,
    acknowledgedByStatus,
    finalByStatus,
    lost,
    unacknowledgedNotFinal,
    doubleCaptures,
    capturesUnknownToAcquirer,
    longest: longest ? timedPayment(longest) : null,
    longestRaw: longestRaw ? timedPayment(longestRaw) : null,
    overBound,
    undelivered: missingEvents(views, receiver),
    eventConflicts,
    eventsMintedTwice,
    eventsReceived: receiver.events.size,
    deliveries: [...receiver.events.values()].reduce((s, e) => s + e.deliveries, 0),
    badSignatures: receiver.badSignatures,
  };
}
