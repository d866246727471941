/**
 * `npm run bench -- --seconds S --cashiers N --database embedded|postgresql --out FILE`
 *
 * Starts its own stack (`src/main.ts`, as `npm start` does), then, in one run on the same Temporal
 * server: the sandbox's own send-bill latency; an empty update-with-start (latency and closed-loop
 * throughput at the same concurrency); the same-shape floor (a payment's Temporal shape with nothing
 * in it, bench/sameShapeLoad.ts: throughput and its worker's CPU per lifecycle); N concurrent cashiers, each creating a payment, letting the
 * customer pay in the sandbox and polling sync-status until CAPTURED, for about S seconds; the
 * Temporal work of those lifecycles counted from the server's histories; and an open-loop phase at
 * a fixed arrival rate with nobody polling. Prints a table and writes the figures (docs/benchmark.md)
 * as JSON. A figure that cannot be measured is null, never made up.
 *
 * Options: --poll-ms (100), --rate R (open-loop arrivals per second; default half the closed-loop
 * throughput), --open-seconds (min(S, 20)), --empty-seconds (min(S, 10)), --void-window-minutes
 * (0.1, so lifecycles end within the run and are counted whole), --cpu-prof DIR (V8 CPU profiles
 * of the service's processes, summarised into DIR/summary.md), --hold N (only the memory mode:
 * N payments captured and left open inside their void window, then the service's RSS; with
 * --hold-rows M, M more open payments started from rows as the sweep restarts a workflow).
 * With `--database postgresql` and no DATABASE_URL it runs itself under scripts/with-postgres.sh.
 *
 * The sandbox acquirer runs in a process of its own (its CPU is the acquirer's, not ours).
 * `--layout combined` (default): the API and the worker in one process; `--layout split`: each in
 * its own; CPU is reported per role (bench/layout.ts, bench/processCpu.ts).
 *
 * `--temporal server` (PostgreSQL implied): the production shape instead of the dev server: the
 * Temporal server on PostgreSQL (`npm run temporal-server`), an API process and two worker processes.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { request } from '../support/http';
import type { RunningStack } from '../support/serviceStack';
import { startBenchStack, type BenchStack, type Layout } from './layout';
import { prepareServiceCode, type ServiceCode } from './build';
import { openShop, type Shop, type Till } from '../support/shop';
import { measureEmptyUpdateWithStart } from './emptyLoad';
import { measureSameShape } from './sameShapeLoad';
import { holdOpenPayments } from './hold';
import { holdRows } from './holdRows';
import { monotonicUs, summarise } from './profileSummary';
import { round, summary } from './stats';
import { dbCounters, perLifecycle } from './dbWork';
import { cpuByRole, cpuPerLifecycle } from './processCpu';
import { arg } from './args';
import { startStatementTrace } from './statementTrace';
import { countTemporalWork } from './temporalWork';
import { readSandboxCalls, sandboxCounting, sandboxPerLifecycle } from './sandboxCalls';
import { LoopbackReceiver } from '../support/loopbackReceiver';

const ROOT = path.resolve(__dirname, '..');

const seconds = Number(arg('seconds', '30'));
const cashiers = Number(arg('cashiers', '20'));
const temporal = arg('temporal', 'dev') as 'dev' | 'server';
if (temporal !== 'dev' && temporal !== 'server') throw new Error('--temporal: dev or server');
const database = (temporal === 'server' ? 'postgresql' : arg('database', 'embedded')) as 'embedded' | 'postgresql';
const out = arg(
  'out',
  path.join(
    ROOT,
    'bench',
    'results',
    `bench-${database}${temporal === 'server' ? '-temporal-server' : ''}${arg('layout', 'combined') === 'split' ? '-split' : ''}.json`,
  ),
);
const WORKER_PROCESSES = 2;
const layout = arg('layout', 'combined') as Layout;
if (layout !== 'combined' && layout !== 'split') throw new Error('--layout: combined or split');
const pollMs = Number(arg('poll-ms', '100'));
const openSeconds = Number(arg('open-seconds', String(Math.min(seconds, 20))));
const emptySeconds = Number(arg('empty-seconds', String(Math.min(seconds, 10))));
const hold = Number(arg('hold', '0'));
const holdRowCount = Number(arg('hold-rows', '0'));
const voidWindowMinutes = arg('void-window-minutes', hold ? '60' : '0.1');
const traceStatements = arg('trace-statements', '') ? path.resolve(arg('trace-statements', '')) : '';
const cpuProfDir = arg('cpu-prof', '') ? path.resolve(arg('cpu-prof', '')) : '';
const TASK_QUEUE = 'in-store-payments';
// Every service process counts its calls into the workflow sandbox (bench/sandboxCounter.ts).
const counting = sandboxCounting('service');

if (database === 'postgresql' && !process.env.DATABASE_URL) {
  const res = spawnSync(path.join(ROOT, 'scripts', 'with-postgres.sh'), [process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
  });
  process.exit(res.status ?? 1);
}

let loadAverageAtStart: number[] = [];
let serviceCode: ServiceCode = 'build';
const epochNow = (): number => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The service process environment, whatever the layout. */
function serviceEnv(): Record<string, string> {
  return {
    LOG_LEVEL: 'warn',
    WEBHOOK_ALLOW_INSECURE: 'true',
    TEMPORAL_ADDRESS: '',
    // the bench measures the service, not the limiter
    RATE_LIMIT_PER_SECOND: '100000',
    RATE_LIMIT_BURST: '100000',
    VOID_WINDOW_MINUTES: voidWindowMinutes,
    // Processes with folders of their own (the layouts): one key for all of them.
    SECRETS_KEY: randomBytes(32).toString('hex'),
    ...counting.env,
    ...(database === 'postgresql' ? {} : { DATABASE_URL: '' }),
  };
}

