/**
 * `npm run fuzz -- [--max-time SECONDS] [--max-examples N] [--seed N] [--keep] [--self-test] [--strict] [--install-only] [-- <st run options>]`
 *
 * Schema-driven fuzzing of every operation of /openapi.json against the real running service
 * (docs/fuzzing.md): starts the service as `npm start` does (embedded database and Temporal dev
 * server, or DATABASE_URL / TEMPORAL_ADDRESS), creates fixtures, a loopback webhook receiver and the
 * table probe, then runs schemathesis with the hooks of fuzz_hooks.py: no 5xx, no write on a 4xx
 * (our check), answers as documented. Prints a summary and exits non-zero on any failure. The
 * service is stopped with SIGTERM whatever happens.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { acquirerReach } from './acquirerFixtures';
import { createFixtures, type Fixtures } from './fixtures';
import { hostileShapes } from './hostile';
import { startProbe, type Probe } from './probe';
import { LoopbackReceiver } from '../../support/loopbackReceiver';
import { ensureSchemathesis } from './schemathesis';
import { startStack, type RunningStack } from '../../support/serviceStack';

const ROOT = path.resolve(__dirname, '..', '..');

interface Options {
  maxTime: number;
  maxExamples: number;
  seed?: string;
  keep: boolean;
  selfTest: boolean;
  strict: boolean;
  /** Install schemathesis and stop (CI does it early, beside other steps). */
  installOnly: boolean;
  extra: string[];
}

function parseArgs(argv: string[]): Options {
  const opts: Options = { maxTime: 120, maxExamples: 50, keep: false, selfTest: false, strict: false, installOnly: false, extra: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--') {
      opts.extra.push(...argv.slice(i + 1));
      i = argv.length;
    } else if (a === '--max-time') opts.maxTime = Number(value());
    else if (a === '--max-examples') opts.maxExamples = Number(value());
    else if (a === '--seed') opts.seed = value();
    else if (a === '--keep') opts.keep = true;
    else if (a === '--self-test') opts.selfTest = true;
    else if (a === '--strict') opts.strict = true;
    else if (a === '--install-only') opts.installOnly = true;
    else
      throw new Error(
        `unknown option ${a} (options: --max-time S, --max-examples N, --seed N, --keep, --self-test, --strict, --install-only, -- <st run options>)`,
      );
  }
  if (!(opts.maxTime >= 1) || !(opts.maxExamples >= 1)) throw new Error('--max-time and --max-examples must be positive numbers');
  return opts;
}

/**
 * No 5xx; no write on a 4xx (ours); and the answers match the schema: documented status codes,
 * content types and body shapes.
 */
const CHECKS = ['not_a_server_error', 'no_write_on_client_error', 'status_code_conformance', 'content_type_conformance', 'response_schema_conformance'];

const log = (line: string): void => void process.stdout.write(`[fuzz] ${line}\n`);

/** The service's settings for the run: quiet background, no rate limit in the way, loopback webhooks. */
const SERVICE_ENV: Record<string, string> = {
  LOG_LEVEL: 'warn',
  TEMPORAL_TASK_QUEUE: `fuzz-${process.pid}`,
  // Background writers kept quiet so a write seen after a 4xx is the request's: the sweep does
  // not run during the run, and deliveries (all to the loopback receiver) succeed at once.
  SWEEP_INTERVAL_SECONDS: '86400',
  WEBHOOK_ALLOW_INSECURE: 'true',
  WEBHOOK_RETRY_INITIAL_SECONDS: '3600',
  // The fuzzer measures behaviour, not the limiter (a 429 would be skipped anyway).
  RATE_LIMIT_PER_SECOND: '100000',
  RATE_LIMIT_BURST: '100000',
  // Every generated sign-in comes from the loopback address: the address throttle would answer the
  // rest of the run 429 (pair and username lockouts still show up, as 429s).
  SIGN_IN_ADDRESS_FAILURES: '100000',
  // A slow, shared machine: the bill's placement must not turn into a 503 through slowness.
  PAYMENT_PLACEMENT_WAIT_SECONDS: '30',
  // Stripe accounts are created but never routed (acquirer_hooks.py); should a call slip through,
  // it meets a closed loopback port rather than Stripe.
  STRIPE_API_BASE: 'http://127.0.0.1:9',
};

