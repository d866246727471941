/**
 * `npm run bench -- --seconds S --cashiers N --database embedded|postgresql --out FILE`
 *
 * Starts its own stack (`src/main.ts`, as `npm start` does), then N concurrent cashiers each
 * create a payment, let the customer pay in the sandbox and poll sync-status until CAPTURED, for
 * about S seconds. Prints a table and writes the figures of contracts 5 as JSON. A figure that
 * cannot be measured is null, never made up. With `--database postgresql` and no DATABASE_URL,
 * it runs itself under scripts/with-postgres.sh (a throw-away PostgreSQL).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection, WithStartWorkflowOperation } from '@temporalio/client';
import { Worker, NativeConnection } from '@temporalio/worker';
import { request } from '../support/http';
import { startStack, type RunningStack } from '../support/serviceStack';
import { openShop } from '../support/shop';
import { ping } from './emptyWorkflow';
import { round, summary } from './stats';
import { LoopbackReceiver } from '../support/loopbackReceiver';

const ROOT = path.resolve(__dirname, '..');

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

const seconds = Number(arg('seconds', '30'));
const cashiers = Number(arg('cashiers', '20'));
const database = arg('database', 'embedded') as 'embedded' | 'postgresql';
const out = arg('out', path.join(ROOT, 'bench', 'results', `bench-${database}.json`));
const pollMs = Number(arg('poll-ms', '100'));

if (database === 'postgresql' && !process.env.DATABASE_URL) {
  const res = spawnSync(path.join(ROOT, 'scripts', 'with-postgres.sh'), [process.execPath, ...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit' });
  process.exit(res.status ?? 1);
}

/** The whole service as `npm start` runs it, on free ports and a throw-away DATA_DIR. */
function startBenchStack(): Promise<RunningStack> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'isp-bench-'));
  const env = {
    LOG_LEVEL: 'warn', WEBHOOK_ALLOW_INSECURE: 'true', TEMPORAL_ADDRESS: '',
    // the bench measures the service, not the limiter
    RATE_LIMIT_PER_SECOND: '100000', RATE_LIMIT_BURST: '100000',
    ...(database === 'postgresql' ? {} : { DATABASE_URL: '' }),
  };
  return startStack({ root: ROOT, dataDir, env, readyTimeoutMs: 300_000 });
}

/** A loopback webhook receiver: arrival time per pspReference of PAYMENT_CAPTURED. */
async function startReceiver(): Promise<{ url: string; arrivals: Map<string, number>; close(): Promise<void> }> {
  const arrivals = new Map<string, number>();
  const receiver = new LoopbackReceiver(({ rawBody }) => {
    const at = performance.now();
    try {
      const event = JSON.parse(rawBody.toString());
      if (event.eventType === 'PAYMENT_CAPTURED' && !arrivals.has(event.data.pspReference)) arrivals.set(event.data.pspReference, at);
    } catch {
      // not an event of ours: answered all the same
    }
    return 204;
  });
  await receiver.start();
  return { url: receiver.url, arrivals, close: () => receiver.stop() };
}

async function runConcurrently(workers: number, until: () => boolean, task: (worker: number) => Promise<void>): Promise<void> {
  await Promise.all(Array.from({ length: workers }, async (_, w) => { while (!until()) await task(w); }));
}

/** The acquirer's own latency for one send-bill, measured straight at the sandbox. */
async function measureSandbox(stack: RunningStack, count: number): Promise<number[]> {
  const sample: number[] = [];
  let n = 0;
  await runConcurrently(cashiers, () => n >= count, async (w) => {
    const i = n++;
    const device = `bench-direct-${w}-${i}`;
    const t0 = performance.now();
    const res = await request('POST', `${stack.sandboxUrl}/acquirer/v1/devices/${device}/bills`, {
      body: { paymentId: crypto.randomUUID(), pspReference: `BENCH${i}`, amount: '1.00', currency: 'EUR', reference: `direct-${i}`, modes: ['CARD'], timeoutSeconds: 60 },
    });
    sample.push(performance.now() - t0);
    if (res.status === 201) await request('POST', `${stack.sandboxUrl}/acquirer/v1/devices/${device}/bills/${res.body.acquirerRef}/withdraw`);
  });
  return sample;
}

/** Update-with-start of a workflow that does nothing, on the same Temporal server. */
async function measureEmptyUpdateWithStart(stack: RunningStack, count: number): Promise<number[]> {
  const taskQueue = `bench-empty-${Date.now()}`;
  const nativeConnection = await NativeConnection.connect({ address: stack.temporalAddress });
  const worker = await Worker.create({ connection: nativeConnection, taskQueue, workflowsPath: require.resolve('./emptyWorkflow') });
  const running = worker.run();
  const connection = await Connection.connect({ address: stack.temporalAddress });
  const client = new Client({ connection });
  const sample: number[] = [];
  let n = 0;
  await runConcurrently(cashiers, () => n >= count, async () => {
    const i = n++;
    const op = new WithStartWorkflowOperation('emptyWorkflow', { workflowId: `bench-empty-${taskQueue}-${i}`, taskQueue, workflowIdConflictPolicy: 'USE_EXISTING' });
    const t0 = performance.now();
    await client.workflow.executeUpdateWithStart(ping, { startWorkflowOperation: op });
    sample.push(performance.now() - t0);
  });
  worker.shutdown();
  await running;
  await connection.close();
  await nativeConnection.close();
  return sample;
}

