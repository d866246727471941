import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, type Worker } from '@temporalio/worker';
import { createAcquirers } from './acquirer/acquirers';
import { startSandboxServer } from './acquirer/sandbox/server';
import { AcquirerResolver } from './acquirer/resolver';
import type { Config } from './config';
import { createDb, type Db } from './db/client';
import { createApp } from './http/app';
import { refuseSandboxWithLiveKeys } from './security/startChecks';
import { grantKeys, messageGrantInterceptor } from './security/messageGrants';
import { useKeyring } from './secrets/active';
import { withInstallationSecrets } from './secrets/installation';
import { Keyring } from './secrets/keyring';
import { checkStoredSecrets, resealStoredSecrets } from './secrets/stored';
import { errorBody } from './http/errors';
import { RateLimiter } from './http/rateLimit';
import { securityHeadersFor } from './http/securityHeaders';
import { createLimitStore } from './security/limits';
import { SignInThrottle } from './users/signInThrottle';
import type { Logger } from './logger';
import { setTemporalMetricsUrl } from './observability/metrics';
import { startMetricsServer } from './observability/metricsServer';
import { ensureSearchAttributes } from './temporal/searchAttributesRegistration';
import { startTracing } from './observability/tracing';
import { createWorker } from './temporal/worker';
import { ensureSweepSchedule } from './payments/sweepSchedule';
import { ensureAutoCloseSchedule } from './settlement/autoClose';
import { ensureComplianceSchedule } from './compliance/daily';
import { paymentIdOfWorkflowId } from '../core/payment/messages';

/**
 * The parts of one process, as SERVICES names them: the HTTP API, the Temporal worker and the
 * sandbox acquirer. The database and Temporal are reached by URL and address; starting them
 * (embedded) is the job of src/main.ts.
 */
export interface RunningService {
  /** The configuration as this process runs it: generated installation secrets filled in (src/secrets/installation.ts). */
  config: Config;
  apiUrl?: string;
  sandboxUrl?: string;
  /** The development mailbox (smtp://), when this process runs the sandbox and SMTP_URL is unset (docs/receipts.md). */
  mailUrl?: string;
  /** GET /metrics of this process (METRICS_HOST:METRICS_PORT), when it runs the API or a worker. */
  metricsUrl?: string;
  db?: Db;
  client?: Client;
  worker?: Worker;
  stop(): Promise<void>;
}

export interface ServiceTargets {
  databaseUrl: string;
  temporalAddress: string;
}

function listen(server: http.Server, host: string, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const { port: actual } = server.address() as AddressInfo;
      resolve(`http://${host}:${actual}`);
    });
  });
}