/** Whether the credentials and resources the run stands on survived it (else the run lost depth). */
async function fixturesAlive(apiUrl: string, f: Fixtures): Promise<string[]> {
  const main = f.terminals.main[0]!;
  const probes: [string, string, Record<string, string>][] = [
    ['admin session', '/api/users/me', { authorization: `Bearer ${f.credentials.adminSession}` }],
    ['live key', '/api/webhooks/configs', { 'x-api-key': f.credentials.liveKey }],
    [
      'main terminal',
      `/api/merchants/${main.merchantExternalId}/stores/${main.storeExternalId}/terminals/${main.terminalExternalId}`,
      { 'x-api-key': f.credentials.liveKey },
    ],
    ['main webhook config', `/api/webhooks/configs/${f.webhookConfigs.main}`, { 'x-api-key': f.credentials.liveKey }],
    ['main acquirer account', `/api/dashboard/acquirer-accounts/${f.acquirerAccounts.main[0]!.id}`, { authorization: `Bearer ${f.credentials.adminSession}` }],
  ];
  const out: string[] = [];
  for (const [name, p, headers] of probes) {
    const status = await fetch(`${apiUrl}${p}`, { headers, signal: AbortSignal.timeout(30_000) }).then(
      (r) => r.status,
      () => 0,
    );
    out.push(`${name} ${status === 200 ? 'yes' : `NO (${status})`}`);
  }
  return out;
}

/** Runs `st` in the run's own folder, where it keeps its cache (.schemathesis/), not in the repository. */
function runSchemathesis(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(args[0]!, args.slice(1), { cwd, env, stdio: ['ignore', 'inherit', 'inherit'] });
    const forward = (signal: NodeJS.Signals): void => void child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(code ?? (signal ? 128 : 1));
    });
  });
}

