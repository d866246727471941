/**
 * `npm run bench:settlement -- --payments N --cashiers C [--fee-audit] --out FILE`
 *
 * How long a close of a store with N captured payments takes (issue 11): starts its own stack as
 * `npm start` does (embedded database, Temporal dev server, API, worker and sandbox in one
 * process), captures N payments in one store (C tills, each: create, the customer pays, wait for
 * PAYMENT_CAPTURED), then a FINANCE user closes the store's batch through the API and the time
 * until the batch is final is measured, with the time until the last PAYMENT_SETTLED reached the webhook
 * receiver. Prints a table and writes the figures as JSON, with the machine's load while it ran.
 * `--fee-audit` (issue 27): the store's payments go to a sandbox account with a cost contract, so
 * each is priced at capture and the close audits every fee against it (compare with a run without).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hashPassword } from '../src/auth/passwords';
import { createDb } from '../src/db/client';
import { request } from '../support/http';
import { LoopbackReceiver } from '../support/loopbackReceiver';
import { startStack } from '../support/serviceStack';
import { openShop, type Till } from '../support/shop';
import { arg } from './args';

const ROOT = path.resolve(__dirname, '..');
const payments = Number(arg('payments', '1000'));
const cashiers = Number(arg('cashiers', '20'));
const out = arg('out', path.join(ROOT, 'bench', 'results', 'settlement-close.json'));
const feeAudit = process.argv.includes('--fee-audit');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const seen = { captured: new Map<string, () => void>(), capturedSet: new Set<string>(), settled: 0, lastSettledAt: 0 };
  const receiver = new LoopbackReceiver(({ rawBody }) => {
    try {
      const event = JSON.parse(rawBody.toString());
      const psp = event.data?.pspReference as string;
      if (event.eventType === 'PAYMENT_CAPTURED' && !seen.capturedSet.has(psp)) {
        seen.capturedSet.add(psp);
        seen.captured.get(psp)?.();
      } else if (event.eventType === 'PAYMENT_SETTLED') {
        seen.settled += 1;
        seen.lastSettledAt = performance.now();
      }
    } catch {
      // not an event of ours
    }
    return 204;
  });
  await receiver.start();
  const captured = (psp: string, timeoutMs: number) =>
    seen.capturedSet.has(psp)
      ? Promise.resolve(true)
      : new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(false), timeoutMs);
          seen.captured.set(psp, () => {
            clearTimeout(timer);
            resolve(true);
          });
        });

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'isp-settle-bench-'));
  const stack = await startStack({
    root: ROOT,
    dataDir,
    sources: true,
    env: {
      LOG_LEVEL: 'warn',
      WEBHOOK_ALLOW_INSECURE: 'true',
      TEMPORAL_ADDRESS: '',
      DATABASE_URL: '',
      RATE_LIMIT_PER_SECOND: '100000',
      RATE_LIMIT_BURST: '100000',
      SETTLEMENT_AUTO_CLOSE: 'false',
    },
    readyTimeoutMs: 300_000,
  });
  try {
    const shop = await openShop({ name: 'settle', databaseUrl: stack.databaseUrl, apiUrl: stack.apiUrl, tills: cashiers, receiverUrl: receiver.url });
    if (feeAudit) await contractedAccount(stack, shop.merchantExternalId);
    let made = 0;
    let n = 0;
    let errors = 0;
    const createStarted = performance.now();
    await Promise.all(
      shop.tills.map(async (till: Till) => {
        while (n < payments) {
          n++;
          try {
            const created = await request('POST', `${stack.apiUrl}/api/in-store/payments`, {
              key: shop.key,
              body: {
                merchantExternalId: shop.merchantExternalId,
                storeExternalId: shop.storeExternalId,
                terminalExternalId: till.terminalExternalId,
                amount: 12.34,
                currency: 'EUR',
                requestedModes: ['CARD'],
              },
            });
            if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
            const paid = await request('POST', `${stack.sandboxUrl}/sim/devices/${till.deviceId}/customer`, { body: { action: 'pay' } });
            if (paid.status !== 200) throw new Error(`pay: ${paid.status}`);
            if (!(await captured(created.body.pspReference, 60_000))) throw new Error(`no PAYMENT_CAPTURED for ${created.body.pspReference}`);
            made++;
            if (made % 200 === 0) console.log(`${made} payments captured`);
          } catch (err) {
            errors++;
            if (errors <= 5) console.error(String(err));
            await sleep(500);
          }
        }
      }),
    );
    const createSeconds = (performance.now() - createStarted) / 1000;

    const token = await signedIn(stack, shop.merchantExternalId, 'FINANCE');
    const load1Before = os.loadavg()[0]!;
    const started = performance.now();
    // The close is a durable workflow: timed until its batch is final in the database (an HTTP
    // client or server timeout on a long close does not stop it); the request's own answer after.
    const request201 = request('POST', `${stack.apiUrl}/api/dashboard/settlements`, {
      token,
      body: { storeExternalId: shop.storeExternalId },
      timeoutMs: 1_800_000,
    });
    const watch = createDb(stack.databaseUrl, { poolSize: 1 });
    let batch: { id: string; status: string; totals: unknown } | null = null;
    try {
      while (!batch) {
        await sleep(500);
        batch = await watch.settlementBatch.findFirst({
          where: { storeExternalId: shop.storeExternalId, status: { in: ['SETTLED', 'DISCREPANCY'] } },
          select: { id: true, status: true, totals: true },
        });
      }
    } finally {
      await watch.$disconnect();
    }
    const closeSeconds = (performance.now() - started) / 1000;
    const closed = await request201;
    const load1After = os.loadavg()[0]!;
    // every PAYMENT_SETTLED at the receiver (delivery follows the close)
    const deadline = performance.now() + 120_000;
    while (seen.settled < made && performance.now() < deadline) await sleep(200);

    const result = {
      database: 'embedded',
      feeAudit,
      payments: made,
      createErrors: errors,
      captureSeconds: Math.round(createSeconds),
      closeSeconds: Math.round(closeSeconds * 10) / 10,
      paymentsSettledPerSecond: Math.round((made / closeSeconds) * 10) / 10,
      lastPaymentSettledEventSeconds: seen.settled >= made ? Math.round(((seen.lastSettledAt - started) / 1000) * 10) / 10 : null,
      settledEvents: seen.settled,
      closeRequestStatus: closed.status,
      batch: { status: batch.status, totals: batch.totals },
      machine: { cpus: os.cpus().length, load1Before, load1After, loadavgAtEnd: os.loadavg() },
    };
    console.log(`\nsettlement close${feeAudit ? ' (fee audit: every payment priced by a cost contract)' : ''}`);
    console.log(`  payments captured     ${result.payments} (${result.captureSeconds} s, ${errors} errors)`);
    console.log(`  close (POST to final) ${result.closeSeconds} s (${result.paymentsSettledPerSecond} payments/s)`);
    console.log(`  last PAYMENT_SETTLED  ${result.lastPaymentSettledEventSeconds ?? 'not all arrived'} s after the POST (${seen.settled} events)`);
    console.log(`  machine               ${result.machine.cpus} CPUs, load ${load1Before.toFixed(1)} before, ${load1After.toFixed(1)} after`);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
    console.log(`  written to ${out}`);
  } finally {
    await stack.stop();
    await receiver.stop();
  }
}

type Stack = Awaited<ReturnType<typeof startStack>>;

/** A user of the business with `role`, signed in through the API: its session token. */
async function signedIn(stack: Stack, merchantExternalId: string, role: 'FINANCE' | 'ADMIN'): Promise<string> {
  const db = createDb(stack.databaseUrl, { poolSize: 1 });
  try {
    const merchant = await db.merchant.findUniqueOrThrow({ where: { externalId: merchantExternalId } });
    const password = 'Settle-bench-42-password';
    const user = await db.user.create({
      data: { merchantId: merchant.id, username: `${role.toLowerCase()}-${merchant.externalId}`, passwordHash: await hashPassword(password), roles: [role] },
    });
    const login = await request('POST', `${stack.apiUrl}/api/auth/login`, { body: { username: user.username, password } });
    if (login.status !== 200) throw new Error(`login: ${login.status} ${JSON.stringify(login.body)}`);
    return login.body.token as string;
  } finally {
    await db.$disconnect();
  }
}

/** A live sandbox account with a cost contract (the sandbox's own card terms), the business's default route. */
async function contractedAccount(stack: Stack, merchantExternalId: string): Promise<void> {
  const token = await signedIn(stack, merchantExternalId, 'ADMIN');
  const expect = (res: { status: number; body: unknown }, status: number, what: string) => {
    if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { id: string };
  };
  const account = expect(
    await request('POST', `${stack.apiUrl}/api/dashboard/acquirer-accounts`, {
      token,
      body: { name: 'Bench MID', acquirer: 'sandbox', mode: 'live', merchantAccountId: 'MID-BENCH', credentials: {} },
    }),
    201,
    'account',
  );
  expect(
    await request('PUT', `${stack.apiUrl}/api/dashboard/acquirer-routes`, { token, body: { mode: 'live', rules: [], defaultAccountId: account.id } }),
    200,
    'routes',
  );
  expect(
    await request('PUT', `${stack.apiUrl}/api/dashboard/acquirer-accounts/${account.id}/cost-contract`, {
      token,
      body: { currency: 'EUR', lines: [{ paymentMode: 'CARD', percent: 1.4, fixed: 0.1 }] },
    }),
    200,
    'cost contract',
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
