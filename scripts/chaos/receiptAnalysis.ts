import type { MailboxMessage } from '../../src/acquirer/sandbox/mailbox';
import { receiptIdOf, receiptPartsOf } from '../../core/receipt/messages';
import { receiptIdOfMessageId } from '../../src/receipts/email';
import { sleep } from '../../support/http';
import { overlap } from './analysis';

/**
 * The receipts of the run (docs/operations-chaos.md, "Receipts"): what each payment with a
 * customerEmail should have received, one email per event it had (the sale captured, the void, each
 * succeeded refund), judged against what reached the run's mailbox. A mail client shows one message
 * per Message-ID, so receipts are counted by it; the same Message-ID delivered again (the resend
 * window of docs/receipts.md) is a figure, not a miss.
 */

/** One payment as the run read it back: its address, and the events that call for a receipt. */
export interface ReceiptSubject {
  paymentId: string;
  customerEmail: string | null;
  /** When it was captured (the sale's receipt), else null. */
  capturedAt: string | null;
  /** When a void turned it CAPTURED -> CANCELLED, else null. */
  voidedAt: string | null;
  /** Its succeeded refunds, each with its decision time. */
  refunds: { id: string; at: string }[];
}

export interface ExpectedReceipt {
  paymentId: string;
  receiptId: string;
  to: string;
  /** When the event happened (ms since epoch). */
  eventAt: number;
}

type Problem = { paymentId: string; receiptId?: string; why: string };

export interface ReceiptFindings {
  paymentsWithEmail: number;
  expected: number;
  byEvent: Record<string, number>;
  /** Distinct Message-IDs received, and every delivery. */
  received: number;
  deliveries: number;
  /** Deliveries beyond the first of a Message-ID: the documented resend window, a figure. */
  resent: number;
  missing: Problem[];
  doubled: Problem[];
  withoutEmail: Problem[];
  personalData: Problem[];
  /** From the event to its receipt's first delivery, the longest, net of the fault windows it overlapped. */
  longestNetMs: number | null;
  longestRawMs: number | null;
}

const receiptIdOfMessage = (m: Pick<MailboxMessage, 'messageId'>): string | null => receiptIdOfMessageId(m.messageId);

export function expectedReceipts(subjects: ReceiptSubject[]): ExpectedReceipt[] {
  const out: ExpectedReceipt[] = [];
  for (const s of subjects) {
    if (!s.customerEmail) continue;
    const of = (receiptId: string, at: string) => out.push({ paymentId: s.paymentId, receiptId, to: s.customerEmail!, eventAt: Date.parse(at) });
    if (s.capturedAt) of(receiptIdOf(s.paymentId, 'CAPTURED'), s.capturedAt);
    if (s.voidedAt) of(receiptIdOf(s.paymentId, 'VOIDED'), s.voidedAt);
    for (const r of s.refunds) of(receiptIdOf(s.paymentId, 'REFUNDED', r.id), r.at);
  }
  return out;
}

/** Waits (bounded) until every expected receipt is in the mailbox. */
export async function waitReceipts(expected: ExpectedReceipt[], messages: () => MailboxMessage[], deadline: number, log: (l: string) => void): Promise<void> {
  let last = -1;
  while (Date.now() < deadline) {
    const got = new Set(messages().map(receiptIdOfMessage));
    const missing = expected.filter((e) => !got.has(e.receiptId)).length;
    if (missing !== last) log(`receipts: ${missing} of ${expected.length} not in the mailbox yet`);
    last = missing;
    if (missing === 0) return;
    await sleep(1000);
  }
}

// A card number is 12 to 19 digits, perhaps in groups; the receipt shows the last four only.
const CARD_NUMBER = /\b(?:\d[ -]?){11,18}\d\b/;
// The run's customer addresses (`<reference>@example.test`): the To header only, never the subject or the body.
const ADDRESS = /[\w.+-]+@example\.test/;

/**
 * `windows`: the fault windows during which a receipt cannot be sent (no worker, no Temporal, the
 * mailbox refusing), left out of the time from an event to its receipt.
 */
export function judgeReceipts(subjects: ReceiptSubject[], messages: MailboxMessage[], windows: { startedAt: number; endedAt: number }[]): ReceiptFindings {
  const expected = expectedReceipts(subjects);
  const byPayment = new Map(subjects.map((s) => [s.paymentId, s]));
  const expectedIds = new Map(expected.map((e) => [e.receiptId, e]));
  const byMessageId = new Map<string, MailboxMessage[]>();
  for (const m of messages) {
    const key = m.messageId ?? `(no Message-ID) ${m.subject}`;
    const list = byMessageId.get(key);
    if (list) list.push(m);
    else byMessageId.set(key, [m]);
  }
  const f: ReceiptFindings = {
    paymentsWithEmail: subjects.filter((s) => s.customerEmail).length,
    expected: expected.length,
    byEvent: {},
    received: byMessageId.size,
    deliveries: messages.length,
    resent: messages.length - byMessageId.size,
    missing: [],
    doubled: [],
    withoutEmail: [],
    personalData: [],
    longestNetMs: null,
    longestRawMs: null,
  };
  for (const e of expected) {
    const kind = receiptPartsOf(e.receiptId).event.replace(/-.*$/, '');
    f.byEvent[kind] = (f.byEvent[kind] ?? 0) + 1;
  }

  // Each payment and event: the receipt ids that reached the mailbox (one Message-ID each).
  const receivedIds = new Map<string, MailboxMessage[]>();
  for (const list of byMessageId.values()) {
    const first = list.at(-1)!; // newest first: the last is the first delivery
    const receiptId = receiptIdOfMessage(first);
    if (!receiptId) {
      f.withoutEmail.push({ paymentId: '?', why: `a message that is no receipt of the run: ${first.subject}` });
      continue;
    }
    receivedIds.set(receiptId, list);
    const { paymentId, event } = receiptPartsOf(receiptId);
    const subject = byPayment.get(paymentId);
    const body = list.map((m) => `${m.subject}\n${m.text}\n${m.html ?? ''}`).join('\n');
    if (CARD_NUMBER.test(body)) f.personalData.push({ paymentId, receiptId, why: `a card number in the email: ${CARD_NUMBER.exec(body)![0]}` });
    if (ADDRESS.test(body)) f.personalData.push({ paymentId, receiptId, why: 'an email address in the subject or the body' });
    if (!subject?.customerEmail) {
      f.withoutEmail.push({ paymentId, receiptId, why: subject ? 'the payment has no customerEmail' : 'a payment the run does not know' });
      continue;
    }
    if (!expectedIds.has(receiptId))
      f.doubled.push({ paymentId, receiptId, why: `a receipt (${event}) for an event the payment did not have, or under another id` });
    if (list.some((m) => m.to.join(', ') !== subject.customerEmail))
      f.missing.push({ paymentId, receiptId, why: `sent to ${list.map((m) => m.to.join(', ')).join('; ')}, not to the payment's address` });
  }

  for (const e of expected) {
    const list = receivedIds.get(e.receiptId);
    if (!list) {
      f.missing.push({ paymentId: e.paymentId, receiptId: e.receiptId, why: 'no email in the mailbox' });
      continue;
    }
    const at = Date.parse(list.at(-1)!.receivedAt);
    const raw = Math.max(0, at - e.eventAt);
    const net = Math.max(0, raw - overlap(e.eventAt, at, windows));
    if (f.longestRawMs === null || raw > f.longestRawMs) f.longestRawMs = raw;
    if (f.longestNetMs === null || net > f.longestNetMs) f.longestNetMs = net;
  }
  return f;
}
