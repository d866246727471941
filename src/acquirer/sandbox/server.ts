import type { AddressInfo } from 'node:net';
import { bodyParser } from '@koa/bodyparser';
import Koa from 'koa';
import { ACQUIRER_PREFIX, acquirerRoutes, networkConditions } from './acquirerRoutes';
import { AcquirerCallLog } from './callLog';
import { controlRoutes } from './controlRoutes';
import { startMailbox } from './mailbox';
import { mailboxRoutes } from './mailboxRoutes';
import { SandboxEngine, SandboxError } from './engine';
import { inputShapeProblem } from '../../security/inputShape';
import { errorMiddleware, type SandboxLogger } from './http';
import { createNotifier, type NotifyTarget } from './notify';
import { SandboxStore } from './state';

/**
 * The sandbox acquirer: a separate HTTP server that behaves like a cloud terminal acquirer
 * (docs/acquirers.md, "The sandbox acquirer"). State lives in <dataDir>/sandbox/state.json.
 */
export interface SandboxServerOptions {
  host: string;
  port: number; // 0 picks a free port; the returned url has the real one
  dataDir: string;
  notifyUrl?: NotifyTarget;
  notifySecret: string;
  logger?: SandboxLogger;
  /** How long an unreachable device holds a request before dropping the connection. */
  unreachableHoldMs?: number;
  /** The development mailbox's SMTP port (docs/receipts.md): absent, no mailbox (SMTP_URL names a real relay); 0 picks a free port. */
  mailPort?: number;
}

const quietLogger: SandboxLogger = { info: () => undefined, warn: console.warn, error: console.error };
/** setTimeout's own limit; a later deadline is simply re-armed when the timer fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export async function startSandboxServer(opts: SandboxServerOptions): Promise<{ url: string; mailUrl?: string; close(): Promise<void> }> {
  const logger = opts.logger ?? quietLogger;
  const mailbox = opts.mailPort === undefined ? undefined : await startMailbox({ host: opts.host, port: opts.mailPort });
  const store = new SandboxStore(opts.dataDir);
  store.load();
  const notifier = createNotifier(opts.notifyUrl, opts.notifySecret, logger);
  const engine = new SandboxEngine(
    store,
    (e) => notifier.send(e),
    (err) => logger.error({ err }, 'sandbox state not saved'),
  );

  // One timer for the earliest device timeout or void confirmation, so their notifications go out on time.
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const rearm = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const next = engine.nextDeadline();
    if (closed || next === null) return;
    timer = setTimeout(
      () => {
        engine.settle();
        rearm();
      },
      Math.min(MAX_TIMER_MS, Math.max(0, next - Date.now()) + 5),
    );
    timer.unref();
  };

  const held = new Set<NodeJS.Timeout>();
  const app = new Koa();
  app.use(errorMiddleware(logger));
  app.use(async (_ctx, next) => {
    await next();
    rearm(); // a request may have added or removed a deadline
  });
  const calls = new AcquirerCallLog();
  app.use(calls.middleware(ACQUIRER_PREFIX));
  app.use(
    bodyParser({
      enableTypes: ['json'],
      encoding: 'utf-8',
      onError: (err, ctx) =>
        ctx.throw(
          400,
          err.message === 'Object contains forbidden prototype property'
            ? "body: '__proto__' is a reserved name and not accepted as a key"
            : 'body: not valid JSON',
        ),
    }),
  );
  app.use(async (ctx, next) => {
    // The same edge check as the API's: no prototype keys, NUL characters or runaway nesting.
    const problem = inputShapeProblem(ctx.request.body, 'body');
    if (problem) throw new SandboxError(400, problem);
    await next();
  });
  app.use(networkConditions(engine, { holdMs: opts.unreachableHoldMs ?? 200, held }));
  for (const router of [controlRoutes(engine, calls), mailboxRoutes(mailbox), acquirerRoutes(engine)]) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }

  const server = app.listen(opts.port, opts.host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  }).catch(async (err: unknown) => {
    await mailbox?.close();
    throw err;
  });
  engine.settle(); // bills that expired while the sandbox was down
  rearm();

  const { port } = server.address() as AddressInfo;
  const url = `http://${urlHost(opts.host)}:${port}`;
  const mailUrl = mailbox && `smtp://${urlHost(opts.host)}:${mailbox.port}`;
  logger.info({ url, stateFile: store.file, ...(mailUrl ? { mailUrl } : {}) }, 'sandbox acquirer listening');

  return {
    url,
    ...(mailUrl ? { mailUrl } : {}),
    async close() {
      closed = true;
      await mailbox?.close();
      if (timer) clearTimeout(timer);
      for (const t of held) clearTimeout(t);
      held.clear();
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await stopped;
      await store.save().catch((err) => logger.error({ err }, 'sandbox state not saved'));
      await notifier.drain();
    },
  };
}

/** A wildcard listen address is reached through loopback; IPv6 literals need brackets. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
