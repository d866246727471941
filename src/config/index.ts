import path from 'node:path';
import { z } from 'zod';

/**
 * Every environment variable (README, "Configuration"), read and validated once at boot. A bad value stops
 * the start with a message naming the variable and the reason (ConfigError).
 */
const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' }).transform((v) => v === 'true' || v === '1' || v === 'yes');
const port = z.coerce.number({ message: 'must be a number' }).int('must be an integer').min(1, 'must be 1-65535').max(65535, 'must be 1-65535');
/** A listening port of ours: 0 lets the system pick a free one (tests). */
const listenPort = z.coerce.number({ message: 'must be a number' }).int('must be an integer').min(0, 'must be 0-65535').max(65535, 'must be 0-65535');
const positive = z.coerce.number({ message: 'must be a number' }).positive('must be greater than zero');
/** A ratio threshold, kept as exact decimal text: greater than 0, at most 1. */
const ratio = z
  .string()
  .regex(/^\d+(\.\d+)?$/, 'must be a decimal number such as 0.01')
  .refine((v) => Number(v) > 0 && Number(v) <= 1, 'must be greater than 0 and at most 1');
const positiveInt = z.coerce.number({ message: 'must be a number' }).int('must be an integer').positive('must be greater than zero');
/** A Worker Deployment's name or build id as Temporal accepts them (server 1.32: at most 400 characters, no leading `__`). */
const deploymentPart = (text = z.string()) => text.max(400, 'must be at most 400 characters').refine((v) => !v.startsWith('__'), "must not start with '__'");

