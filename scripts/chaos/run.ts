/**
 * `npm run chaos -- [--short] [--out FILE] [--database embedded|postgresql] [--temporal dev|server|cluster] [--cashiers N] [--bill-tills N] [--no-refunds | --refunds-only] [--keep] [--verbose]`
 *
 * The fault suite of issue 6. Starts its own stack as separate processes (Temporal: the dev server,
 * or with `--temporal server` the Temporal server on PostgreSQL of `npm run temporal-server`, or
 * with `--temporal cluster` two such servers as one cluster (`npm run temporal-cluster`) with two
 * API and two worker processes, and the faults of a cluster: one node killed, both in turn;
 * database, API, worker, sandbox acquirer), a loopback webhook receiver, and cashiers that take
 * payments in a loop, while it injects one fault after another: kill -9 of the worker, of the API,
 * of the whole stack, of Temporal, the acquirer unreachable, the receiver down, PostgreSQL restarted. Then it
 * waits for everything to settle and reports payments lost, double captures, the longest time to
 * a final state and events undelivered against their targets. Then the refund phase: a FINANCE user
 * refunds captured payments (partial, concurrent, slow to decide, retried with the same
 * Idempotency-Key) while the worker and the API are killed and the acquirer is unreachable, and the
 * run checks every refund was decided once, at the acquirer as in the service, and as the client
 * was told. Beside the payments, a business of its own takes bills through the same faults (split
 * across two tills, partly approved, raced for, cancelled, walked away from), and the run checks
 * none was over-paid or left half given back, and each abandoned one was given back once, on time.
 * Exit code 0 when every target is
 * met, 1 when one is missed, 2 when the run itself failed. docs/operations-chaos.md explains it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { blockingWindows, judge, type PaymentView, readPayments, readSandboxBills, waitEvents, waitSettled } from './analysis';
import { judgeBills, readBills, waitBillEvents } from './billAnalysis';
import { BillLoad } from './bills';
import { ChaosAdyen } from './adyen';
import { Cashiers } from './cashiers';
import { type FaultRecord, type FaultStep, runFaults } from './faults';
import { sleep } from '../../support/http';
import { findPostgresBin } from './postgres';
import { ChaosReceiver } from './receiver';
import { judgeReceipts, type ReceiptSubject, expectedReceipts, waitReceipts } from './receiptAnalysis';
import { judgeRefunds, readRefunded, type RefundedPayment, waitRefundEvents, waitRefundsDecided } from './refundAnalysis';
import { RefundLoad } from './refunders';
import { buildReport, formatReport, type NondeterminismSeen, type RefundPhase } from './report';
import { openShop, type Shop } from '../../support/shop';
import { ChaosStack, type DatabaseKind, type TemporalKind } from './stack';
import { ensureTemporalServerBuilt } from '../temporal-server/build';
import { installCleanup, killAllGroups } from '../../support/serviceProcess';
import { paymentWorkflowId } from '../../core/payment/messages';
import { type Mailbox, startMailbox } from '../../src/acquirer/sandbox/mailbox';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const flag = (name: string): boolean => process.argv.includes(`--${name}`);

const short = flag('short');
const keep = flag('keep');
const verbose = flag('verbose');
const out = arg('out');
const database = (arg('database') ?? (process.env.DATABASE_URL ? 'postgresql' : 'embedded')) as DatabaseKind;
if (database !== 'embedded' && database !== 'postgresql') {
  process.stderr.write(`--database: must be embedded or postgresql\n`);
  process.exit(2);
}
const temporal = (arg('temporal') ?? 'dev') as TemporalKind;
if (temporal !== 'dev' && temporal !== 'server' && temporal !== 'cluster') {
  process.stderr.write(`--temporal: must be dev, server or cluster\n`);
  process.exit(2);
}
if (temporal !== 'dev' && database !== 'postgresql') {
  process.stderr.write(`--temporal ${temporal}: runs on PostgreSQL; give --database postgresql (or DATABASE_URL)\n`);
  process.exit(2);
}
const cashierCount = Number(arg('cashiers') ?? (short ? 4 : 8));
/** Tills of the chaos business's adyen store (its account's terminals at the Adyen stand-in); 0: none. */
const adyenTills = Number(arg('adyen-tills') ?? (short ? 2 : 4));
/** Tills of the chaos run's bill business, two to a bill runner (./bills.ts); 0: no bills. */
const billTills = 2 * Math.floor(Number(arg('bill-tills') ?? (short ? 4 : 6)) / 2);
const refundsOnly = flag('refunds-only');
const withRefunds = !flag('no-refunds');
const timeoutMinutes = Number(arg('terminal-timeout-minutes') ?? 0.2);

