import type { Findings, TimedPayment } from './analysis';
import type { BillFindings } from './billAnalysis';
import type { BillLoadStats } from './bills';
import type { LoadStats } from './cashiers';
import type { FaultRecord } from './faults';
import type { ReceiptFindings } from './receiptAnalysis';
import type { RefundedPayment, RefundFindings } from './refundAnalysis';
import type { RefundLoadStats } from './refunders';

/** The chaos run's report: the targets of issue 6 as a table, and the same figures as JSON. */
export interface Target {
  name: string;
  value: number | null;
  target: string;
  ok: boolean;
}

/** The refund phase (docs/operations-chaos.md, "The refund phase"). */
export interface RefundPhase {
  faults: FaultRecord[];
  load: RefundLoadStats;
  findings: RefundFindings;
  durationMs: number;
  /** The refunded payments as read back (for the receipt check; not in the JSON report). */
  payments: RefundedPayment[];
}

/** The bill business's part of the payment phase (docs/operations-chaos.md, "Bills"). */
export interface BillPhase {
  load: BillLoadStats;
  findings: BillFindings;
}

function billTargets(b: BillFindings): Target[] {
  return [
    { name: 'bills paid', value: b.paid, target: '> 0', ok: b.paid > 0 },
    { name: 'bills given back (cancelled or expired)', value: b.givenBack, target: '> 0', ok: b.givenBack > 0 },
    zero('bills not final (left OPEN or CANCELLING)', b.notFinal),
    zero('bills over-paid or paid other than their amount', b.overPaid),
    zero('bills given back only in part', b.halfGivenBack),
    zero('bill tenders given back twice', b.givenBackTwice),
    zero('abandoned bills not given back', b.abandonedNotGivenBack),
    zero('bills given back late', b.late),
    zero('bill events missing, doubled or wrong', b.eventsWrong),
  ];
}

/** Lines of the worker's log that report a nondeterminism error, with the workflow ids they name. */
export interface NondeterminismSeen {
  lines: number;
  workflowIds: string[];
  first: string | null;
}

type FaultRow = Omit<FaultRecord, 'startedAt' | 'endedAt'> & { startedAt: string; durationMs: number };

export interface ChaosReport {
  database: string;
  temporal: string;
  short: boolean;
  startedAt: string;
  durationSeconds: number;
  cashiers: number;
  settings: Record<string, string>;
  boundSeconds: number;
  faults: FaultRow[];
  load: LoadStats;
  payments: {
    created: number;
    acknowledgedByStatus: Record<string, number>;
    finalByStatus: Record<string, number>;
  };
  paymentsLost: number;
  doubleCaptures: number;
  longestTimeToFinalMs: number | null;
  longestTimeToFinalRawMs: number | null;
  eventsUndelivered: number;
  adyen: AdyenPhase | null;
  refunds: (Omit<RefundPhase, 'faults' | 'findings' | 'payments'> & { faults: FaultRow[]; findings: RefundFindings }) | null;
  bills: BillPhase | null;
  receipts: ReceiptFindings | null;
  nondeterminism: NondeterminismSeen;
  targets: Target[];
  ok: boolean;
  details: Record<string, unknown>;
}

const faultRows = (faults: FaultRecord[]): FaultRow[] =>
  faults.map(({ startedAt, endedAt, ...rest }) => ({ ...rest, startedAt: new Date(startedAt).toISOString(), durationMs: endedAt - startedAt }));

/** A target of none: the list of what went wrong must be empty. */
const zero = (name: string, list: unknown[]): Target => ({ name, value: list.length, target: '0', ok: list.length === 0 });