/** 32 bytes: 64 hex characters or base64 (src/secrets/keyring.ts checks the byte count). */
const KEY_TEXT = /^(?:[0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)$/;
const KEY_MESSAGE = 'must be 32 bytes as 64 hex characters or base64 (openssl rand -hex 32)';

export const SERVICE_NAMES = ['api', 'worker', 'sandbox'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export const configSchema = z
  .object({
    NODE_ENV: z.string().default('development'),
    HOST: z.string().min(1).default('127.0.0.1'),
    PORT: listenPort.default(3000),
    SIM_PORT: listenPort.default(3100),
    TEMPORAL_PORT: port.default(7233),
    TEMPORAL_UI_PORT: port.default(8233),
    /** The dev server's Web UI with its write actions (signal, update, terminate, ...): off unless asked for (docs/security.md). */
    TEMPORAL_UI_WRITE_ACTIONS: bool.default(false),
    EMBEDDED_DB_PORT: port.default(5433),
    /** GET /metrics of this process, on its own address (never the API's port); 0 picks a free port. */
    METRICS_HOST: z.string().min(1).default('127.0.0.1'),
    METRICS_PORT: listenPort.default(0),
    /** The Temporal SDK's own Prometheus endpoint (worker metrics); 0 picks a free port. */
    TEMPORAL_METRICS_PORT: listenPort.default(0),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgresql:// URL')
      .optional(),
    TEMPORAL_ADDRESS: z
      .string()
      .regex(/^[^:\s]+:\d+$/, 'must be host:port')
      .optional(),
    TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
    TEMPORAL_TASK_QUEUE: z.string().min(1).default('in-store-payments'),
    /** Workflows a worker keeps in memory between their tasks (issue 13: most of the worker's memory with many open payments). */
    WORKER_MAX_CACHED_WORKFLOWS: positiveInt.default(2000),
    /**
     * A prebuilt workflow bundle (`npm run build:workflows`, docs/operations.md): the worker loads it
     * instead of bundling workflows/ at start, as the SDK recommends in production; an upgrade ships
     * a new bundle. Unset, or with OTEL_ENABLED (tracing's workflow interceptors join a bundle only
     * when it is made): bundled from the sources at start.
     */
    WORKFLOW_BUNDLE: z.string().min(1).optional(),
    /**
     * Worker versioning (docs/operations.md, "Upgrading with worker versioning"): the Worker
     * Deployment this worker belongs to and its build's id. Both set: the worker polls as that
     * Deployment Version; payments stay on the build they began on (PINNED), the long-lived
     * workflows move to the current build (workflows/versioning.ts). Both unset: unversioned.
     */
    WORKER_DEPLOYMENT_NAME: deploymentPart(z.string().regex(/^[^.:]+$/, "must not contain '.' or ':'")).optional(),
    WORKER_BUILD_ID: deploymentPart().optional(),
    TEMPORAL_CLI_PATH: z.string().min(1).optional(),
    ACQUIRER: z.enum(['sandbox', 'stripe'], { message: "must be 'sandbox' or 'stripe'" }).default('sandbox'),
    /** ACQUIRER=stripe (docs/acquirers.md): the secret (sk_) or restricted (rk_) key live payments use. */
    STRIPE_API_KEY: z
      .string()
      .regex(/^(sk|rk)_(live|test)_[A-Za-z0-9_]+$/, 'must be a Stripe secret key (sk_live_..., sk_test_...) or restricted key (rk_...)')
      .optional(),
    /** The signing secret of our Stripe webhook endpoint (whsec_...). */
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_[A-Za-z0-9_]+$/, 'must be a Stripe webhook signing secret (whsec_...)')
      .optional(),
    /** Where the Stripe API is; only for tests (stripe-mock on a loopback port). */
    STRIPE_API_BASE: z.string().url('must be a URL').optional(),
    /** Where Adyen is for every adyen account (all its APIs, Adyen's own paths); only for tests (the loopback stand-in). */
    ADYEN_API_BASE: z.string().url('must be a URL').optional(),
    /**
     * How far an adyen close's report period trails the close (docs/acquirers.md, "Adyen:
     * settlement"): Adyen writes a day's Payment accounting report the morning after, so a close
     * reads the bookings of the period this many hours earlier, whose files exist. Keep it constant.
     */
    ADYEN_REPORT_LAG_HOURS: z.coerce.number({ message: 'must be a number' }).min(0, 'must be 0 or more').default(48),
    /**
     * The defense period an Adyen dispute is given from when its first notification arrived
     * (docs/disputes.md, "Adyen"): the notification's own defensePeriodEndsAt is not signed, so it
     * never sets the due date.
     */
    ADYEN_DEFENSE_PERIOD_DAYS: z.coerce.number({ message: 'must be a number' }).positive('must be more than 0').max(60, 'must be at most 60').default(7),
    SANDBOX_URL: z.string().url('must be a URL').optional(),
    SANDBOX_NOTIFY_URL: z.string().url('must be a URL').optional(),
    /** A production start with ACQUIRER=sandbox refuses while live API keys exist, unless this is true. */
    SANDBOX_ALLOW_LIVE_KEYS: bool.default(false),
    /** Unset: generated once into DATA_DIR (src/secrets/installation.ts); required in production. */
    SANDBOX_NOTIFY_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
    /** How far a notification's signed timestamp may be from this process's clock. */
    SANDBOX_NOTIFY_TOLERANCE_SECONDS: positiveInt.default(300),
    /** AES-256-GCM key sealing MFA and webhook signing secrets (32 bytes, hex or base64). Unset: generated once into DATA_DIR; required in production. */
    SECRETS_KEY: z.string().regex(KEY_TEXT, KEY_MESSAGE).optional(),
    /** Comma list of earlier SECRETS_KEY values, accepted for reading while a rotation runs (docs/security.md). */
    SECRETS_KEY_PREVIOUS: z
      .string()
      .refine((v) => v.split(',').every((k) => KEY_TEXT.test(k.trim()) || k.trim() === ''), KEY_MESSAGE)
      .optional(),
    SERVICES: z
      .string()
      .default('api,worker,sandbox')
      .transform((v, ctx) => {
        const parts = v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        for (const p of parts) {
          if (!(SERVICE_NAMES as readonly string[]).includes(p)) {
            ctx.addIssue({ code: 'custom', message: `unknown service '${p}', expected any of ${SERVICE_NAMES.join(', ')}` });
            return z.NEVER;
          }
        }
        if (parts.length === 0) {
          ctx.addIssue({ code: 'custom', message: 'must name at least one service' });
          return z.NEVER;
        }
        return parts as ServiceName[];
      }),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    RATE_LIMIT_PER_SECOND: positive.default(50),
    RATE_LIMIT_BURST: positiveInt.default(100),
    /** Sign-in throttling (docs/security.md): how long an address, or an address on one username, waits once over its limit. */
    SIGN_IN_LOCKOUT_SECONDS: positive.default(900),
    /** Failed sign-ins one address may make (any usernames) within SIGN_IN_LOCKOUT_SECONDS. */
    SIGN_IN_ADDRESS_FAILURES: positiveInt.default(100),
    /** Failed sign-ins in a row on one username (any addresses) before its short cool-down. */
    SIGN_IN_USERNAME_FAILURES: positiveInt.default(10),
    /** The username's cool-down, for the addresses that have failed on it. */
    SIGN_IN_USERNAME_COOLDOWN_SECONDS: positive.default(60),
    /** True behind one reverse proxy: the client address is the last one it adds to X-Forwarded-For. */
    TRUST_PROXY: bool.default(false),
    KEY_ROTATION_GRACE_HOURS: positive.default(24),
    SESSION_TTL_HOURS: positive.default(12),
    /** A dashboard session unused for longer than this ends (401), within its SESSION_TTL_HOURS lifetime. */
    SESSION_IDLE_MINUTES: positive.default(30),
    /** How long a bill stays OPEN when its creation names no timeoutMinutes (docs/bills.md): then it is given back. */
    BILL_TIMEOUT_MINUTES: positiveInt.max(1440, 'must be at most 1440').default(30),
    TERMINAL_TIMEOUT_DEFAULT_MINUTES: positive.default(5),
    TERMINAL_TIMEOUT_MIN_MINUTES: positive.default(1),
    TERMINAL_TIMEOUT_MAX_MINUTES: positive.default(60),
    EXPIRY_GRACE_SECONDS: z.coerce.number({ message: 'must be a number' }).min(0, 'must be zero or more').default(30),
    SWEEP_INTERVAL_SECONDS: positive.default(120),
    VOID_WINDOW_MINUTES: positive.default(1395),
    /** docs/settlement.md, "The business date": a store's business day ends at this local hour; the daily close runs then. */
    SETTLEMENT_CUTOFF_HOUR: z.coerce
      .number({ message: 'must be a number' })
      .int('must be an integer')
      .min(0, 'must be 0-23')
      .max(23, 'must be 0-23')
      .default(2),
    SETTLEMENT_AUTO_CLOSE: bool.default(true),
    /** How often the daily close looks for stores whose business day has ended. */
    SETTLEMENT_AUTO_CLOSE_CHECK_SECONDS: positive.default(60),
    /** How many payments a close settles at once (each an update of the payment's own workflow). */
    SETTLEMENT_SETTLE_CONCURRENCY: z.coerce
      .number({ message: 'must be a number' })
      .int('must be an integer')
      .min(1, 'must be 1 or more')
      .max(500, 'must be at most 500')
      .default(50),
    VOID_CONFIRM_TIMEOUT_SECONDS: positive.default(10),
    /** Two-step: an authorisation neither completed nor released this long after its approval is released (docs/payments.md, "Two-step completion"). */
    AUTHORIZATION_WINDOW_MINUTES: positive.default(2160),
    /** How long a refund request waits for the acquirer's decision before answering PENDING (docs/refunds.md, "Rules"). */
    REFUND_CONFIRM_TIMEOUT_SECONDS: positive.default(10),
    /** Disputes (docs/disputes.md, "The response window: two timers"): DISPUTE_RESPONSE_DUE this long before a dispute's dueBy. */
    DISPUTE_REMINDER_HOURS: positive.default(48),
    /** While a submitted dispute waits for the scheme's decision, the acquirer is re-read at least this often (a lost notification is repaired). */
    DISPUTE_DECISION_CHECK_MINUTES: positive.default(360),
    /** Payouts (docs/payouts-and-fees.md, "Payouts"): an IN_TRANSIT payout is re-read this often even without a notification. */
    PAYOUT_RECHECK_MINUTES: positive.default(360),
    /** How long after PAID a Stripe payout's failure is still heard (Stripe: some failed payouts show paid first), in days. */
    PAYOUT_FAILURE_WATCH_DAYS: positive.default(10),
    /** Compliance alerts (docs/disputes.md, "Compliance alerts"): the rolling window, in days, over which the ratios are measured. */
    COMPLIANCE_WINDOW_DAYS: positive.default(30),
    /** Disputes opened over payments captured in the window above this raises CHARGEBACK_RATIO (Mastercard's excessive-chargeback measure)... */
    COMPLIANCE_CHARGEBACK_RATIO: ratio.default('0.01'),
    /** ...with at least this many disputes opened in the window. */
    COMPLIANCE_CHARGEBACK_MIN_COUNT: positiveInt.default(100),
    /** Refunded amount over captured amount in the window above this raises REFUND_RATIO... */
    COMPLIANCE_REFUND_RATIO: ratio.default('0.10'),
    /** ...with at least this many refunds succeeded in the window. */
    COMPLIANCE_REFUND_MIN_COUNT: positiveInt.default(20),
    /** How long a payment creation waits for the bill to reach the device before answering 503 (the payment stays open). */
    PAYMENT_PLACEMENT_WAIT_SECONDS: positive.default(10),
    DELETE_GUARD_HOURS: positive.default(24),
    BODY_LIMIT_BYTES: positiveInt.default(1024 * 1024),
    WEBHOOK_RETRY_INITIAL_SECONDS: positive.default(10),
    WEBHOOK_RETRY_MAX_INTERVAL_SECONDS: positive.default(3600),
    WEBHOOK_RETRY_MAX_AGE_HOURS: positive.default(72),
    WEBHOOK_TIMEOUT_SECONDS: positive.default(10),
    WEBHOOK_ALLOW_INSECURE: bool.default(false),
    /** The mail relay receipts go through (docs/receipts.md): smtp://user:pass@host:port, smtps:// for TLS. Unset: the development mailbox on MAIL_PORT. */
    SMTP_URL: z
      .string()
      .url('must be a URL')
      .refine((v) => /^smtps?:\/\//i.test(v), 'must start with smtp:// or smtps://')
      .optional(),
    /** The development mailbox's SMTP port (run with the sandbox when SMTP_URL is unset); 0 picks a free port. */
    MAIL_PORT: listenPort.default(3200),
    /** The sender address of receipt emails; the sender name is the business's name. */
    RECEIPT_FROM_ADDRESS: z
      .string()
      .regex(/^[^\s@<>]+@[^\s@<>]+$/, 'must be an email address')
      .default('receipts@localhost'),
    /** The longest wait between two attempts of a receipt email while the mail server refuses it. */
    RECEIPT_RETRY_MAX_INTERVAL_SECONDS: positive.default(60),
    /** How long one attempt at a receipt email may take before it counts as failed (a worker that died mid-send: then retried). */
    RECEIPT_ATTEMPT_TIMEOUT_SECONDS: positive.default(60),
    /** How long a receipt email is retried before RECEIPT_FAILED. */
    RECEIPT_RETRY_MAX_AGE_HOURS: positive.default(24),
    OTEL_ENABLED: bool.default(false),
    OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url('must be a URL').default('http://127.0.0.1:4318'),
    OTEL_SERVICE_NAME: z.string().min(1).default('in-store-payments'),
  })
  .superRefine((c, ctx) => {
    if (c.ACQUIRER === 'stripe') {
      if (!c.STRIPE_API_KEY) ctx.addIssue({ code: 'custom', path: ['STRIPE_API_KEY'], message: 'must be set when ACQUIRER is stripe' });
      if (!c.STRIPE_WEBHOOK_SECRET) ctx.addIssue({ code: 'custom', path: ['STRIPE_WEBHOOK_SECRET'], message: 'must be set when ACQUIRER is stripe' });
    }
    // Production never falls back to generated secrets: several processes must share them, and a
    // container's DATA_DIR may not outlive it (losing SECRETS_KEY loses every MFA and webhook secret).
    if (c.NODE_ENV === 'production') {
      const runs = (s: ServiceName) => c.SERVICES.includes(s);
      if (!c.SECRETS_KEY && (runs('api') || runs('worker'))) ctx.addIssue({ code: 'custom', path: ['SECRETS_KEY'], message: 'must be set in production' });
      if (!c.SANDBOX_NOTIFY_SECRET && (runs('api') || runs('sandbox'))) {
        ctx.addIssue({ code: 'custom', path: ['SANDBOX_NOTIFY_SECRET'], message: 'must be set in production' });
      }
    }
    // A version is the pair: one without the other would be a worker no deployment routes to.
    if (!!c.WORKER_DEPLOYMENT_NAME !== !!c.WORKER_BUILD_ID) {
      const missing = c.WORKER_DEPLOYMENT_NAME ? 'WORKER_BUILD_ID' : 'WORKER_DEPLOYMENT_NAME';
      const other = missing === 'WORKER_BUILD_ID' ? 'WORKER_DEPLOYMENT_NAME' : 'WORKER_BUILD_ID';
      ctx.addIssue({ code: 'custom', path: [missing], message: `must be set when ${other} is set (worker versioning needs both)` });
    }
    if (c.TERMINAL_TIMEOUT_MIN_MINUTES > c.TERMINAL_TIMEOUT_MAX_MINUTES) {
      ctx.addIssue({ code: 'custom', path: ['TERMINAL_TIMEOUT_MIN_MINUTES'], message: 'must not exceed TERMINAL_TIMEOUT_MAX_MINUTES' });
    }
    const d = c.TERMINAL_TIMEOUT_DEFAULT_MINUTES;
    if (d < c.TERMINAL_TIMEOUT_MIN_MINUTES || d > c.TERMINAL_TIMEOUT_MAX_MINUTES) {
      ctx.addIssue({ code: 'custom', path: ['TERMINAL_TIMEOUT_DEFAULT_MINUTES'], message: 'must lie between the min and max terminal timeout' });
    }
  });

export type Config = z.infer<typeof configSchema> & {
  /** Absolute DATA_DIR. */
  dataDir: string;
  /** The acquirer's base URL (the sandbox's own port unless SANDBOX_URL is set). */
  sandboxUrl: string;
  /** The mail relay receipts are sent through: SMTP_URL, else the development mailbox on MAIL_PORT. */
  smtpUrl: string;
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Variables that are set but empty count as unset, as shells and compose files often produce them. */
function withoutEmpty(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v !== '') out[k] = v;
  return out;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse(withoutEmpty(env));
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || 'environment'}: ${i.message}`));
  }
  const c = parsed.data;
  return {
    ...c,
    dataDir: path.resolve(c.DATA_DIR),
    sandboxUrl: c.SANDBOX_URL ?? `http://${c.HOST}:${c.SIM_PORT}`,
    smtpUrl: c.SMTP_URL ?? `smtp://${c.HOST.includes(':') ? `[${c.HOST}]` : c.HOST}:${c.MAIL_PORT}`,
  };
}

/** Names of every variable the configuration module reads (kept in step with docker-compose.yml by a test). */
export const CONFIG_VARIABLES = Object.keys(configSchema.shape) as string[];