function startBench(code: ServiceCode): Promise<BenchStack> {
  if (cpuProfDir) fs.mkdirSync(cpuProfDir, { recursive: true });
  return startBenchStack({
    sources: code === 'sources',
    temporal,
    layout,
    database,
    env: serviceEnv(),
    nodeArgs: [...(cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] : []), ...counting.nodeArgs],
    workerProcesses: WORKER_PROCESSES,
  });
}

/** A loopback webhook receiver: arrival time per pspReference of PAYMENT_CAPTURED, and waiters for one. */
async function startReceiver() {
  const arrivals = new Map<string, number>();
  const waiters = new Map<string, () => void>();
  const receiver = new LoopbackReceiver(({ rawBody }) => {
    const at = performance.now();
    try {
      const event = JSON.parse(rawBody.toString());
      const psp = event.data?.pspReference;
      if (event.eventType === 'PAYMENT_CAPTURED' && !arrivals.has(psp)) {
        arrivals.set(psp, at);
        waiters.get(psp)?.();
      }
    } catch {
      // not an event of ours: answered all the same
    }
    return 204;
  });
  await receiver.start();
  const captured = (psp: string, timeoutMs: number): Promise<boolean> =>
    arrivals.has(psp)
      ? Promise.resolve(true)
      : new Promise((resolve) => {
          const timer = setTimeout(() => {
            waiters.delete(psp);
            resolve(false);
          }, timeoutMs);
          waiters.set(psp, () => {
            clearTimeout(timer);
            waiters.delete(psp);
            resolve(true);
          });
        });
  return { url: receiver.url, arrivals, captured, close: () => receiver.stop() };
}
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

async function runConcurrently(workers: number, until: () => boolean, task: (worker: number) => Promise<void>): Promise<void> {
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      while (!until()) await task(w);
    }),
  );
}