/** Settings of the API and worker processes: short windows so that a run takes minutes. */
const SETTINGS: Record<string, string> = {
  LOG_LEVEL: 'warn',
  OTEL_ENABLED: 'false',
  WEBHOOK_ALLOW_INSECURE: 'true',
  TERMINAL_TIMEOUT_MIN_MINUTES: '0.1',
  TERMINAL_TIMEOUT_DEFAULT_MINUTES: String(timeoutMinutes),
  TERMINAL_TIMEOUT_MAX_MINUTES: '5',
  EXPIRY_GRACE_SECONDS: '2',
  SWEEP_INTERVAL_SECONDS: '5',
  VOID_WINDOW_MINUTES: '2',
  WEBHOOK_RETRY_INITIAL_SECONDS: '1',
  WEBHOOK_RETRY_MAX_INTERVAL_SECONDS: '5',
  WEBHOOK_TIMEOUT_SECONDS: '5',
  // The run measures the service under faults, not its rate limiter.
  RATE_LIMIT_PER_SECOND: '10000',
  RATE_LIMIT_BURST: '10000',
  // Refunds the sandbox decides after 5 s or 20 s are answered PENDING, and followed after the answer.
  REFUND_CONFIRM_TIMEOUT_SECONDS: '3',
  // Receipt emails retried at most 5 s apart once the mailbox refuses; an attempt lost with its worker retried after 10 s.
  RECEIPT_RETRY_MAX_INTERVAL_SECONDS: '5',
  RECEIPT_ATTEMPT_TIMEOUT_SECONDS: '10',
};
const boundMs = Math.round(timeoutMinutes * 60_000 + Number(SETTINGS.EXPIRY_GRACE_SECONDS) * 1000 + Number(SETTINGS.SWEEP_INTERVAL_SECONDS) * 1000);

