/**
 * The trips into the workflow sandbox per lifecycle (docs/benchmark.md, "Trips into the sandbox"),
 * from the counts bench/sandboxCounter.ts writes in the worker processes: the node arguments that
 * load it, a reading of the counts, and the difference of two readings per lifecycle.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { round } from './stats';
import { compiled } from './compiled';

type Counts = Record<string, Record<string, number>>;

/** A fresh file prefix, and the node arguments and environment that make a process count into it. */
export function sandboxCounting(name: string): { prefix: string; nodeArgs: string[]; env: Record<string, string> } {
  const prefix = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'isp-sandbox-calls-')), name);
  // Compiled, so it loads in the main thread and in the workflow thread alike without tsx (whose
  // source maps would cost every process it counts: bench/build.ts).
  return {
    prefix,
    nodeArgs: ['--import', pathToFileURL(compiled(path.join(__dirname, 'sandboxCounter.ts'))).href],
    env: { SANDBOX_CALLS_FILE: prefix },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The counts of every process and thread so far (after the writers' next flush). */
export async function readSandboxCalls(prefix: string): Promise<Counts> {
  await sleep(500);
  const dir = path.dirname(prefix);
  const total: Counts = {};
  for (const f of fs.readdirSync(dir)) {
    if (!f.startsWith(`${path.basename(prefix)}.`) || !f.endsWith('.json')) continue;
    const counts = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Counts;
    for (const [type, byFn] of Object.entries(counts)) for (const [fn, n] of Object.entries(byFn)) (total[type] ??= {})[fn] = (total[type]![fn] ?? 0) + n;
  }
  return total;
}

export interface SandboxPerLifecycle {
  /** Activations (each concludes exactly once), the lifecycle's workflows. */
  activations: number;
  /** Local activities, from the server's histories (bench/temporalWork.ts). */
  localActivities: number | null;
  /** Every call into the sandbox, the lifecycle's workflows. */
  calls: number;
  /** The calls by the SDK function called, the lifecycle's workflows. */
  callsByFunction: Record<string, number>;
  /** Activations and calls per lifecycle of each workflow type (the payment's own, the deliveries it starts, the background's). */
  byWorkflowType: Record<string, { activations: number; calls: number }>;
}

/** Workflows the Schedules start whatever the lifecycles do (sweep, settlement, compliance): shown by type, not counted. */
const BACKGROUND = /sweep|settlement|compliance/i;

/** What happened between two readings, per lifecycle: the workflows a lifecycle runs (its payment, its deliveries). */
export function sandboxPerLifecycle(before: Counts, after: Counts, lifecycles: number, localActivities: number | null): SandboxPerLifecycle | null {
  if (lifecycles === 0) return null;
  const byFunction: Record<string, number> = {};
  const byWorkflowType: Record<string, { activations: number; calls: number }> = {};
  for (const [type, byFn] of Object.entries(after)) {
    let calls = 0;
    for (const [fn, n] of Object.entries(byFn)) {
      const d = n - (before[type]?.[fn] ?? 0);
      if (!BACKGROUND.test(type)) byFunction[fn] = (byFunction[fn] ?? 0) + d;
      calls += d;
    }
    const activations = (byFn.concludeActivation ?? 0) - (before[type]?.concludeActivation ?? 0);
    if (calls > 0) byWorkflowType[type] = { activations: round(activations / lifecycles), calls: round(calls / lifecycles) };
  }
  const calls = Object.values(byFunction).reduce((s, n) => s + n, 0);
  return {
    activations: round((byFunction.concludeActivation ?? 0) / lifecycles),
    localActivities,
    calls: round(calls / lifecycles),
    callsByFunction: Object.fromEntries(Object.entries(byFunction).map(([fn, n]) => [fn, round(n / lifecycles)])),
    byWorkflowType,
  };
}