/** The acquirer's own latency for one send-bill, measured straight at the sandbox. */
async function measureSandbox(stack: RunningStack, count: number): Promise<number[]> {
  const sample: number[] = [];
  let n = 0;
  await runConcurrently(
    cashiers,
    () => n >= count,
    async (w) => {
      const i = n++;
      const device = `bench-direct-${w}-${i}`;
      const t0 = performance.now();
      const res = await request('POST', `${stack.sandboxUrl}/acquirer/v1/devices/${device}/bills`, {
        body: {
          paymentId: crypto.randomUUID(),
          pspReference: `BENCH${i}`,
          amount: '1.00',
          currency: 'EUR',
          reference: `direct-${i}`,
          modes: ['CARD'],
          timeoutSeconds: 60,
        },
      });
      sample.push(performance.now() - t0);
      if (res.status === 201) await request('POST', `${stack.sandboxUrl}/acquirer/v1/devices/${device}/bills/${res.body.acquirerRef}/withdraw`);
    },
  );
  return sample;
}

/** One create request: its latency, and when and on which device it ran (for the acquirer time inside it). */
interface CreateRecord {
  deviceId: string;
  startedAt: number;
  endedAt: number;
  latencyMs: number;
}

let seq = 0;
async function createPayment(stack: RunningStack, shop: Shop, till: Till, records: CreateRecord[]) {
  const startedAt = epochNow();
  const t0 = performance.now();
  const created = await request('POST', `${stack.apiUrl}/api/in-store/payments`, {
    key: shop.key,
    body: {
      merchantExternalId: shop.merchantExternalId,
      storeExternalId: shop.storeExternalId,
      terminalExternalId: till.terminalExternalId,
      amount: 12.5,
      currency: 'EUR',
      reference: `bench-${seq++}`,
      requestedModes: ['CARD'],
    },
  });
  const latencyMs = performance.now() - t0;
  records.push({ deviceId: till.deviceId, startedAt, endedAt: epochNow(), latencyMs });
  if (created.status !== 201 || created.body.status !== 'AWAITING_TERMINAL') throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body as { id: string; pspReference: string };
}

async function pay(stack: RunningStack, till: Till): Promise<void> {
  const res = await request('POST', `${stack.sandboxUrl}/sim/devices/${till.deviceId}/customer`, { body: { action: 'pay' } });
  if (res.status !== 200) throw new Error(`pay: ${res.status}`);
}

/** Per request: its latency minus the sandbox's own time on the calls made on its device while it ran. */
async function overheads(stack: RunningStack, records: CreateRecord[], since: number): Promise<number[] | null> {
  const res = await request('GET', `${stack.sandboxUrl}/sim/acquirer-calls?since=${Math.floor(since)}`);
  if (res.status !== 200 || !Array.isArray(res.body?.calls)) return null;
  const byDevice = new Map<string, { startedAt: number; durationMs: number }[]>();
  for (const c of res.body.calls) (byDevice.get(c.deviceId) ?? byDevice.set(c.deviceId, []).get(c.deviceId)!).push(c);
  return records.map((r) => {
    const inside = (byDevice.get(r.deviceId) ?? []).filter((c) => c.startedAt >= r.startedAt && c.startedAt <= r.endedAt);
    return r.latencyMs - inside.reduce((s, c) => s + c.durationMs, 0);
  });
}