const s = (a: number, b = a): [number, number] => [a * 1000, b * 1000];
const PLAN: { warmupMs: number; tailMs: number; steps: FaultStep[] } = short
  ? {
      warmupMs: 8_000,
      tailMs: 5_000,
      steps: [
        { kind: 'kill-worker', delayMs: s(2, 6), durationMs: s(0, 1) },
        { kind: 'kill-api', delayMs: s(2, 5), durationMs: s(0, 1) },
        { kind: 'kill-stack', delayMs: s(3, 6), durationMs: s(0.5, 1.5) },
        { kind: 'temporal-restart', delayMs: s(3, 6), durationMs: s(0, 1) },
        // Down long enough for the other node to take its shards over.
        { kind: 'temporal-node-kill', delayMs: s(3, 6), durationMs: s(25, 30) },
        { kind: 'temporal-nodes-in-turn', delayMs: s(3, 6), durationMs: s(0, 1) },
        { kind: 'acquirer-unreachable', delayMs: s(2, 4), durationMs: s(10) },
        { kind: 'receiver-down', delayMs: s(1, 3), durationMs: s(8) },
        { kind: 'mailbox-refusing', delayMs: s(1, 3), durationMs: s(8) },
        { kind: 'postgresql-restart', delayMs: s(2, 4), durationMs: s(0) },
      ],
    }
  : {
      warmupMs: 15_000,
      tailMs: 15_000,
      steps: [
        { kind: 'kill-worker', delayMs: s(4, 12), durationMs: s(0, 3) },
        { kind: 'kill-worker', delayMs: s(4, 12), durationMs: s(0, 3) },
        { kind: 'kill-worker', delayMs: s(4, 12), durationMs: s(0, 3) },
        { kind: 'kill-api', delayMs: s(4, 12), durationMs: s(0, 3) },
        { kind: 'kill-api', delayMs: s(4, 12), durationMs: s(0, 3) },
        { kind: 'kill-stack', delayMs: s(5, 12), durationMs: s(1, 3) },
        { kind: 'temporal-restart', delayMs: s(4, 10), durationMs: s(0, 3) },
        { kind: 'temporal-node-kill', delayMs: s(4, 10), durationMs: s(0, 5) },
        { kind: 'temporal-node-kill', delayMs: s(4, 10), durationMs: s(30, 60) },
        { kind: 'temporal-nodes-in-turn', delayMs: s(4, 10), durationMs: s(0, 3) },
        { kind: 'acquirer-unreachable', delayMs: s(4, 8), durationMs: s(60) },
        { kind: 'receiver-down', delayMs: s(2, 6), durationMs: s(30) },
        { kind: 'mailbox-refusing', delayMs: s(2, 6), durationMs: s(30) },
        { kind: 'postgresql-restart', delayMs: s(4, 8), durationMs: s(0) },
        { kind: 'kill-worker', delayMs: s(4, 12), durationMs: s(0, 3) },
      ],
    };

/** The refund phase's faults: the worker and the API killed, the acquirer unreachable (full: the whole stack too). */
const REFUND_PLAN: { freshPerTill: number; refunders: number; tailMs: number; settleMs: number; healAfterMs: number; steps: FaultStep[] } = short
  ? {
      freshPerTill: 3,
      refunders: 4,
      tailMs: 5_000,
      settleMs: 180_000,
      healAfterMs: 25_000,
      steps: [
        { kind: 'kill-worker', delayMs: s(3, 6), durationMs: s(0, 1) },
        { kind: 'kill-api', delayMs: s(2, 4), durationMs: s(0, 1) },
        { kind: 'acquirer-unreachable', delayMs: s(2, 4), durationMs: s(8) },
        { kind: 'mailbox-refusing', delayMs: s(1, 3), durationMs: s(8) },
        { kind: 'temporal-node-kill', delayMs: s(1, 3), durationMs: s(0, 1) },
        { kind: 'kill-worker', delayMs: s(1, 3), durationMs: s(0, 1) },
        { kind: 'kill-api', delayMs: s(1, 3), durationMs: s(0, 1) },
      ],
    }
  : {
      freshPerTill: 5,
      refunders: 6,
      tailMs: 10_000,
      settleMs: 300_000,
      healAfterMs: 45_000,
      steps: [
        { kind: 'kill-worker', delayMs: s(3, 8), durationMs: s(0, 3) },
        { kind: 'kill-api', delayMs: s(3, 8), durationMs: s(0, 3) },
        { kind: 'kill-worker', delayMs: s(3, 8), durationMs: s(0, 3) },
        { kind: 'acquirer-unreachable', delayMs: s(2, 5), durationMs: s(30) },
        { kind: 'mailbox-refusing', delayMs: s(2, 5), durationMs: s(20) },
        { kind: 'kill-api', delayMs: s(2, 6), durationMs: s(0, 3) },
        { kind: 'kill-stack', delayMs: s(3, 8), durationMs: s(1, 3) },
        { kind: 'temporal-node-kill', delayMs: s(2, 6), durationMs: s(0, 3) },
        { kind: 'kill-worker', delayMs: s(2, 6), durationMs: s(0, 3) },
        { kind: 'kill-api', delayMs: s(2, 6), durationMs: s(0, 3) },
      ],
    };