function refundTargets(r: RefundFindings): Target[] {
  return [
    zero('refunds not decided (PENDING)', r.undecided),
    zero('refunds paid at the acquirer not as the service says', r.acquirerMismatch),
    zero('refunded amounts or statuses wrong', r.sumsWrong),
    zero('refunds decided other than once (history)', r.historyWrong),
    zero('refund answers (201/200) without their refund', r.answersBroken),
    zero('refunds made for a request answered 4xx', r.rowsOfRefusedRequests),
    zero('refund requests that made two refunds', r.requestsWithTwoRows),
    zero('refunds no request of the run made', r.rowsWithoutRequest),
    zero('refund events undelivered', r.eventsUndelivered),
    zero('refund events wrong or under two ids', r.eventsWrong),
  ];
}

/** The adyen store's part of the payment phase (its payments are judged with the others). */
export interface AdyenPhase {
  tills: number;
  payments: number;
  captured: number;
  load: LoadStats;
  /** Requests the adapter sent that Adyen's schemas refuse. */
  invalidRequests: string[];
}

function adyenTargets(a: AdyenPhase): Target[] {
  return [
    { name: 'payments captured through the adyen account', value: a.captured, target: '> 0', ok: a.captured > 0 },
    { name: "adyen requests refused by Adyen's schemas", value: a.invalidRequests.length, target: '0', ok: a.invalidRequests.length === 0 },
  ];
}

/** The receipts (docs/operations-chaos.md, "Receipts"): counted by Message-ID, as a mail client shows them. */
function receiptTargets(r: ReceiptFindings): Target[] {
  return [
    zero('receipts missing', r.missing),
    zero('receipts doubled (distinct Message-IDs per event)', r.doubled),
    zero('receipts for payments without an email', r.withoutEmail),
    zero('receipts showing an address or a card number beyond the last four', r.personalData),
  ];
}

const LIMIT = 20;