async function main(): Promise<number> {
  const opts = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const st = ensureSchemathesis(ROOT, log);
  if (opts.installOnly) return 0;
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'isp-fuzz-'));
  const dataDir = path.join(workDir, 'data');
  fs.mkdirSync(dataDir);

  let stack: RunningStack | undefined;
  let probe: Probe | undefined;
  let receiver: LoopbackReceiver | undefined;
  let deliveries = 0;
  let stopping = false;
  const cleanUp = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    await probe?.close().catch(() => undefined);
    if (stack) {
      log('stopping the service');
      await stack.stop().catch((err: Error) => log(`stop failed: ${err.message}`));
    }
    await receiver?.stop().catch(() => undefined);
    if (!opts.keep) fs.rmSync(workDir, { recursive: true, force: true });
    else log(`kept ${workDir}`);
  };
  const onSignal = (): void => {
    void cleanUp().then(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    // Answers 204 to every delivery: deliveries succeed at once (no retries writing in the
    // background) and none leaves the machine (the hooks point every webhook URL here).
    receiver = await new LoopbackReceiver(() => (deliveries++, 204)).start();
    log('starting the service (database, Temporal, worker, API, sandbox)');
    // The run fuzzes the API, not the start (test/start covers that): a start that failed is
    // reported with its log and tried once more on a fresh data folder.
    stack = await startStack({ root: ROOT, dataDir, env: SERVICE_ENV, readyTimeoutMs: 300_000 }).catch((err: Error) => {
      log(`the service did not start, trying once more: ${err.message}`);
      const secondDir = path.join(dataDir, 'second-start');
      fs.mkdirSync(secondDir);
      return startStack({ root: ROOT, dataDir: secondDir, env: SERVICE_ENV, readyTimeoutMs: 300_000 });
    });
    log(`service ready at ${stack.apiUrl} after ${Math.round((Date.now() - started) / 1000)} s; creating fixtures`);
    const fixtures = await createFixtures({
      apiUrl: stack.apiUrl,
      sandboxUrl: stack.sandboxUrl,
      databaseUrl: stack.databaseUrl,
      receiverUrl: receiver.url,
      log,
    });
    probe = await startProbe(stack.databaseUrl, fixtures.merchantIds);
    const fixturesFile = path.join(workDir, 'fixtures.json');
    fs.writeFileSync(fixturesFile, JSON.stringify(fixtures, null, 2));
    const statsFile = path.join(workDir, 'stats.json');

    // Schemathesis would otherwise sign up a user of its own through POST /api/users and log in
    // as it (auth bootstrap); the run brings its own credentials (fuzz_hooks.py).
    const configFile = path.join(workDir, 'schemathesis.toml');
    fs.writeFileSync(configFile, '[auth]\nauto-signup = false\n');
    const args = [
      st.bin,
      '--config-file',
      configFile,
      'run',
      `${stack.apiUrl}/openapi.json`,
      // One worker: the table snapshots around a call must not see another call's writes.
      '--workers',
      '1',
      '--checks',
      CHECKS.join(','),
      '--max-time',
      String(opts.maxTime),
      '--max-examples',
      String(opts.maxExamples),
      '--request-timeout',
      '60',
      '--generation-database',
      'none',
      '--suppress-health-check',
      'too_slow,filter_too_much',
      '--no-color',
      ...(opts.selfTest ? ['--include-path', '/api/auth/login', '--phases', 'examples,coverage,fuzzing'] : []),
      ...(opts.seed ? ['--seed', opts.seed] : []),
      ...opts.extra,
    ];
    log(`fuzzing for at most ${opts.maxTime} s: ${args.slice(1).join(' ')}`);
    const fuzzStarted = Date.now();
    const code = await runSchemathesis(args, workDir, {
      ...process.env,
      PYTHONPATH: [st.pythonPath, __dirname].join(path.delimiter),
      SCHEMATHESIS_HOOKS: 'fuzz_hooks',
      FUZZ_FIXTURES: fixturesFile,
      FUZZ_PROBE_URL: probe.url,
      FUZZ_STATS_FILE: statsFile,
      FUZZ_SELF_TEST: opts.selfTest ? '1' : '0',
      FUZZ_STRICT: opts.strict ? '1' : '0',
      PYTHONDONTWRITEBYTECODE: '1',
    });
    const alive = await fixturesAlive(stack.apiUrl, fixtures);
    const acquirerDepth = await acquirerReach(stack.apiUrl, fixtures.credentials.adminSession).catch((err: Error) => `unreadable (${err.message})`);
    // After schemathesis (its fixtures may be changed by what follows): the shapes an attacker sends.
    const hostileStarted = Date.now();
    const hostile = opts.selfTest
      ? { requests: 0, failures: [] }
      : await hostileShapes({ apiUrl: stack.apiUrl, sandboxUrl: stack.sandboxUrl, temporalUiUrl: stack.temporalUiUrl, fixtures, log });
    const stats = fs.existsSync(statsFile) ? (JSON.parse(fs.readFileSync(statsFile, 'utf8')) as Record<string, unknown>) : {};
    log('summary');
    log(`  schemathesis exit code: ${code} (${code === 0 ? 'no failure' : 'failures above'})`);
    log(`  fuzzing took ${Math.round((Date.now() - fuzzStarted) / 1000)} s, the whole run ${Math.round((Date.now() - started) / 1000)} s`);
    log(`  4xx responses checked for writes: ${stats.checked4xx ?? 0}; writes confirmed by replay: ${stats.confirmedWrites ?? 0}`);
    log(`  writes seen during a 4xx but not reproduced (background work): ${stats.backgroundWrites ?? 0} ${JSON.stringify(stats.backgroundTables ?? {})}`);
    const known = (stats.knownFindings ?? {}) as Record<string, number>;
    const unused = ((stats.knownFindingNames ?? []) as string[]).filter((n) => !known[n]);
    if (opts.strict) log('  known findings: not excused (--strict)');
    else {
      log(`  known findings excused by the baseline (scripts/fuzz/known_findings.py): ${Object.keys(known).length ? '' : 'none'}`);
      for (const [name, count] of Object.entries(known)) log(`    - ${name}: ${count}`);
      if (unused.length) log(`  baseline entries that matched nothing this run (fixed? then delete them): ${unused.join('; ')}`);
    }
    log(`  webhook deliveries received: ${deliveries}`);
    log(
      `  hostile shapes: ${hostile.requests} requests in ${Math.round((Date.now() - hostileStarted) / 1000)} s, ${hostile.failures.length} failed (5xx or no answer)`,
    );
    for (const failure of hostile.failures.slice(0, 50)) log(`    - ${failure}`);
    log(`  fixtures still usable at the end: ${alive.join(', ')}`);
    log(`  acquirer accounts and routes after the schema-driven run: ${acquirerDepth}`);
    if (opts.selfTest) {
      const caught = Number(stats.confirmedWrites ?? 0) > 0 && code !== 0;
      log(caught ? '  self-test passed: the check caught the write of a failed sign-in' : '  SELF-TEST FAILED: the write of a failed sign-in went unnoticed');
      return caught ? 0 : 1;
    }
    const passed = code === 0 && hostile.failures.length === 0;
    log(passed ? '  result: PASSED' : '  result: FAILED (see the failures above)');
    return passed ? 0 : 1;
  } catch (err) {
    log(`failed: ${err instanceof Error ? err.message : String(err)}`);
    if (stack && fs.existsSync(stack.logFile)) {
      const tail = fs.readFileSync(stack.logFile, 'utf8').split('\n').slice(-40).join('\n');
      log(`last lines of the service log:\n${tail}`);
    }
    return 1;
  } finally {
    await cleanUp();
  }
}

main().then(
  (code) => process.exit(code),
  (err: Error) => {
    log(`failed: ${err.message}`);
    process.exit(1);
  },
);