// A node of its own can only be lost on a cluster: elsewhere those steps are left out of the plans.
const CLUSTER_ONLY = new Set<FaultStep['kind']>(['temporal-node-kill', 'temporal-nodes-in-turn']);
for (const plan of [PLAN, REFUND_PLAN]) if (temporal !== 'cluster') plan.steps = plan.steps.filter((step) => !CLUSTER_ONLY.has(step.kind));

const startedAt = Date.now();
const say = (line: string): void => {
  process.stdout.write(`[${((Date.now() - startedAt) / 1000).toFixed(1).padStart(6)}s] ${line}\n`);
};

async function main(): Promise<number> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'isp-chaos-'));
  const logFile = fs.createWriteStream(path.join(root, 'chaos.log'));
  const nondeterminism: NondeterminismSeen = { lines: 0, workflowIds: [], first: null };
  const childLog = (source: string, line: string): void => {
    // The worker says it (with the run id), the Temporal server names the workflow (wf-id=...).
    if (/nondetermin/i.test(line)) {
      if (source === 'worker') nondeterminism.lines += 1;
      nondeterminism.first ??= stripVTControlCharacters(line).slice(0, 600);
      for (const id of line.match(/payment-[0-9a-f-]{36}/g) ?? []) if (!nondeterminism.workflowIds.includes(id)) nondeterminism.workflowIds.push(id);
    }
    logFile.write(`${new Date().toISOString()} [${source}] ${line}\n`);
    if (verbose) process.stdout.write(`  [${source}] ${line}\n`);
  };
  const postgresBin = database === 'postgresql' ? findPostgresBin() : undefined;
  const adyen = adyenTills > 0 ? await ChaosAdyen.start() : null;
  // The customers' mail server: the development mailbox's SMTP server, run here and named by SMTP_URL, so
  // that killing the stack (the sandbox with it) loses no mail already delivered, as in life.
  const mailbox = await startMailbox({ host: '127.0.0.1', port: 0 });
  const serviceEnv = { ...SETTINGS, ...adyen?.env, SMTP_URL: `smtp://127.0.0.1:${mailbox.port}` };
  const stack = new ChaosStack({ root, database, temporal, postgresBin, externalDatabaseUrl: process.env.DATABASE_URL, serviceEnv, log: childLog });
  const receiver = new ChaosReceiver();
  let ok = false;
  try {
    if (temporal !== 'dev') await ensureTemporalServerBuilt((l) => say(l));
    const temporalName = stack.temporalName;
    say(
      `starting the stack (${database}${database === 'postgresql' ? (postgresBin ? ', a PostgreSQL cluster of our own' : ', external DATABASE_URL') : ''}, ${temporalName}) in ${root}`,
    );
    await stack.start();
    say(`stack ready: api ${stack.apiUrl}, sandbox ${stack.sandboxUrl}, temporal ${stack.temporalAddress}`);
    await receiver.start();
    const shop = await openShop({ name: 'chaos', databaseUrl: stack.databaseUrl, apiUrl: stack.apiUrl, tills: cashierCount, receiverUrl: receiver.url });
    receiver.secrets.push(shop.webhookSecret);
    say(`shop ${shop.merchantExternalId}: ${shop.tills.length} tills, webhook receiver ${receiver.url}`);
    const adyenShop = adyen ? await adyen.openStore({ apiUrl: stack.apiUrl, databaseUrl: stack.databaseUrl, shop, tills: adyenTills }) : null;
    const billShop =
      billTills > 0
        ? await openShop({ name: 'chaos-bills', databaseUrl: stack.databaseUrl, apiUrl: stack.apiUrl, tills: billTills, receiverUrl: receiver.url })
        : null;
    if (billShop) {
      receiver.secrets.push(billShop.webhookSecret);
      say(`bill business ${billShop.merchantExternalId}: ${billShop.tills.length} tills, two to a bill runner`);
    }
    if (adyenShop) say(`adyen store ${adyenShop.storeExternalId}: ${adyenShop.tills.length} Adyen terminals at the stand-in ${adyen!.standIn.url}`);

    // The load runs through warm-up, faults and tail; a hard cap bounds it whatever happens.
    let loadEndsAt = Date.now() + 30 * 60_000;
    const cashiers = new Cashiers({
      apiUrl: stack.apiUrl,
      sandboxUrl: stack.sandboxUrl,
      shop,
      timeouts: [timeoutMinutes],
      loadEndsAt: () => loadEndsAt,
      waitFinalMs: boundMs + 10_000,
      log: (l) => childLog('cashier', l),
      voidShare: 0.3,
    });
    const adyenCashiers = adyenShop
      ? new Cashiers(
          {
            apiUrl: stack.apiUrl,
            sandboxUrl: stack.sandboxUrl,
            shop: adyenShop,
            timeouts: [timeoutMinutes],
            loadEndsAt: () => loadEndsAt,
            waitFinalMs: boundMs + 10_000,
            log: (l) => childLog('adyen-cashier', l),
            customer: (till, action) => adyen!.customer(till, action),
          },
          cashierCount + 1,
        )
      : null;
    const faultContext = {
      stack,
      receiver,
      shop,
      mailbox,
      log: say,
      otherAcquirers: adyen && adyenShop ? [{ setReachable: (on: boolean) => adyen.setReachable(adyenShop.tills, on) }] : [],
    };
    const billLoad = billShop
      ? new BillLoad({ apiUrl: stack.apiUrl, sandboxUrl: stack.sandboxUrl, shop: billShop, loadEndsAt: () => loadEndsAt, log: (l) => childLog('bills', l) })
      : null;
    const tracked = cashiers.payments; // and the adyen cashiers' payments, once their load is done
    let faults: FaultRecord[] = [];
    if (refundsOnly) {
      say('--refunds-only: no payment phase');
    } else {
      const load = Promise.all([cashiers.run(), adyenCashiers?.run(), billLoad?.run()]);
      await sleep(PLAN.warmupMs);
      try {
        faults = await runFaults(faultContext, PLAN.steps, () => false);
      } finally {
        loadEndsAt = Date.now() + PLAN.tailMs;
      }
      say(`faults done; load continues ${PLAN.tailMs / 1000} s`);
      await load;
      for (const [id, p] of adyenCashiers?.payments ?? []) tracked.set(id, p);
      say(`load done: ${tracked.size} payments acknowledged (${adyenCashiers?.payments.size ?? 0} at Adyen); waiting for every payment to be final`);
      await waitSettled(stack.apiUrl, shop, tracked, Date.now() + boundMs + 60_000, say);
    }
    const timing = {
      expiryGraceSeconds: Number(SETTINGS.EXPIRY_GRACE_SECONDS),
      sweepIntervalSeconds: Number(SETTINGS.SWEEP_INTERVAL_SECONDS),
      longestTerminalTimeoutMinutes: timeoutMinutes,
    };
    const views = await readPayments(stack.apiUrl, shop, tracked, faults, timing);
    await waitEvents(views, receiver, Date.now() + 60_000, say);
    const adyenBills = adyen && adyenShop ? adyen.bills(adyenShop.tills) : [];
    // The bill business's events are judged with its bills.
    const findings = judge(
      views,
      tracked,
      [...readSandboxBills(stack.dataDir), ...adyenBills],
      receiver,
      (e) => e.merchantExternalId === billShop?.merchantExternalId,
    );
    // The bills settle by their own expiry (up to two minutes after the load) while the refund phase runs.
    const billsSettled =
      billLoad && billShop
        ? readBills(stack.apiUrl, billShop, [...billLoad.bills.values()], Date.now() + 4 * 60_000, say).then(async (billViews) => {
            await waitBillEvents(billViews, receiver, Date.now() + 60_000, say);
            return billViews;
          })
        : null;
    const adyenIds = new Set(adyenCashiers?.payments.keys() ?? []);
    // After the payments are judged: refunds change their statuses and raise events of their own.
    const refunds = withRefunds
      ? await refundPhase(
          stack,
          shop,
          receiver,
          // The refund phase judges against the sandbox's books: the sandbox tills' payments.
          views.filter((v) => v.status === 'CAPTURED' && v.capturedAmount !== null && !adyenIds.has(v.id)),
          childLog,
          nondeterminism,
          mailbox,
        )
      : null;
    const billViews = await billsSettled;
    const receipts = await receiptCheck(views, refunds?.payments ?? [], [...faults, ...(refunds?.faults ?? [])], mailbox);
    const bills = billLoad && billViews ? { load: billLoad.stats, findings: judgeBills(billViews, stack.dataDir, receiver, blockingWindows(faults)) } : null;
    const report = buildReport({
      database,
      temporal,
      short,
      startedAt,
      cashiers: cashierCount,
      settings: SETTINGS,
      boundMs,
      faults,
      load: cashiers.stats,
      findings,
      refunds,
      bills,
      receipts,
      nondeterminism,
      adyen: adyenCashiers
        ? {
            tills: adyenTills,
            payments: adyenCashiers.payments.size,
            captured: views.filter((v) => adyenIds.has(v.id) && v.status === 'CAPTURED').length,
            load: adyenCashiers.stats,
            invalidRequests: adyen!.invalidRequests(),
          }
        : null,
    });
    process.stdout.write(`\n${formatReport(report)}\n`);
    if (out) {
      fs.mkdirSync(path.dirname(path.resolve(out)), { recursive: true });
      fs.writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
      say(`JSON report written to ${out}`);
    }
    // CI's tally (scripts/ci/tally.mjs): each target is one test.
    if (process.env.CI_RESULT_FILE) {
      const failed = report.targets.filter((t) => !t.ok).length;
      fs.writeFileSync(process.env.CI_RESULT_FILE, JSON.stringify({ passed: report.targets.length - failed, failed, skipped: 0 }));
    }
    ok = report.ok;
    return report.ok ? 0 : 1;
  } finally {
    await adyen?.close().catch(() => undefined);
    await mailbox.close().catch(() => undefined);
    await receiver.stop().catch(() => undefined);
    await stack.destroy().catch(() => undefined);
    await new Promise<void>((resolve) => logFile.end(() => resolve()));
    if (ok && !keep) fs.rmSync(root, { recursive: true, force: true });
    else say(`run folder kept: ${root} (chaos.log has every process's output)`);
  }
}