/** Closed loop: each cashier creates, lets the customer pay and polls sync-status until CAPTURED. */
async function closedLoop(stack: RunningStack, shop: Shop, receiver: Receiver) {
  const records: CreateRecord[] = [];
  const paidAt = new Map<string, number>();
  let lifecycles = 0;
  let errors = 0;
  const startedEpoch = epochNow();
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await runConcurrently(
    cashiers,
    () => performance.now() >= deadline,
    async (w) => {
      const till = shop.tills[w]!;
      try {
        const created = await createPayment(stack, shop, till, records);
        await pay(stack, till);
        paidAt.set(created.pspReference, performance.now());
        for (;;) {
          const synced = await request('POST', `${stack.apiUrl}/api/in-store/payments/${created.id}/sync-status`, { key: shop.key });
          if (synced.body?.status === 'CAPTURED') break;
          if (synced.status !== 200) throw new Error(`sync: ${synced.status} ${JSON.stringify(synced.body)}`);
          await sleep(pollMs);
        }
        lifecycles++;
      } catch (err) {
        errors++;
        if (errors <= 5) console.error(String(err));
        await sleep(200);
      }
    },
  );
  const elapsed = (performance.now() - started) / 1000;
  const endedEpoch = epochNow();
  await sleep(3000); // let the last deliveries land
  const toWebhook: number[] = [];
  for (const [psp, at] of paidAt) {
    const arrived = receiver.arrivals.get(psp);
    if (arrived !== undefined) toWebhook.push(arrived - at);
  }
  return { records, lifecycles, errors, elapsed, toWebhook, startedEpoch, endedEpoch };
}

/**
 * Open loop: arrivals at a fixed rate, whatever the service's answers; each takes a free till,
 * creates, lets the customer pay, and waits (nobody polling) for PAYMENT_CAPTURED at the receiver.
 */
async function openLoop(stack: RunningStack, shop: Shop, receiver: Receiver, rate: number) {
  const free = [...shop.tills];
  const records: CreateRecord[] = [];
  const toWebhook: number[] = [];
  let lifecycles = 0;
  let errors = 0;
  let noFreeTill = 0;
  const running: Promise<void>[] = [];
  const started = performance.now();
  const arrivals = Math.floor(rate * openSeconds);
  for (let i = 0; i < arrivals; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const till = free.pop();
    if (!till) {
      noFreeTill++;
      continue;
    }
    running.push(
      (async () => {
        try {
          const created = await createPayment(stack, shop, till, records);
          await pay(stack, till);
          const paidAt = performance.now();
          if (!(await receiver.captured(created.pspReference, 30_000))) throw new Error(`no PAYMENT_CAPTURED within 30 s for ${created.pspReference}`);
          toWebhook.push(receiver.arrivals.get(created.pspReference)! - paidAt);
          lifecycles++;
        } catch (err) {
          errors++;
          if (errors <= 5) console.error(`open loop: ${String(err)}`);
          await sleep(1000); // whatever was on the device is decided or withdrawn by then, mostly
        } finally {
          free.unshift(till);
        }
      })(),
    );
  }
  await Promise.all(running);
  return { records, toWebhook, lifecycles, errors, noFreeTill, arrivals };
}

async function temporalWork(stack: RunningStack, since: number, until: number) {
  const connection = await Connection.connect({ address: stack.temporalAddress });
  try {
    const client = new Client({ connection });
    // Lifecycles end with their void window: wait for those of the window to close (bounded).
    const windowMs = Number(voidWindowMinutes) * 60_000;
    if (windowMs <= 120_000) {
      const query = `WorkflowType = 'paymentWorkflow' AND ExecutionStatus = 'Running' AND StartTime < '${new Date(until).toISOString()}'`;
      const stopAt = Date.now() + windowMs + 60_000;
      while (Date.now() < stopAt && (await client.workflow.count(query)).count > 0) await sleep(1000);
    }
    return await countTemporalWork(client, TASK_QUEUE, since, until);
  } finally {
    await connection.close();
  }
}

/** The profiles of the service's threads, summarised over the closed loop (timed back from the process's exit). */
function profileSummary(loop: { fromUs: number; toUs: number } | undefined): string | null {
  if (!cpuProfDir) return null;
  const files = fs
    .readdirSync(cpuProfDir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => path.join(cpuProfDir, f));
  if (files.length === 0) return null;
  const window = loop ? { ...loop, label: 'closed loop only' } : undefined;
  const text = files.map((f) => summarise(f, window)).join('\n');
  fs.writeFileSync(path.join(cpuProfDir, 'summary.md'), text);
  return path.join(cpuProfDir, 'summary.md');
}