async function main(): Promise<void> {
  const stack = await startBenchStack();
  console.log(`service ready; its log: ${stack.logFile}`);
  try {
    const receiver = await startReceiver();
    const shop = await openShop({ name: 'bench', databaseUrl: stack.databaseUrl, apiUrl: stack.apiUrl, tills: cashiers, receiverUrl: receiver.url });

    const sandboxSample = await measureSandbox(stack, 400);
    const emptySample = await measureEmptyUpdateWithStart(stack, 400);

    const createSample: number[] = [];
    const customerToWebhook: number[] = [];
    const paidAt = new Map<string, number>();
    let lifecycles = 0;
    let errors = 0;
    const started = performance.now();
    const deadline = started + seconds * 1000;
    let seq = 0;
    await runConcurrently(cashiers, () => performance.now() >= deadline, async (w) => {
      const till = shop.tills[w]!;
      try {
        const t0 = performance.now();
        const created = await request('POST', `${stack.apiUrl}/api/in-store/payments`, {
          key: shop.key,
          body: {
            merchantExternalId: shop.merchantExternalId, storeExternalId: shop.storeExternalId, terminalExternalId: till.terminalExternalId,
            amount: 12.5, currency: 'EUR', reference: `bench-${w}-${seq++}`, requestedModes: ['CARD'],
          },
        });
        createSample.push(performance.now() - t0);
        if (created.status !== 201 || created.body.status !== 'AWAITING_TERMINAL') throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
        const pay = await request('POST', `${stack.sandboxUrl}/sim/devices/${till.deviceId}/customer`, { body: { action: 'pay' } });
        if (pay.status !== 200) throw new Error(`pay: ${pay.status}`);
        paidAt.set(created.body.pspReference, performance.now());
        for (;;) {
          const synced = await request('POST', `${stack.apiUrl}/api/in-store/payments/${created.body.id}/sync-status`, { key: shop.key });
          if (synced.body?.status === 'CAPTURED') break;
          if (synced.status !== 200) throw new Error(`sync: ${synced.status} ${JSON.stringify(synced.body)}`);
          await new Promise((r) => setTimeout(r, pollMs));
        }
        lifecycles++;
      } catch (err) {
        errors++;
        if (errors <= 5) console.error(String(err));
        await new Promise((r) => setTimeout(r, 200));
      }
    });
    const elapsed = (performance.now() - started) / 1000;
    await new Promise((r) => setTimeout(r, 3000)); // let the last deliveries land
    for (const [psp, at] of paidAt) {
      const arrived = receiver.arrivals.get(psp);
      if (arrived !== undefined) customerToWebhook.push(arrived - at);
    }
    await receiver.close();

    const create = summary(createSample);
    const sandbox = summary(sandboxSample);
    const diff = (a: number | null, b: number | null): number | null => (a === null || b === null ? null : round(a - b));
    const result = {
      database, cashiers, seconds,
      lifecycles, lifecyclesPerSecond: round(lifecycles / elapsed),
      createLatencyMs: create,
      sandboxLatencyMs: { p50: sandbox.p50, p99: sandbox.p99 },
      createOverheadMs: { p50: diff(create.p50, sandbox.p50), p99: diff(create.p99, sandbox.p99) },
      emptyUpdateWithStartMs: { p50: summary(emptySample).p50, p99: summary(emptySample).p99 },
      customerToWebhookMs: customerToWebhook.length ? { p50: summary(customerToWebhook).p50, p99: summary(customerToWebhook).p99 } : null,
      webhooksDelivered: customerToWebhook.length,
      errors,
    };
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
    console.table({
      'create latency (ms)': { p50: create.p50, p99: create.p99 },
      'sandbox latency (ms)': { p50: sandbox.p50, p99: sandbox.p99 },
      'create overhead (ms)': result.createOverheadMs,
      'empty update-with-start (ms)': result.emptyUpdateWithStartMs,
      'customer to webhook (ms)': result.customerToWebhookMs ?? { p50: null, p99: null },
    });
    console.log(`${database}: ${lifecycles} lifecycles in ${round(elapsed)} s = ${result.lifecyclesPerSecond}/s with ${cashiers} cashiers, ${errors} errors; written to ${out}`);
  } finally {
    await stack.stop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
