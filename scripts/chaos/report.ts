import type { Findings } from './analysis';
import type { LoadStats } from './cashiers';
import type { FaultRecord } from './faults';

/** The chaos run's report: the targets of issue 6 as a table, and the same figures as JSON. */
export interface Target {
  name: string;
  value: number | null;
  target: string;
  ok: boolean;
}

export interface ChaosReport {
  database: string;
  temporal: string;
  short: boolean;
  startedAt: string;
  durationSeconds: number;
  cashiers: number;
  settings: Record<string, string>;
  boundSeconds: number;
  faults: (Omit<FaultRecord, 'startedAt' | 'endedAt'> & { startedAt: string; durationMs: number })[];
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
  targets: Target[];
  ok: boolean;
  details: Record<string, unknown>;
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
  ];
  return {
    database: args.database,
    temporal: args.temporal,
    short: args.short,
    startedAt: new Date(args.startedAt).toISOString(),
    durationSeconds: round((Date.now() - args.startedAt) / 1000),
    cashiers: args.cashiers,
    settings: args.settings,
    boundSeconds: round(args.boundMs / 1000),
    faults: args.faults.map(({ startedAt, endedAt, ...rest }) => ({ ...rest, startedAt: new Date(startedAt).toISOString(), durationMs: endedAt - startedAt })),
    load: args.load,
    payments: { created: f.created, acknowledgedByStatus: f.acknowledgedByStatus, finalByStatus: f.finalByStatus },
    paymentsLost: f.lost.length,
    doubleCaptures: f.doubleCaptures.length,
    longestTimeToFinalMs: f.longest?.netTimeToFinalMs ?? null,
    longestTimeToFinalRawMs: f.longestRaw?.timeToFinalMs ?? null,
    eventsUndelivered: f.undelivered.length,
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

export function formatReport(r: ChaosReport): string {
  const lines: string[] = [];
  lines.push(
    `chaos report: ${r.database} database, Temporal ${r.temporal === 'server' ? 'server' : 'dev server'}, ${r.short ? 'short' : 'full'} run, ${r.cashiers} cashiers, ${r.durationSeconds} s`,
  );
  lines.push('');
  lines.push(
    table([
      ['fault', 'start', 'took (s)', 'window (s)', 'result'],
      ...r.faults.map((f) => [
        f.kind,
        f.startedAt.slice(11, 19),
        String(round(f.durationMs / 1000)),
        f.blocking ? String(round((f.durationMs + f.recoveryMs) / 1000)) : '-',
        f.skipped ?? f.detail ?? '',
      ]),
    ]),
  );
  lines.push('');
  const byStatus = (m: Record<string, number>) =>
    Object.entries(m)
      .sort()
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
  lines.push(`payments created (201): ${r.payments.created} (at creation: ${byStatus(r.payments.acknowledgedByStatus)})`);
  lines.push(`final statuses: ${byStatus(r.payments.finalByStatus)}`);
  lines.push(`create requests: ${r.load.createRequests} (answers: ${byStatus(r.load.createAnswers)}; given up: ${r.load.createsGivenUp})`);
  lines.push(`longest time to a final state including fault windows: ${r.longestTimeToFinalRawMs === null ? '-' : round(r.longestTimeToFinalRawMs / 1000)} s`);
  lines.push(`events received: ${r.details.eventsReceived} distinct, ${r.details.deliveries} deliveries`);
  lines.push('');
  lines.push(
    table([['target', 'value', 'target', ''], ...r.targets.map((t) => [t.name, t.value === null ? '-' : String(t.value), t.target, t.ok ? 'ok' : 'MISSED'])]),
  );
  lines.push('');
  lines.push(r.ok ? 'every target met' : 'TARGETS MISSED: see the details in the JSON report (--out)');
  return lines.join('\n');
}