const pair = (s: ReturnType<typeof summary> | null) => (s ? { p50: s.p50, p99: s.p99 } : null);
const sampled = (xs: number[] | null) => (xs && xs.length ? summary(xs) : null);
const ratio = (a: number | null | undefined, b: number | null | undefined) => (a == null || b == null || b === 0 ? null : round(a / b));
/** The service's own CPU per lifecycle: every role but the Temporal server, the database and the sandbox (the acquirer). */
const serviceCpu = (byRole: Record<string, number> | null): number | null =>
  byRole ? round(Object.entries(byRole).reduce((sum, [role, ms]) => (['temporal', 'database', 'sandbox'].includes(role) ? sum : sum + ms), 0)) : null;

function printTable(r: Record<string, any>): void {
  if (r.hold) {
    const { curve, ...figures } = r.hold;
    console.table(figures);
    console.table(curve);
    return;
  }
  console.table({
    'create latency (ms)': { p50: r.createLatencyMs.p50, p99: r.createLatencyMs.p99 },
    'sandbox latency (ms)': r.sandboxLatencyMs,
    'create overhead, per request (ms)': r.createOverheadMs ?? {},
    'empty update-with-start (ms)': r.emptyUpdateWithStartMs,
    'create / empty': r.createToEmptyRatio,
    'customer to webhook, polling (ms)': r.customerToWebhookMs ?? {},
    [`open loop ${r.openLoop.ratePerSecond}/s create (ms)`]: r.openLoop.createLatencyMs ?? {},
    'open loop customer to webhook, nobody polling (ms)': r.openLoop.customerToWebhookMs ?? {},
  });
  const w = r.temporalWorkPerLifecycle;
  const trips = (t: Record<string, any> | null | undefined): string =>
    t ? `${t.activations} activations, ${t.localActivities} local activities, ${t.calls} calls (${JSON.stringify(t.callsByFunction)})` : 'not counted';
  console.log(
    `trips into the workflow sandbox per lifecycle, open loop: ${trips(r.sandboxPerLifecycle)}; same-shape floor: ${trips(r.sameShape.sandboxPerLifecycle)}`,
  );
  console.log(
    `same-shape floor (the payment's Temporal shape, nothing in it): ${r.sameShape.lifecyclesPerSecond}/s, its worker ${r.sameShape.workerCpuMsPerLifecycle} CPU ms per lifecycle; ours / floor: lifecycles ${r.sameShapeRatios.lifecycles}, service CPU (open loop) ${r.sameShapeRatios.cpu}`,
  );
  console.log(
    `${r.database}, Temporal ${r.temporal}: ${r.lifecycles} lifecycles = ${r.lifecyclesPerSecond}/s with ${r.cashiers} cashiers, ${r.errors} errors; empty update-with-start ${r.emptyUpdateWithStartPerSecond}/s (ratio ${r.lifecycleToEmptyRatio})`,
  );
  if (w)
    console.log(
      `per lifecycle (from the server's histories, ${w.lifecyclesCounted} counted): ${w.workflowStarts} workflow starts, ${w.workflowTasks} workflow tasks, ${w.activityTasks} activity tasks, ${w.localActivities} local activities, ${w.historyEvents} history events`,
    );
  if (r.databasePerLifecycle)
    console.log(
      `database per lifecycle (pg_stat_database): ${Object.entries(r.databasePerLifecycle)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
  if (r.cpuMsPerLifecycle)
    console.log(
      `CPU ms per lifecycle (closed loop, from /proc): ${Object.entries(r.cpuMsPerLifecycle)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
  const o = r.openLoop.perLifecycle;
  if (o.temporalWork)
    console.log(
      `open loop per lifecycle: ${o.temporalWork.workflowStarts} workflow starts, ${o.temporalWork.workflowTasks} workflow tasks, ${o.temporalWork.activityTasks} activity tasks, ${o.temporalWork.localActivities} local activities, ${o.temporalWork.historyEvents} history events`,
    );
  if (o.database)
    console.log(
      `open loop database per lifecycle: ${Object.entries(o.database)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
  if (o.cpuMs)
    console.log(
      `open loop CPU ms per lifecycle: ${Object.entries(o.cpuMs)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
  console.log(
    `open loop: ${r.openLoop.lifecycles} of ${r.openLoop.arrivals} arrivals, ${r.openLoop.errors} errors, ${r.openLoop.noFreeTill} without a free till`,
  );
}

async function main(): Promise<void> {
  loadAverageAtStart = os.loadavg().map(round);
  console.log(`load average at start: ${loadAverageAtStart.join(', ')}`);
  serviceCode = prepareServiceCode(Boolean(cpuProfDir));
  const stack = await startBench(serviceCode);
  console.log(
    `service ready (${stack.shape}; running ${serviceCode === 'build' ? 'the build, as npm start does' : 'the sources through tsx, for the profile'}); its log: ${stack.logFile}`,
  );
  const receiver = await startReceiver();
  let result: Record<string, unknown>;
  let loop: { fromUs: number; toUs: number } | undefined;
  try {
    const tills = cashiers;
    const shop = await openShop({ name: 'bench', databaseUrl: stack.databaseUrl, apiUrl: stack.apiUrl, tills, receiverUrl: receiver.url });
    if (hold) {
      result = {
        database,
        cashiers,
        hold: await holdOpenPayments({
          stack,
          shop,
          count: hold,
          cashiers,
          create: (till) => createPayment(stack, shop, till, []),
          pay: (till) => pay(stack, till),
          captured: receiver.captured,
          ...(holdRowCount ? { more: () => holdRows({ stack, shop, count: holdRowCount, voidWindowMinutes, log: (l) => console.log(l) }) } : {}),
        }),
      };
    } else {
      const sandboxSample = await measureSandbox(stack, 400);
      const empty = await measureEmptyUpdateWithStart(stack.temporalAddress, cashiers, emptySeconds);
      const floor = await measureSameShape(stack.temporalAddress, cashiers, emptySeconds);
      const dbBefore = await dbCounters(stack.databaseUrl);
      const cpuBefore = cpuByRole(stack.roles, stack.outsideRoots);
      const loopFromUs = monotonicUs();
      const closed = await closedLoop(stack, shop, receiver);
      loop = { fromUs: loopFromUs, toUs: monotonicUs() };
      const cpuMs = cpuPerLifecycle(cpuBefore, cpuByRole(stack.roles, stack.outsideRoots), closed.lifecycles);
      await sleep(1500); // statistics reach pg_stat_database at most once a second
      const db = perLifecycle(dbBefore, await dbCounters(stack.databaseUrl), closed.lifecycles);
      const createOverhead = await overheads(stack, closed.records, closed.startedEpoch);
      const work = await temporalWork(stack, closed.startedEpoch, closed.endedEpoch);
      const lifecyclesPerSecond = round(closed.lifecycles / closed.elapsed);
      const rate = Number(arg('rate', String(Math.max(1, round(lifecyclesPerSecond / 2)))));
      const openShopTills = await openShop({ name: 'bench-open', databaseUrl: stack.databaseUrl, apiUrl: stack.apiUrl, tills: 40, receiverUrl: receiver.url });
      // The same counts over the open loop, where nobody polls: they depend on nothing but the lifecycle.
      const trace = traceStatements && database === 'postgresql' ? await startStatementTrace(stack.databaseUrl) : undefined;
      const sandboxBefore = await readSandboxCalls(counting.prefix);
      const openDbBefore = await dbCounters(stack.databaseUrl);
      const openCpuBefore = cpuByRole(stack.roles, stack.outsideRoots);
      const openFrom = epochNow();
      const open = await openLoop(stack, openShopTills, receiver, rate);
      const openTo = epochNow();
      const openCpu = cpuPerLifecycle(openCpuBefore, cpuByRole(stack.roles, stack.outsideRoots), open.lifecycles);
      await sleep(1500);
      const openDb = perLifecycle(openDbBefore, await dbCounters(stack.databaseUrl), open.lifecycles);
      if (trace) fs.writeFileSync(traceStatements, await trace.stop(open.lifecycles));
      const openWork = await temporalWork(stack, openFrom, openTo);
      // Read once the open loop's runs have ended (temporalWork waits for them): every trip of theirs is in.
      const sandbox = sandboxPerLifecycle(sandboxBefore, await readSandboxCalls(counting.prefix), open.lifecycles, openWork?.localActivities ?? null);

      const create = summary(closed.records.map((r) => r.latencyMs));
      const sandboxLatency = summary(sandboxSample);
      const emptyLatency = summary(empty.latencies);
      result = {
        database,
        temporal,
        layout,
        shape: stack.shape,
        cashiers,
        seconds,
        lifecycles: closed.lifecycles,
        lifecyclesPerSecond,
        createLatencyMs: create,
        sandboxLatencyMs: pair(sandboxLatency),
        createOverheadMs: pair(sampled(createOverhead)),
        emptyUpdateWithStartMs: pair(emptyLatency),
        customerToWebhookMs: pair(sampled(closed.toWebhook)),
        errors: closed.errors,
        emptyUpdateWithStartPerSecond: empty.perSecond,
        createToEmptyRatio: { p50: ratio(create.p50, emptyLatency.p50), p99: ratio(create.p99, emptyLatency.p99) },
        lifecycleToEmptyRatio: ratio(lifecyclesPerSecond, empty.perSecond),
        sameShape: {
          lifecyclesPerSecond: floor.lifecyclesPerSecond,
          workerCpuMsPerLifecycle: floor.workerCpuMsPerLifecycle,
          errors: floor.errors,
          sandboxPerLifecycle: floor.sandboxPerLifecycle,
        },
        sameShapeRatios: { lifecycles: ratio(lifecyclesPerSecond, floor.lifecyclesPerSecond), cpu: ratio(serviceCpu(openCpu), floor.workerCpuMsPerLifecycle) },
        // Trips into the workflow sandbox over the open loop (nobody polling): they depend on nothing but the lifecycle.
        sandboxPerLifecycle: sandbox,
        temporalWorkPerLifecycle: work,
        cpuMsPerLifecycle: cpuMs,
        databasePerLifecycle: db,
        openLoop: {
          ratePerSecond: rate,
          seconds: openSeconds,
          arrivals: open.arrivals,
          lifecycles: open.lifecycles,
          errors: open.errors,
          noFreeTill: open.noFreeTill,
          createLatencyMs: pair(sampled(open.records.map((r) => r.latencyMs))),
          customerToWebhookMs: pair(sampled(open.toWebhook)),
          perLifecycle: { temporalWork: openWork, database: openDb, cpuMs: openCpu },
        },
        webhooksDelivered: closed.toWebhook.length,
        voidWindowMinutes: Number(voidWindowMinutes),
        machine: { cpus: os.cpus().length, loadAverageAtStart, loadAverage: os.loadavg().map(round) },
        serviceCode,
      };
    }
  } finally {
    await receiver.close();
    await stack.stop();
  }
  const profile = profileSummary(loop);
  if (profile) result.cpuProfileSummary = profile;
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  printTable(result);
  console.log(`load average at start ${loadAverageAtStart.join(', ')}, at the end ${os.loadavg().map(round).join(', ')}`);
  console.log(`written to ${out}${profile ? `; CPU profile summary in ${profile}` : ''}`);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