/**
 * The refund phase: captured payments (those of the payment phase, whose runs have mostly ended,
 * and fresh ones, whose runs are in the void window) refunded by a signed-in FINANCE user while the
 * worker and the API are killed and the acquirer is unreachable; then every refund is judged.
 */
async function refundPhase(
  stack: ChaosStack,
  shop: Shop,
  receiver: ChaosReceiver,
  captured: { id: string; capturedAmount: number | null }[],
  childLog: (source: string, line: string) => void,
  nondeterminism: NondeterminismSeen,
  mailbox: Mailbox,
): Promise<RefundPhase> {
  const phaseStart = Date.now();
  let endsAt = Date.now() + 30 * 60_000;
  const refunds = new RefundLoad({
    apiUrl: stack.apiUrl,
    sandboxUrl: stack.sandboxUrl,
    databaseUrl: stack.databaseUrl,
    shop,
    refunders: REFUND_PLAN.refunders,
    loadEndsAt: () => endsAt,
    log: (l) => childLog('refunder', l),
  });
  await refunds.signIn();
  await refunds.configureDevices();
  refunds.addCaptured(captured.map((p) => ({ id: p.id, capturedAmount: p.capturedAmount! })));
  await refunds.captureFresh(REFUND_PLAN.freshPerTill);
  say(`refund phase: ${refunds.targets.length} captured payments (${captured.length} from the payment phase), ${REFUND_PLAN.refunders} refunders`);
  const load = refunds.run();
  const heal = sleep(REFUND_PLAN.healAfterMs).then(() => refunds.healFailingDevices());
  let faults: FaultRecord[] = [];
  try {
    faults = await runFaults({ stack, receiver, shop, mailbox, log: say }, REFUND_PLAN.steps, () => false);
  } finally {
    endsAt = Date.now() + REFUND_PLAN.tailMs;
  }
  say(`refund faults done; refunds continue ${REFUND_PLAN.tailMs / 1000} s`);
  await Promise.all([load, heal]);
  say(`refund load done: ${refunds.stats.requests} requests; waiting for every refund to be decided`);
  await waitRefundsDecided(stack.apiUrl, shop, refunds.targets, Date.now() + REFUND_PLAN.settleMs, say);
  const views = await readRefunded(stack.apiUrl, shop, refunds.targets);
  await waitRefundEvents(views, receiver, Date.now() + 60_000, say);
  const findings = judgeRefunds(views, refunds.requests, stack.dataDir, receiver);
  for (const p of findings.undecided)
    if (nondeterminism.workflowIds.includes(paymentWorkflowId(p.paymentId)))
      p.why += `; workflow ${paymentWorkflowId(p.paymentId)} fails its workflow task (nondeterminism)`;
  return { faults, load: refunds.stats, findings, durationMs: Date.now() - phaseStart, payments: views };
}

