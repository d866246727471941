import path from 'node:path';
import Decimal from 'decimal.js';
import { readStateFiles } from '../../src/acquirer/sandbox/state';
import { refundReferenceOf } from '../../core/payment/messages';
import { request, sleep } from '../../support/http';
import type { ChaosReceiver } from './receiver';
import type { RefundRequestRecord, RefundTarget } from './refunders';
import type { Shop } from '../../support/shop';

/**
 * After the refund phase: wait until every refund is decided (bounded), read every refunded
 * payment, its refunds and its history back through the API, the sandbox acquirer's own records of
 * refunds (its state files), and the refund events at the receiver, and judge them against the
 * client's record of every request (docs/operations-chaos.md, "The refund phase").
 */
interface RefundRow {
  id: string;
  paymentId: string;
  amount: number;
  status: string;
  reason: string | null;
  failureReason: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface RefundedPayment {
  id: string;
  status: string | null;
  /** The address its receipts go to, as the API answers it. */
  customerEmail: string | null;
  capturedAt: string | null;
  capturedAmount: number | null;
  refundedAmount: number | null;
  refunds: RefundRow[];
  /** actionReference of every history entry. */
  historyRefs: string[];
}

type Problem = { paymentId: string; refundId?: string; tag?: string; why: string };

export interface RefundFindings {
  payments: number;
  rows: number;
  rowsByStatus: Record<string, number>;
  /** Rows still PENDING after the settling time. */
  undecided: Problem[];
  /** What the acquirer paid differs from what the service says (unpaid, paid though FAILED, unknown to the service, another amount, another total). */
  acquirerMismatch: Problem[];
  /** refundedAmount is not the sum of SUCCEEDED refunds, exceeds capturedAmount, or the status does not follow. */
  sumsWrong: Problem[];
  /** A SUCCEEDED refund without exactly one REFUND- history entry, or a FAILED one with one. */
  historyWrong: Problem[];
  /** A request answered 201/200 whose refund is missing, another amount, or decided against its answer. */
  answersBroken: Problem[];
  /** A refund row made by a request the client was told was refused (4xx). */
  rowsOfRefusedRequests: Problem[];
  /** One request (one Idempotency-Key, or one attempt without) that made two refunds. */
  requestsWithTwoRows: Problem[];
  /** A row whose reason names no request of the run. */
  rowsWithoutRequest: Problem[];
  /** Rows whose request got no answer or a 5xx, last (known, not a failure): by that last answer. */
  rowsUnacknowledged: Problem[];
  rowsUnacknowledgedByAnswer: Record<string, number>;
  /** Rows whose request was answered 503 at least once (the known symptom), acknowledged later or not. */
  rowsAnswered503: number;
  /** A decided refund whose event (PAYMENT_REFUNDED / PAYMENT_REFUND_FAILED with data.refund.id) never arrived. */
  eventsUndelivered: Problem[];
  /** A refund event under two event ids, or for a refund decided otherwise. */
  eventsWrong: Problem[];
  /** Request to decision of SUCCEEDED refunds (createdAt to updatedAt of the row), ms. */
  decisionMs: { median: number | null; max: number | null };
}

async function readOne(apiUrl: string, shop: Shop, id: string): Promise<RefundedPayment> {
  const [rec, refunds, hist] = await Promise.all([
    request('GET', `${apiUrl}/api/transactions/${id}`, { key: shop.key }),
    request<RefundRow[]>('GET', `${apiUrl}/api/transactions/${id}/refunds`, { key: shop.key }),
    request<{ actionReference: string }[]>('GET', `${apiUrl}/api/transactions/by-payment/${id}`, { key: shop.key }),
  ]);
  if (rec.status !== 200 || refunds.status !== 200 || hist.status !== 200)
    throw new Error(`read of payment ${id}: ${rec.status}/${refunds.status}/${hist.status}`);
  return {
    id,
    status: rec.body.status,
    customerEmail: rec.body.customerEmail ?? null,
    capturedAt: rec.body.capturedAt ?? null,
    capturedAmount: rec.body.capturedAmount,
    refundedAmount: rec.body.refundedAmount,
    refunds: refunds.body,
    historyRefs: hist.body.map((h) => h.actionReference),
  };
}

export async function readRefunded(apiUrl: string, shop: Shop, targets: RefundTarget[]): Promise<RefundedPayment[]> {
  const out: RefundedPayment[] = [];
  for (let i = 0; i < targets.length; i += 8) out.push(...(await Promise.all(targets.slice(i, i + 8).map((t) => readOne(apiUrl, shop, t.id)))));
  return out;
}

const sumOf = (rows: RefundRow[], status: string): Decimal => rows.filter((r) => r.status === status).reduce((s, r) => s.plus(r.amount), new Decimal(0));

/** Waits (bounded) until no refund is PENDING and every payment shows the sum of its succeeded refunds. */
export async function waitRefundsDecided(apiUrl: string, shop: Shop, targets: RefundTarget[], deadline: number, log: (l: string) => void): Promise<void> {
  let last = '';
  while (Date.now() < deadline) {
    try {
      const views = await readRefunded(apiUrl, shop, targets);
      const pending = views.reduce((n, v) => n + v.refunds.filter((r) => r.status === 'PENDING').length, 0);
      const behind = views.filter((v) => !sumOf(v.refunds, 'SUCCEEDED').eq(v.refundedAmount ?? 0)).length;
      const line = `refunds: ${pending} PENDING, ${behind} payment(s) whose refundedAmount is not yet the sum of its succeeded refunds`;
      if (line !== last) log(line);
      last = line;
      if (pending === 0 && behind === 0) return;
    } catch (err) {
      log(`refunds: read failed (${(err as Error).message}); again`);
    }
    await sleep(2000);
  }
}

const refundEventType = (status: string): string | null => (status === 'SUCCEEDED' ? 'PAYMENT_REFUNDED' : status === 'FAILED' ? 'PAYMENT_REFUND_FAILED' : null);

/** Waits (bounded) until the receiver holds the event of every decided refund. */
export async function waitRefundEvents(views: RefundedPayment[], receiver: ChaosReceiver, deadline: number, log: (l: string) => void): Promise<void> {
  let last = -1;
  while (Date.now() < deadline) {
    const missing = missingRefundEvents(views, receiver).length;
    if (missing !== last) log(`refund events: ${missing} not received yet`);
    last = missing;
    if (missing === 0) return;
    await sleep(1000);
  }
}

function missingRefundEvents(views: RefundedPayment[], receiver: ChaosReceiver): Problem[] {
  const got = new Set([...receiver.events.values()].filter((e) => e.refundId).map((e) => `${e.refundId}:${e.eventType}`));
  const missing: Problem[] = [];
  for (const v of views)
    for (const r of v.refunds) {
      const type = refundEventType(r.status);
      if (type && !got.has(`${r.id}:${type}`)) missing.push({ paymentId: v.id, refundId: r.id, why: `${type} never arrived` });
    }
  return missing;
}

interface SandboxRefundRecord {
  refundReference: string;
  acquirerRef: string;
  amount: string;
  state: string;
}

export function judgeRefunds(views: RefundedPayment[], requests: RefundRequestRecord[], dataDir: string, receiver: ChaosReceiver): RefundFindings {
  const state = readStateFiles(path.join(dataDir, 'sandbox'));
  const bills = Object.values(state?.bills ?? {});
  const sandboxRefunds = Object.values(state?.refunds ?? {}) as SandboxRefundRecord[];
  const paymentIds = new Set(views.map((v) => v.id));
  const billOf = new Map(bills.filter((b) => paymentIds.has(b.paymentId)).map((b) => [b.acquirerRef, b]));

  const f: RefundFindings = {
    payments: views.length,
    rows: 0,
    rowsByStatus: {},
    undecided: [],
    acquirerMismatch: [],
    sumsWrong: [],
    historyWrong: [],
    answersBroken: [],
    rowsOfRefusedRequests: [],
    requestsWithTwoRows: [],
    rowsWithoutRequest: [],
    rowsUnacknowledged: [],
    rowsUnacknowledgedByAnswer: {},
    rowsAnswered503: 0,
    eventsUndelivered: missingRefundEvents(views, receiver),
    eventsWrong: [],
    decisionMs: { median: null, max: null },
  };
  const requestOf = new Map(requests.map((r) => [r.tag, r]));
  const rowsOfTag = new Map<string, RefundRow[]>();
  const rowById = new Map<string, RefundRow>();
  const sandboxByRef = new Map(sandboxRefunds.map((r) => [r.refundReference, r]));
  const decisions: number[] = [];

  for (const v of views) {
    for (const r of v.refunds) {
      f.rows += 1;
      f.rowsByStatus[r.status] = (f.rowsByStatus[r.status] ?? 0) + 1;
      rowById.set(r.id, r);
      // The acquirer's side, by the stable reference: it keeps one refund per reference.
      const paid = sandboxByRef.get(refundReferenceOf(r.id));
      if (r.status === 'PENDING')
        f.undecided.push({
          paymentId: v.id,
          refundId: r.id,
          why: `PENDING since ${r.createdAt} (${r.amount}); at the acquirer ${paid ? `${paid.state} (${paid.amount})` : 'unknown'}`,
        });
      if (r.status === 'SUCCEEDED') decisions.push(Date.parse(r.updatedAt) - Date.parse(r.createdAt));
      if (r.status === 'SUCCEEDED' && (paid?.state !== 'SUCCEEDED' || !new Decimal(paid.amount).eq(r.amount)))
        f.acquirerMismatch.push({
          paymentId: v.id,
          refundId: r.id,
          why: `SUCCEEDED (${r.amount}) in the service, at the acquirer ${paid ? `${paid.state} (${paid.amount})` : 'unknown'}`,
        });
      if (r.status === 'FAILED' && paid?.state === 'SUCCEEDED')
        f.acquirerMismatch.push({ paymentId: v.id, refundId: r.id, why: `FAILED in the service, paid at the acquirer (${paid.amount})` });
      // Decided once: one REFUND- history entry per succeeded refund, none for a failed one.
      const entries = v.historyRefs.filter((ref) => ref === refundReferenceOf(r.id)).length;
      if ((r.status === 'SUCCEEDED' && entries !== 1) || (r.status === 'FAILED' && entries !== 0))
        f.historyWrong.push({ paymentId: v.id, refundId: r.id, why: `${r.status} with ${entries} history entries ${refundReferenceOf(r.id)}` });
      // Traced to its request by the tag in reason.
      const tag = r.reason ?? '';
      rowsOfTag.set(tag, [...(rowsOfTag.get(tag) ?? []), r]);
    }

    // The payment's figures.
    const succeeded = sumOf(v.refunds, 'SUCCEEDED');
    const committed = succeeded.plus(sumOf(v.refunds, 'PENDING'));
    const captured = new Decimal(v.capturedAmount ?? 0);
    const refunded = new Decimal(v.refundedAmount ?? 0);
    if (!succeeded.eq(refunded)) f.sumsWrong.push({ paymentId: v.id, why: `refundedAmount ${refunded} but the succeeded refunds add up to ${succeeded}` });
    if (committed.gt(captured)) f.sumsWrong.push({ paymentId: v.id, why: `refunds not FAILED add up to ${committed}, more than the captured ${captured}` });
    const expected = refunded.isZero() ? ['CAPTURED', 'SETTLED'] : refunded.lt(captured) ? ['PARTIALLY_REFUNDED'] : ['REFUNDED'];
    if (!expected.includes(v.status ?? ''))
      f.sumsWrong.push({ paymentId: v.id, why: `status ${v.status} with refundedAmount ${refunded} of ${captured} captured` });
  }

  // The acquirer's totals per bill, and refunds it holds that the service does not know.
  const paidPerBill = new Map<string, Decimal>();
  for (const sr of sandboxRefunds) {
    const bill = billOf.get(sr.acquirerRef);
    if (!bill) continue;
    if (sr.state === 'SUCCEEDED') paidPerBill.set(bill.acquirerRef, (paidPerBill.get(bill.acquirerRef) ?? new Decimal(0)).plus(sr.amount));
    const id = sr.refundReference.replace(/^REFUND-/, '');
    if (!rowById.has(id))
      f.acquirerMismatch.push({
        paymentId: bill.paymentId,
        why: `the acquirer holds ${sr.refundReference} (${sr.state}, ${sr.amount}), the service has no such refund`,
      });
  }
  for (const v of views) {
    const bill = bills.find((b) => b.paymentId === v.id && b.state === 'CAPTURED');
    // A payment with an undecided refund is reported as such (with the acquirer's word on it) above.
    if (!bill || v.refunds.some((r) => r.status === 'PENDING')) continue;
    const paid = paidPerBill.get(bill.acquirerRef) ?? new Decimal(0);
    if (!paid.eq(v.refundedAmount ?? 0))
      f.acquirerMismatch.push({ paymentId: v.id, why: `the acquirer paid back ${paid} in all, the payment says refundedAmount ${v.refundedAmount}` });
    if (!new Decimal(bill.refundedAmount ?? 0).eq(paid))
      f.acquirerMismatch.push({ paymentId: v.id, why: `the bill's refundedAmount ${bill.refundedAmount} is not its succeeded refunds ${paid}` });
  }

  // Each request against the rows it made.
  for (const [tag, rows] of rowsOfTag) {
    const req = requestOf.get(tag);
    if (!req) {
      for (const r of rows) f.rowsWithoutRequest.push({ paymentId: r.paymentId, refundId: r.id, why: `reason '${tag}' names no request of the run` });
      continue;
    }
    if (rows.length > 1)
      f.requestsWithTwoRows.push({
        paymentId: req.paymentId,
        tag,
        why: `${rows.length} refunds (${rows.map((r) => r.id).join(', ')}) for answers ${req.answers.join(',')}`,
      });
    if (req.answers.includes(503)) f.rowsAnswered503 += rows.length;
    const acknowledged = req.finalAnswer === 200 || req.finalAnswer === 201;
    for (const r of rows) {
      if (acknowledged) continue;
      if (req.finalAnswer === 0 || req.finalAnswer >= 500 || req.finalAnswer === 429) {
        f.rowsUnacknowledged.push({ paymentId: r.paymentId, refundId: r.id, tag, why: `answers ${req.answers.join(',')}; the refund is ${r.status}` });
        f.rowsUnacknowledgedByAnswer[req.finalAnswer] = (f.rowsUnacknowledgedByAnswer[req.finalAnswer] ?? 0) + 1;
      } else {
        f.rowsOfRefusedRequests.push({
          paymentId: r.paymentId,
          refundId: r.id,
          tag,
          why: `answered ${req.answers.join(',')}${req.refusal ? ` ('${req.refusal}')` : ''}, yet the refund exists (${r.status}, ${r.amount})`,
        });
      }
    }
  }
  for (const req of requests) {
    if (req.finalAnswer !== 200 && req.finalAnswer !== 201) continue;
    const row = req.refundId ? rowById.get(req.refundId) : undefined;
    if (!row) {
      f.answersBroken.push({ paymentId: req.paymentId, tag: req.tag, refundId: req.refundId, why: `answered ${req.finalAnswer}, no such refund` });
      continue;
    }
    if (row.reason !== req.tag)
      f.answersBroken.push({ paymentId: req.paymentId, tag: req.tag, refundId: row.id, why: `answered with the refund of request '${row.reason}'` });
    if (req.amount !== null && !new Decimal(row.amount).eq(req.amount))
      f.answersBroken.push({ paymentId: req.paymentId, tag: req.tag, refundId: row.id, why: `asked ${req.amount}, the refund is ${row.amount}` });
    if ((req.answeredStatus === 'SUCCEEDED' || req.answeredStatus === 'FAILED') && row.status !== req.answeredStatus)
      f.answersBroken.push({ paymentId: req.paymentId, tag: req.tag, refundId: row.id, why: `answered ${req.answeredStatus}, the refund ended ${row.status}` });
  }

  // Refund events: one event id per refund and type, and only the type its decision gives.
  const idsOf = new Map<string, string[]>();
  for (const e of receiver.events.values()) {
    if (!e.refundId) continue;
    const row = rowById.get(e.refundId);
    if (!row) continue; // a refund of a payment this phase did not refund
    if (e.eventType !== refundEventType(row.status))
      f.eventsWrong.push({ paymentId: row.paymentId, refundId: row.id, why: `${e.eventType} for a refund that is ${row.status}` });
    const key = `${e.refundId}:${e.eventType}`;
    idsOf.set(key, [...(idsOf.get(key) ?? []), e.eventId]);
  }
  for (const [key, ids] of idsOf)
    if (ids.length > 1)
      f.eventsWrong.push({
        paymentId: rowById.get(key.split(':')[0]!)!.paymentId,
        refundId: key.split(':')[0],
        why: `${key.split(':')[1]} under ${ids.length} event ids`,
      });

  decisions.sort((a, b) => a - b);
  f.decisionMs = {
    median: decisions.length ? decisions[Math.floor(decisions.length / 2)]! : null,
    max: decisions.length ? decisions[decisions.length - 1]! : null,
  };
  return f;
}
