/**
 * `npm run bench -- --seconds S --cashiers N --database embedded|postgresql --out FILE`
 *
 * Starts its own stack (`src/main.ts`, as `npm start` does), then N concurrent cashiers each
 * create a payment, let the customer pay in the sandbox and poll sync-status until CAPTURED, for
 * about S seconds. Prints a table and writes the figures of contracts 5 as JSON. A figure that
 * cannot be measured is null, never made up. With `--database postgresql` and no DATABASE_URL,
 * it runs itself under scripts/with-postgres.sh (a throw-away PostgreSQL).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection, WithStartWorkflowOperation } from '@temporalio/client';
import { Worker, NativeConnection } from '@temporalio/worker';
import { generateApiKey } from '../src/auth/apiKeys';
import { API_KEY_SCOPES } from '../src/auth/roles';
import { createDb } from '../src/db/client';
import { freePort } from '../src/process/freePort';
import { ping } from './emptyWorkflow';
import { round, summary } from './stats';
import { LoopbackReceiver } from '../test/support/loopbackReceiver';

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

interface Stack { child: ChildProcess; api: string; sandbox: string; temporal: string; databaseUrl: string }

async function startStack(): Promise<Stack> {
  const [port, simPort, temporalPort, uiPort, dbPort] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'isp-bench-'));
  const databaseUrl = database === 'postgresql' ? process.env.DATABASE_URL! : `postgresql://postgres:postgres@127.0.0.1:${dbPort}/postgres?sslmode=disable`;
  const env = {
    ...process.env, DATA_DIR: dataDir, PORT: String(port), SIM_PORT: String(simPort), TEMPORAL_PORT: String(temporalPort), TEMPORAL_UI_PORT: String(uiPort),
    EMBEDDED_DB_PORT: String(dbPort), LOG_LEVEL: 'warn', WEBHOOK_ALLOW_INSECURE: 'true', TEMPORAL_ADDRESS: '',
    // the bench measures the service, not the limiter
    RATE_LIMIT_PER_SECOND: '100000', RATE_LIMIT_BURST: '100000',
    ...(database === 'postgresql' ? { DATABASE_URL: databaseUrl } : { DATABASE_URL: '' }),
  };
  const child = spawn(process.execPath, [require.resolve('tsx/cli'), 'src/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  await new Promise<void>((resolve, reject) => {
    const onData = (b: Buffer): void => {
      for (const line of b.toString().split('\n')) {
        if (line) lines.push(line);
        if (line.startsWith('ready ')) resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`stack exited ${code}:\n${lines.slice(-20).join('\n')}`)));
  });
  return { child, api: `http://127.0.0.1:${port}`, sandbox: `http://127.0.0.1:${simPort}`, temporal: `127.0.0.1:${temporalPort}`, databaseUrl };
}

async function json(method: string, url: string, body?: unknown, key?: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { method, headers: { 'Content-Type': 'application/json', ...(key ? { 'X-API-Key': key } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** A business, a test key, one store, one linked terminal per cashier. */
async function setUp(stack: Stack) {
  const db = createDb(stack.databaseUrl, { poolSize: 2 });
  const merchant = await db.merchant.create({ data: { externalId: `bench-${Date.now()}`, name: 'Bench' } });
  const { key, hash, prefix } = generateApiKey('test');
  await db.apiKey.create({ data: { merchantId: merchant.id, name: 'bench', mode: 'test', prefix, keyHash: hash, scopes: [...API_KEY_SCOPES] } });
  const store = await json('POST', `${stack.api}/api/merchants/${merchant.externalId}/stores`, { name: 'Bench store', country: 'DE', timezone: 'Europe/Berlin', defaultCurrency: 'EUR' }, key);
  if (store.status !== 201) throw new Error(`store create: ${store.status} ${JSON.stringify(store.body)}`);
  const terminals: { externalId: string; deviceId: string }[] = [];
  for (let i = 0; i < cashiers; i++) {
    const t = await json('POST', `${stack.api}/api/merchants/${merchant.externalId}/stores/${store.body.externalId}/terminals`, { label: `Till ${i}` }, key);
    if (t.status !== 201) throw new Error(`terminal create: ${t.status} ${JSON.stringify(t.body)}`);
    const deviceId = `bench-dev-${i}-${Date.now()}`;
    await db.terminal.update({ where: { externalId: t.body.externalId }, data: { deviceId, linkedAt: new Date() } });
    terminals.push({ externalId: t.body.externalId, deviceId });
  }
  await db.$disconnect();
  return { merchantExternalId: merchant.externalId, key, storeExternalId: store.body.externalId as string, terminals };
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
async function measureSandbox(stack: Stack, count: number): Promise<number[]> {
  const sample: number[] = [];
  let n = 0;
  await runConcurrently(cashiers, () => n >= count, async (w) => {
    const i = n++;
    const device = `bench-direct-${w}-${i}`;
    const t0 = performance.now();
    const res = await json('POST', `${stack.sandbox}/acquirer/v1/devices/${device}/bills`, {
      paymentId: crypto.randomUUID(), pspReference: `BENCH${i}`, amount: '1.00', currency: 'EUR', reference: `direct-${i}`, modes: ['CARD'], timeoutSeconds: 60,
    });
    sample.push(performance.now() - t0);
    if (res.status === 201) await json('POST', `${stack.sandbox}/acquirer/v1/devices/${device}/bills/${res.body.acquirerRef}/withdraw`);
  });
  return sample;
}

/** Update-with-start of a workflow that does nothing, on the same Temporal server. */
async function measureEmptyUpdateWithStart(stack: Stack, count: number): Promise<number[]> {
  const taskQueue = `bench-empty-${Date.now()}`;
  const nativeConnection = await NativeConnection.connect({ address: stack.temporal });
  const worker = await Worker.create({ connection: nativeConnection, taskQueue, workflowsPath: require.resolve('./emptyWorkflow') });
  const running = worker.run();
  const connection = await Connection.connect({ address: stack.temporal });
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
  const stack = await startStack();
  try {
    const setup = await setUp(stack);
    const receiver = await startReceiver();
    const hook = await json('POST', `${stack.api}/api/webhooks/configs`, { url: receiver.url, description: 'bench', eventTypes: ['PAYMENT_CAPTURED'] }, setup.key);
    const webhooks = hook.status === 201;

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
      const terminal = setup.terminals[w]!;
      try {
        const t0 = performance.now();
        const created = await json('POST', `${stack.api}/api/in-store/payments`, {
          merchantExternalId: setup.merchantExternalId, storeExternalId: setup.storeExternalId, terminalExternalId: terminal.externalId,
          amount: 12.5, currency: 'EUR', reference: `bench-${w}-${seq++}`, requestedModes: ['CARD'],
        }, setup.key);
        createSample.push(performance.now() - t0);
        if (created.status !== 201 || created.body.status !== 'AWAITING_TERMINAL') throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
        const pay = await json('POST', `${stack.sandbox}/sim/devices/${terminal.deviceId}/customer`, { action: 'pay' });
        if (pay.status !== 200) throw new Error(`pay: ${pay.status}`);
        paidAt.set(created.body.pspReference, performance.now());
        for (;;) {
          const synced = await json('POST', `${stack.api}/api/in-store/payments/${created.body.id}/sync-status`, undefined, setup.key);
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
    if (webhooks) {
      await new Promise((r) => setTimeout(r, 3000)); // let the last deliveries land
      for (const [psp, at] of paidAt) {
        const arrived = receiver.arrivals.get(psp);
        if (arrived !== undefined) customerToWebhook.push(arrived - at);
      }
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
      customerToWebhookMs: webhooks && customerToWebhook.length ? { p50: summary(customerToWebhook).p50, p99: summary(customerToWebhook).p99 } : null,
      webhooksDelivered: webhooks ? customerToWebhook.length : null,
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
    stack.child.kill('SIGTERM');
    await new Promise((r) => stack.child.once('exit', r));
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