/**
 * The receipts (docs/operations-chaos.md, "Receipts"): every payment of the cashiers' business with
 * its events (from the payment phase's read, and the refund phase's), waited for in the mailbox
 * (bounded: the receipt workflows retry at most 5 s apart once the faults are over), then judged.
 */
async function receiptCheck(views: PaymentView[], refunded: RefundedPayment[], faults: FaultRecord[], mailbox: Mailbox) {
  const subjects = new Map<string, ReceiptSubject>();
  for (const v of views)
    subjects.set(v.id, {
      paymentId: v.id,
      customerEmail: v.customerEmail,
      capturedAt: v.history.find((h) => h.status === 'CAPTURED')?.occurredAt ?? null,
      voidedAt: v.history.find((h) => h.status === 'CANCELLED' && h.previousStatus === 'CAPTURED')?.occurredAt ?? null,
      refunds: [],
    });
  for (const r of refunded) {
    // A payment captured in the refund phase was not read in the payment phase.
    const s = subjects.get(r.id) ?? { paymentId: r.id, customerEmail: r.customerEmail, capturedAt: r.capturedAt, voidedAt: null, refunds: [] };
    s.refunds = r.refunds.filter((x) => x.status === 'SUCCEEDED').map((x) => ({ id: x.id, at: x.updatedAt }));
    subjects.set(r.id, s);
  }
  const all = [...subjects.values()];
  await waitReceipts(expectedReceipts(all), () => mailbox.messages(), Date.now() + 120_000, say);
  // Left out of an event's time to its receipt: no worker or Temporal, and the mailbox refusing (plus one retry interval).
  const retryMs = Number(SETTINGS.RECEIPT_RETRY_MAX_INTERVAL_SECONDS) * 1000;
  const windows = [
    ...blockingWindows(faults),
    ...faults.filter((f) => f.kind === 'mailbox-refusing' && !f.skipped).map((f) => ({ startedAt: f.startedAt, endedAt: f.endedAt + retryMs })),
  ];
  return judgeReceipts(all, mailbox.messages(), windows);
}

installCleanup();
main()
  .then((code) => {
    killAllGroups();
    process.exit(code);
  })
  .catch((err) => {
    process.stderr.write(`chaos run failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    killAllGroups();
    process.exit(2);
  });
