import path from 'node:path';
import Decimal from 'decimal.js';
import { readStateFiles } from '../../src/acquirer/sandbox/state';
import { request, sleep } from '../../support/http';
import { type BlockingWindow, overlap } from './analysis';
import type { TrackedBill } from './bills';
import type { ChaosReceiver } from './receiver';
import type { Shop } from '../../support/shop';

/**
 * After the bill load (docs/operations-chaos.md, "Bills"): wait until every bill is final
 * (bounded), read each back through the API with its tenders' payments, the sandbox acquirer's own
 * books (captures, reversals, refunds) and the bill events at the receiver, and judge them.
 */
const FINAL = new Set(['PAID', 'CANCELLED', 'EXPIRED']);
/** How long after its expiry (or its cancel's 202) a bill may take to be given back, net of fault windows. */
export const GIVE_BACK_BOUND_MS = 30_000;

interface BillTenderRow {
  paymentId: string | null;
  status: string;
  method: string | null;
  amount: number;
}

export interface BillView {
  tracked: TrackedBill;
  status: string | null;
  paidAmount: number | null;
  tenders: BillTenderRow[];
  expiresAt: string | null;
  updatedAt: string | null;
  /** pspReference of each card tender's payment. */
  pspReferences: string[];
}

type Problem = { billId: string; reference: string; script: string; why: string };

export interface BillFindings {
  bills: number;
  byStatus: Record<string, number>;
  paid: number;
  givenBack: number;
  /** Still OPEN or CANCELLING after the settling time (a give-back left half done). */
  notFinal: Problem[];
  /** More kept than the bill's amount, or a PAID bill whose acquirer and cash do not add up to it. */
  overPaid: Problem[];
  /** A CANCELLED or EXPIRED bill with money still kept at the acquirer. */
  halfGivenBack: Problem[];
  /** A tender voided and refunded, or given back more than once. */
  givenBackTwice: Problem[];
  /** A bill cancelled (202) or walked away from that did not end CANCELLED or EXPIRED. */
  abandonedNotGivenBack: Problem[];
  /** Given back later than GIVE_BACK_BOUND_MS after its expiry or cancel, net of fault windows. */
  late: Problem[];
  longestGiveBackMs: number | null;
  /** A final bill without exactly one event of its status, or an event's toReturnAtTill other than its cash. */
  eventsWrong: Problem[];
}

async function readOne(apiUrl: string, shop: Shop, b: TrackedBill): Promise<BillView> {
  const res = await request('GET', `${apiUrl}/api/in-store/bills/${b.id}`, { key: shop.key });
  const body = res.status === 200 ? res.body : null;
  const tenders: BillTenderRow[] = body?.tenders ?? [];
  const pspReferences: string[] = [];
  for (const t of tenders.filter((t) => t.paymentId)) {
    const p = await request('GET', `${apiUrl}/api/transactions/${t.paymentId}`, { key: shop.key });
    if (p.status === 200) pspReferences.push(p.body.pspReference);
  }
  return {
    tracked: b,
    status: body?.status ?? null,
    paidAmount: body?.paidAmount ?? null,
    tenders,
    expiresAt: body?.expiresAt ?? null,
    updatedAt: body?.updatedAt ?? null,
    pspReferences,
  };
}

/** Waits until every bill is final, or the deadline passes; then reads them all. */
export async function readBills(apiUrl: string, shop: Shop, bills: TrackedBill[], deadline: number, log: (l: string) => void): Promise<BillView[]> {
  let lastOpen = -1;
  for (;;) {
    const views: BillView[] = [];
    for (const b of bills) views.push(await readOne(apiUrl, shop, b));
    const open = views.filter((v) => !v.status || !FINAL.has(v.status)).length;
    if (open !== lastOpen) log(`bills settling: ${open} bill(s) not final yet`);
    lastOpen = open;
    if (open === 0 || Date.now() > deadline) return views;
    await sleep(3000);
  }
}

/** Waits (bounded) until each final bill's event has arrived. */
export async function waitBillEvents(views: BillView[], receiver: ChaosReceiver, deadline: number, log: (l: string) => void): Promise<void> {
  while (Date.now() < deadline) {
    const missing = views.filter((v) => v.status && FINAL.has(v.status) && eventsOf(receiver, v).length === 0).length;
    if (missing === 0) return;
    log(`waiting for ${missing} bill event(s)`);
    await sleep(2000);
  }
}

const eventsOf = (receiver: ChaosReceiver, v: BillView) =>
  [...receiver.events.values()].filter((e) => e.bill?.id === v.tracked.id && e.eventType === `BILL_${v.status}`);

const sum = (values: Decimal.Value[]) => values.reduce<Decimal>((a, b) => a.plus(b), new Decimal(0));