export function buildReport(args: {
  database: string;
  temporal: string;
  short: boolean;
  startedAt: number;
  cashiers: number;
  settings: Record<string, string>;
  boundMs: number;
  faults: FaultRecord[];
  load: LoadStats;
  findings: Findings;
  refunds: RefundPhase | null;
  bills: BillPhase | null;
  receipts: ReceiptFindings | null;
  nondeterminism: NondeterminismSeen;
  adyen: AdyenPhase | null;
}): ChaosReport {
  const f = args.findings;
  const targets: Target[] = [
    { name: 'payments lost', value: f.lost.length, target: '0', ok: f.lost.length === 0 },
    { name: 'double captures', value: f.doubleCaptures.length, target: '0', ok: f.doubleCaptures.length === 0 },
    {
      name: 'longest time to a final state, s (net of fault windows)',
      value: f.longest ? round(f.longest.netTimeToFinalMs / 1000) : null,
      target: `<= ${round(args.boundMs / 1000)}`,
      ok: f.overBound.length === 0,
    },
    { name: 'events undelivered', value: f.undelivered.length, target: '0', ok: f.undelivered.length === 0 },
    // Guarantees around the four figures: a miss here is a bug just the same.
    { name: 'unacknowledged payments not final', value: f.unacknowledgedNotFinal.length, target: '0', ok: f.unacknowledgedNotFinal.length === 0 },
    { name: 'captures unknown to the acquirer', value: f.capturesUnknownToAcquirer.length, target: '0', ok: f.capturesUnknownToAcquirer.length === 0 },
    { name: 'event ids wrong or shared between payments', value: f.eventConflicts.length, target: '0', ok: f.eventConflicts.length === 0 },
    { name: 'status events with two event ids', value: f.eventsMintedTwice.length, target: '0', ok: f.eventsMintedTwice.length === 0 },
    { name: 'deliveries with a bad signature', value: f.badSignatures, target: '0', ok: f.badSignatures === 0 },
    ...(args.refunds ? refundTargets(args.refunds.findings) : []),
    ...(args.adyen ? adyenTargets(args.adyen) : []),
    ...(args.bills ? billTargets(args.bills.findings) : []),
    ...(args.receipts ? receiptTargets(args.receipts) : []),
  ];
  const rf = args.refunds?.findings;
  return {
    database: args.database,
    temporal: args.temporal,
    short: args.short,
    startedAt: new Date(args.startedAt).toISOString(),
    durationSeconds: round((Date.now() - args.startedAt) / 1000),
    cashiers: args.cashiers,
    settings: args.settings,
    boundSeconds: round(args.boundMs / 1000),
    faults: faultRows(args.faults),
    load: args.load,
    payments: { created: f.created, acknowledgedByStatus: f.acknowledgedByStatus, finalByStatus: f.finalByStatus },
    paymentsLost: f.lost.length,
    doubleCaptures: f.doubleCaptures.length,
    longestTimeToFinalMs: f.longest?.netTimeToFinalMs ?? null,
    longestTimeToFinalRawMs: f.longestRaw?.timeToFinalMs ?? null,
    eventsUndelivered: f.undelivered.length,
    refunds: args.refunds
      ? {
          load: args.refunds.load,
          durationMs: args.refunds.durationMs,
          faults: faultRows(args.refunds.faults),
          // Examples only: up to LIMIT of each list.
          findings: Object.fromEntries(
            Object.entries(args.refunds.findings).map(([k, v]) => [k, Array.isArray(v) ? v.slice(0, LIMIT) : v]),
          ) as unknown as RefundFindings,
        }
      : null,
    bills: args.bills
      ? {
          load: args.bills.load,
          findings: Object.fromEntries(
            Object.entries(args.bills.findings).map(([k, v]) => [k, Array.isArray(v) ? v.slice(0, LIMIT) : v]),
          ) as unknown as BillFindings,
        }
      : null,
    receipts: args.receipts
      ? (Object.fromEntries(Object.entries(args.receipts).map(([k, v]) => [k, Array.isArray(v) ? v.slice(0, LIMIT) : v])) as unknown as ReceiptFindings)
      : null,
    nondeterminism: args.nondeterminism,
    adyen: args.adyen ? { ...args.adyen, invalidRequests: args.adyen.invalidRequests.slice(0, LIMIT) } : null,
    targets,
    ok: targets.every((t) => t.ok),
    details: {
      lost: f.lost.slice(0, LIMIT),
      unacknowledgedNotFinal: f.unacknowledgedNotFinal.slice(0, LIMIT),
      doubleCaptures: f.doubleCaptures.slice(0, LIMIT),
      capturesUnknownToAcquirer: f.capturesUnknownToAcquirer.slice(0, LIMIT),
      longest: f.longest,
      longestRaw: f.longestRaw,
      overBound: f.overBound.slice(0, LIMIT),
      overBoundCount: f.overBound.length,
      undelivered: f.undelivered.slice(0, LIMIT),
      eventConflicts: f.eventConflicts.slice(0, LIMIT),
      eventsMintedTwice: f.eventsMintedTwice.slice(0, LIMIT),
      eventsReceived: f.eventsReceived,
      deliveries: f.deliveries,
      ...(rf
        ? {
            refundCounts: Object.fromEntries(
              Object.entries(rf)
                .filter(([, v]) => Array.isArray(v))
                .map(([k, v]) => [k, (v as unknown[]).length]),
            ),
          }
        : {}),
    },
  };
}