export async function startService(given: Config, targets: ServiceTargets, logger: Logger): Promise<RunningService> {
  let config = withInstallationSecrets(given);
  const services = new Set(config.SERVICES);
  const stops: (() => Promise<void>)[] = [];
  const stop = async (): Promise<void> => {
    for (const s of stops.reverse()) await s().catch((err) => logger.error({ err }, 'stop failed'));
  };
  const running: RunningService = { config, stop };
  try {
    // Bind the API port first: the sandbox needs the API's address to send its notifications.
    let apiServer: http.Server | undefined;
    if (services.has('api')) {
      apiServer = http.createServer();
      // Until the app is attached, every request gets 503 with Retry-After (never a hung socket).
      apiServer.on('request', notReadyYet);
      running.apiUrl = await listen(apiServer, config.HOST, config.PORT);
      const server = apiServer;
      stops.push(
        () =>
          new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeAllConnections();
          }),
      );
    }
    if (services.has('sandbox')) {
      const sandbox = await startSandboxServer({
        host: config.HOST,
        port: config.SIM_PORT,
        dataDir: config.dataDir,
        notifyUrl: config.SANDBOX_NOTIFY_URL ?? `${running.apiUrl ?? `http://${config.HOST}:${config.PORT}`}/internal/acquirer/notifications`,
        notifySecret: config.SANDBOX_NOTIFY_SECRET!,
        logger: logger.child({ part: 'sandbox' }),
        // Without a relay, receipts go to the development mailbox beside the sandbox (docs/receipts.md).
        ...(config.SMTP_URL ? {} : { mailPort: config.MAIL_PORT }),
      });
      running.sandboxUrl = sandbox.url;
      if (sandbox.mailUrl) {
        running.mailUrl = sandbox.mailUrl;
        // MAIL_PORT 0 (tests): this process's worker sends to the port the mailbox took.
        config = { ...config, smtpUrl: sandbox.mailUrl };
        running.config = config;
      }
      stops.push(() => sandbox.close());
    }
    if (!services.has('api') && !services.has('worker')) return running;

    const metrics = await startMetricsServer(config.METRICS_HOST, config.METRICS_PORT);
    running.metricsUrl = metrics.url;
    stops.push(() => metrics.close());

    const db = createDb(targets.databaseUrl, { poolSize: config.DATABASE_URL ? 10 : 4 });
    running.db = db;
    stops.push(() => db.$disconnect());
    const acquirers = createAcquirers(config, config.SANDBOX_URL ?? running.sandboxUrl ?? config.sandboxUrl, db);
    const acquirer = acquirers.live;
    await refuseSandboxWithLiveKeys(config, db);
    // Stored secrets open with SECRETS_KEY (or a clear start-up error); clear-text ones from before encryption are sealed.
    const keyring = Keyring.fromText(config.SECRETS_KEY!, config.SECRETS_KEY_PREVIOUS);
    await checkStoredSecrets(db, keyring);
    useKeyring(keyring);
    const resealed = await resealStoredSecrets(db, keyring);
    if (resealed.mfa + resealed.webhook > 0) logger.info(resealed, 'clear-text secrets sealed with SECRETS_KEY');

    // One native connection (the SDK's Rust core) for the client and the worker: the client's gRPC
    // calls cost no JavaScript encoding on this process's event loop (docs/benchmark.md).
    const connection = await NativeConnection.connect({ address: targets.temporalAddress });
    stops.push(() => connection.close());
    await ensureSearchAttributes(connection, config.TEMPORAL_NAMESPACE);
    const tracing = await startTracing(config);
    if (tracing) stops.push(() => tracing.shutdown());
    // Money-moving messages this process sends carry its grant (docs/security.md, "Messages to workflows").
    const client = new Client({
      connection,
      namespace: config.TEMPORAL_NAMESPACE,
      plugins: tracing ? [tracing.plugin] : [],
      interceptors: { workflow: [messageGrantInterceptor(grantKeys(config))] },
    });
    running.client = client;

    if (services.has('worker')) {
      const worker = await createWorker({
        config,
        db,
        acquirer,
        acquirers,
        temporal: client,
        logger: logger.child({ part: 'worker' }),
        connection,
        plugins: tracing ? [tracing.plugin] : [],
      });
      running.worker = worker;
      if (config.WORKER_DEPLOYMENT_NAME) {
        // A new version gets no new workflows until it is made current (docs/operations.md, "Upgrading with worker versioning").
        logger.info(
          { deploymentName: config.WORKER_DEPLOYMENT_NAME, buildId: config.WORKER_BUILD_ID },
          'worker versioning: polling as this Worker Deployment Version; new workflows reach it once it is current',
        );
      }
      const done = worker.run();
      stops.push(async () => {
        if (worker.getState() === 'RUNNING') worker.shutdown();
        await done.catch((err) => logger.error({ err }, 'worker stopped with an error'));
      });
      // The reconciliation sweep (payments): a Schedule on this worker's task queue.
      await ensureSweepSchedule(client, config, logger.child({ part: 'sweep' }));
      // The daily settlement close (docs/settlement.md, "Closing a batch"): a Schedule on this worker's task queue.
      await ensureAutoCloseSchedule(client, config, logger.child({ part: 'settlement' }));
      // The daily compliance evaluation (docs/disputes.md, "Compliance alerts"): a Schedule on this worker's task queue.
      await ensureComplianceSchedule(client, config, logger.child({ part: 'compliance' }));
    }
    if (apiServer) {
      // Rate limits and sign-in throttles counted in the database, so they hold across API processes.
      const limits = createLimitStore(targets.databaseUrl);
      stops.push(() => limits.close());
      const app = createApp({
        config,
        db,
        temporal: client,
        acquirer,
        acquirers,
        resolver: new AcquirerResolver(db, acquirers),
        logger: logger.child({ part: 'api' }),
        rateLimiter: new RateLimiter(limits, config.RATE_LIMIT_PER_SECOND, config.RATE_LIMIT_BURST),
        signInThrottle: new SignInThrottle(limits, {
          lockoutSeconds: config.SIGN_IN_LOCKOUT_SECONDS,
          addressFailures: config.SIGN_IN_ADDRESS_FAILURES,
          usernameFailures: config.SIGN_IN_USERNAME_FAILURES,
          usernameCooldownSeconds: config.SIGN_IN_USERNAME_COOLDOWN_SECONDS,
        }),
      });
      apiServer.off('request', notReadyYet);
      const handle = app.callback();
      // Koa's handler answers every error itself; its promise is let go on purpose.
      apiServer.on('request', (req, res) => void handle(req, res));
    }
    return running;
  } catch (err) {
    await stop();
    throw err;
  }
}

/** The answer while the API is starting: the API's error shape, and when to try again. */
export function notReadyYet(req: http.IncomingMessage, res: http.ServerResponse): void {
  const body = JSON.stringify(errorBody(503, 'the service is starting; retry shortly'));
  req.resume(); // a request body is read and dropped, so the connection stays usable
  res.writeHead(503, {
    ...securityHeadersFor('/api'),
    'Content-Type': 'application/json; charset=utf-8',
    'Retry-After': '1',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

/** A payment workflow's (or its activity's) log line names the payment, as the API's lines do. */
function paymentOf(meta: Record<string, unknown> | undefined): { paymentId?: string } {
  const paymentId = typeof meta?.workflowId === 'string' ? paymentIdOfWorkflowId(meta.workflowId) : undefined;
  return paymentId ? { paymentId } : {};
}

/**
 * Routes the Temporal SDK's own logs through pino, and serves its own metrics (worker slots,
 * poll and task latencies) in Prometheus format on `metricsAddress`, which GET /metrics appends.
 * Once per process.
 */
export function installTemporalRuntime(logger: Logger, metricsAddress?: string): void {
  try {
    Runtime.install({
      logger: new DefaultLogger('WARN', (entry) => logger.warn({ ...paymentOf(entry.meta), temporal: entry.meta }, entry.message)),
      ...(metricsAddress ? { telemetryOptions: { metrics: { prometheus: { bindAddress: metricsAddress } } } } : {}),
    });
    setTemporalMetricsUrl(metricsAddress ? `http://${metricsAddress}/metrics` : undefined);
  } catch {
    // already installed in this process (tests start several stacks)
  }
}