export function judgeBills(views: BillView[], dataDir: string, receiver: ChaosReceiver, blocking: BlockingWindow[]): BillFindings {
  const state = readStateFiles(path.join(dataDir, 'sandbox'));
  const acquirerBills = Object.values(state?.bills ?? {});
  const voids = Object.values(state?.voids ?? {});
  const refunds = Object.values(state?.refunds ?? {});
  const f: BillFindings = {
    bills: views.length,
    byStatus: {},
    paid: 0,
    givenBack: 0,
    notFinal: [],
    overPaid: [],
    halfGivenBack: [],
    givenBackTwice: [],
    abandonedNotGivenBack: [],
    late: [],
    longestGiveBackMs: null,
    eventsWrong: [],
  };
  for (const v of views) {
    const b = v.tracked;
    const problem = (why: string): Problem => ({ billId: b.id, reference: b.reference, script: b.script, why });
    const status = v.status ?? 'unread';
    f.byStatus[status] = (f.byStatus[status] ?? 0) + 1;
    if (!FINAL.has(status)) {
      f.notFinal.push(problem(`${status} after the settling time`));
      continue;
    }
    // What the acquirer keeps of each card tender, and how often it gave it back.
    let kept = new Decimal(0);
    for (const t of v.tenders.filter((t) => t.paymentId)) {
      for (const ab of acquirerBills.filter((x) => x.paymentId === t.paymentId)) {
        const confirmedVoids = voids.filter((x) => x.acquirerRef === ab.acquirerRef && x.state === 'CONFIRMED').length;
        const succeeded = refunds.filter((r) => r.acquirerRef === ab.acquirerRef && r.state === 'SUCCEEDED');
        if (confirmedVoids + succeeded.length > 1)
          f.givenBackTwice.push(problem(`tender ${t.paymentId}: ${confirmedVoids} void(s) and ${succeeded.length} refund(s)`));
        if (ab.state === 'CAPTURED' && !ab.voided) kept = kept.plus(new Decimal(ab.capturedAmount ?? ab.amount).minus(sum(succeeded.map((r) => r.amount))));
        if (ab.state === 'AUTHORIZED') kept = kept.plus(ab.authorizedAmount ?? ab.amount);
      }
    }
    const cash = sum(b.cash.map((c) => c.amount));
    if (kept.plus(cash).gt(b.amount))
      f.overPaid.push(problem(`${kept.plus(cash).toFixed(2)} kept (cash ${cash.toFixed(2)}) on a bill of ${b.amount.toFixed(2)}`));
    if (status === 'PAID') {
      f.paid += 1;
      if (!kept.plus(cash).eq(b.amount))
        f.overPaid.push(problem(`PAID, but the acquirer keeps ${kept.toFixed(2)} and the till ${cash.toFixed(2)} of ${b.amount.toFixed(2)}`));
    } else {
      f.givenBack += 1;
      if (kept.gt(0)) f.halfGivenBack.push(problem(`${status}, the acquirer still keeps ${kept.toFixed(2)}`));
      const from = status === 'EXPIRED' ? Date.parse(v.expiresAt ?? '') : b.cancelAcceptedAt;
      const to = Date.parse(v.updatedAt ?? '');
      if (from && to) {
        const net = Math.max(0, to - from - overlap(from, to, blocking));
        f.longestGiveBackMs = Math.max(f.longestGiveBackMs ?? 0, net);
        if (net > GIVE_BACK_BOUND_MS)
          f.late.push(problem(`${status} ${Math.round(net / 1000)} s (net) after ${status === 'EXPIRED' ? 'its expiry' : 'its cancel'}`));
      }
    }
    if (b.script === 'expire' && status !== 'EXPIRED') f.abandonedNotGivenBack.push(problem(`walked away from, ended ${status}`));
    if (b.cancelAcceptedAt && status !== 'CANCELLED') f.abandonedNotGivenBack.push(problem(`cancelled (202), ended ${status}`));
    const events = eventsOf(receiver, v);
    if (events.length !== 1) f.eventsWrong.push(problem(`${events.length} BILL_${status} event(s)`));
    for (const e of events) {
      const toReturn = (e.bill?.toReturnAtTill ?? []).map((c) => `${c.reference}:${new Decimal(c.amount).toFixed(2)}`).sort();
      const expected = status === 'PAID' ? [] : b.cash.map((c) => `${c.reference}:${c.amount.toFixed(2)}`).sort();
      if (toReturn.join() !== expected.join())
        f.eventsWrong.push(problem(`${e.eventType} toReturnAtTill ${toReturn.join() || 'empty'}, the till took ${expected.join() || 'none'}`));
    }
  }
  return f;
}