const round = (n: number): number => Math.round(n * 10) / 10;

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  // First and last columns are text (left-aligned), the ones between figures (right-aligned).
  const last = widths.length - 1;
  return rows
    .map((r) =>
      r
        .map((c, i) => (i === 0 || i === last ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
        .join('   ')
        .trimEnd(),
    )
    .join('\n');
}

function faultTable(faults: FaultRow[]): string {
  return table([
    ['fault', 'start', 'took (s)', 'window (s)', 'result'],
    ...faults.map((f) => [
      f.kind,
      f.startedAt.slice(11, 19),
      String(round(f.durationMs / 1000)),
      f.blocking ? String(round((f.windowMs ?? f.durationMs + f.recoveryMs) / 1000)) : '-',
      f.skipped ?? f.detail ?? '',
    ]),
  ]);
}

const byStatus = (m: Record<string, number>) =>
  Object.entries(m)
    .sort()
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');

const secs = (ms: number | null): string => (ms === null ? '-' : String(round(ms / 1000)));

export function formatReport(r: ChaosReport): string {
  const lines: string[] = [];
  lines.push(
    `chaos report: ${r.database} database, Temporal ${r.temporal === 'server' ? 'server' : r.temporal === 'cluster' ? 'cluster of two nodes' : 'dev server'}, ${r.short ? 'short' : 'full'} run, ${r.cashiers} cashiers, ${r.durationSeconds} s`,
  );
  lines.push('');
  lines.push(faultTable(r.faults));
  lines.push('');
  lines.push(`payments created (201): ${r.payments.created} (at creation: ${byStatus(r.payments.acknowledgedByStatus)})`);
  lines.push(`final statuses: ${byStatus(r.payments.finalByStatus)}`);
  lines.push(`create requests: ${r.load.createRequests} (answers: ${byStatus(r.load.createAnswers)}; given up: ${r.load.createsGivenUp})`);
  lines.push(`longest time to a final state including fault windows: ${r.longestTimeToFinalRawMs === null ? '-' : round(r.longestTimeToFinalRawMs / 1000)} s`);
  lines.push(`events received: ${r.details.eventsReceived} distinct, ${r.details.deliveries} deliveries`);
  if (r.refunds) {
    const { load, findings: rf } = r.refunds;
    lines.push('');
    lines.push(`refund phase: ${round(r.refunds.durationMs / 1000)} s`);
    lines.push('');
    lines.push(faultTable(r.refunds.faults));
    lines.push('');
    lines.push(
      `refunded payments: ${load.payments} (${load.freshPayments} captured in this phase, ${load.payments - load.freshPayments} earlier); scripts: ${byStatus(load.scripts)}`,
    );
    lines.push(
      `refund requests: ${load.requests} (${load.withKey} with an Idempotency-Key, ${load.impatient} first aborted by the client); attempts: ${byStatus(load.attempts)}; last answers: ${byStatus(load.finalAnswers)}`,
    );
    lines.push(
      `refunds: ${rf.rows} (${byStatus(rf.rowsByStatus)}); request to SUCCEEDED: median ${secs(rf.decisionMs.median)} s, longest ${secs(rf.decisionMs.max)} s`,
    );
    lines.push(
      `refunds whose request got no answer or a 5xx (the client was not told; allowed): ${Object.values(rf.rowsUnacknowledgedByAnswer).reduce((a, b) => a + b, 0)}${Object.keys(rf.rowsUnacknowledgedByAnswer).length ? ` (last answer: ${byStatus(rf.rowsUnacknowledgedByAnswer)})` : ''}`,
    );
    lines.push(`refunds whose request was answered 503 at least once (known symptom, not a failure): ${rf.rowsAnswered503}`);
  }
  if (r.bills) {
    const { load, findings: bf } = r.bills;
    lines.push('');
    lines.push(
      `bills: ${bf.bills} (${byStatus(bf.byStatus)}); scripts: ${byStatus(load.scripts)}; tender answers: ${byStatus(load.tenderAnswers)}; races with both tenders accepted: ${load.racesBothAccepted}; calls given up: ${load.givenUp}`,
    );
    lines.push(`longest give-back after expiry or cancel (net of fault windows): ${secs(bf.longestGiveBackMs)} s`);
  }
  if (r.receipts) {
    const rc = r.receipts;
    lines.push('');
    lines.push(
      `receipts: ${rc.paymentsWithEmail} payments with a customerEmail, ${rc.expected} receipts expected (${byStatus(rc.byEvent)}); ${rc.received} distinct Message-IDs in ${rc.deliveries} deliveries (sent again under the same Message-ID: ${rc.resent}, the resend window of docs/receipts.md)`,
    );
    lines.push(`longest from an event to its receipt: ${secs(rc.longestNetMs)} s net of fault windows (${secs(rc.longestRawMs)} s)`);
  }
  lines.push(
    `nondeterminism errors in the worker's log: ${r.nondeterminism.lines}${r.nondeterminism.workflowIds.length ? ` (workflows ${r.nondeterminism.workflowIds.join(', ')})` : ''}`,
  );
  lines.push('');
  lines.push(
    table([['target', 'value', 'target', ''], ...r.targets.map((t) => [t.name, t.value === null ? '-' : String(t.value), t.target, t.ok ? 'ok' : 'MISSED'])]),
  );
  lines.push('');
  if (r.refunds) {
    // A refund miss is printed with examples here: CI keeps no JSON report.
    const lists: [string, unknown][] = Object.entries(r.refunds.findings).filter(([k, v]) => Array.isArray(v) && v.length > 0 && k !== 'rowsUnacknowledged');
    for (const [name, list] of lists) {
      lines.push(`refund problem ${name}:`);
      for (const p of (list as Record<string, string>[]).slice(0, 5))
        lines.push(`  payment ${p.paymentId}${p.refundId ? ` refund ${p.refundId}` : ''}${p.tag ? ` request ${p.tag}` : ''}: ${p.why}`);
    }
    if (lists.length) lines.push('');
  }
  // Event and receipt misses with examples: CI keeps no JSON report.
  const conflicts = (r.details.eventConflicts ?? []) as { eventId: string; why: string }[];
  if (conflicts.length) {
    lines.push('event ids wrong or shared:');
    for (const c of conflicts.slice(0, 5)) lines.push(`  ${c.eventId}: ${c.why}`);
    lines.push('');
  }
  if (r.receipts) {
    const lists = (['missing', 'doubled', 'withoutEmail', 'personalData'] as const).filter((k) => r.receipts![k].length > 0);
    for (const name of lists) {
      lines.push(`receipt problem ${name}:`);
      for (const p of r.receipts[name].slice(0, 5)) lines.push(`  payment ${p.paymentId}${p.receiptId ? ` receipt ${p.receiptId}` : ''}: ${p.why}`);
    }
    if (lists.length) lines.push('');
  }
  if (r.bills) {
    // A bill miss is printed with examples too.
    const lists = Object.entries(r.bills.findings).filter(([, v]) => Array.isArray(v) && v.length > 0) as [
      string,
      { reference: string; script: string; billId: string; why: string }[],
    ][];
    for (const [name, list] of lists) {
      lines.push(`bill problem ${name}:`);
      for (const p of list.slice(0, 5)) lines.push(`  bill ${p.reference} (${p.script}, ${p.billId}): ${p.why}`);
    }
    if (lists.length) lines.push('');
  }
  // Payments over the time bound, with what they went through: CI keeps no JSON report either.
  const overBound = (r.details.overBound ?? []) as TimedPayment[];
  if (overBound.length) {
    lines.push(`payments over the time bound (${String(r.details.overBoundCount)}; the first ${overBound.length}):`);
    for (const p of overBound.slice(0, 5)) {
      lines.push(
        `  payment ${p.id} created ${p.createdAt?.slice(11, 23) ?? '?'}: ${round(p.netTimeToFinalMs / 1000)} s net (${round(p.timeToFinalMs / 1000)} s), faults overlapped: ${p.faultsOverlapped.join(', ') || 'none'}, cashier: ${p.cashierAction ?? '?'}`,
      );
      for (const h of p.history) lines.push(`    ${h}`);
    }
    lines.push('');
  }
  if (r.nondeterminism.first) lines.push(`first nondeterminism line: ${r.nondeterminism.first}`, '');
  lines.push(r.ok ? 'every target met' : 'TARGETS MISSED: see the details in the JSON report (--out)');
  return lines.join('\n');
}
