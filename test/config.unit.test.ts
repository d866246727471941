import { ConfigError, loadConfig } from '../src/config';

describe('configuration', () => {
  it('takes the documented defaults (README, "Configuration")', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      PORT: 3000,
      SIM_PORT: 3100,
      TEMPORAL_PORT: 7233,
      TEMPORAL_UI_PORT: 8233,
      EMBEDDED_DB_PORT: 5433,
      HOST: '127.0.0.1',
      TEMPORAL_NAMESPACE: 'default',
      ACQUIRER: 'sandbox',
      SERVICES: ['api', 'worker', 'sandbox'],
      RATE_LIMIT_PER_SECOND: 50,
      RATE_LIMIT_BURST: 100,
      KEY_ROTATION_GRACE_HOURS: 24,
      SESSION_IDLE_MINUTES: 30,
      TERMINAL_TIMEOUT_DEFAULT_MINUTES: 5,
      TERMINAL_TIMEOUT_MIN_MINUTES: 1,
      TERMINAL_TIMEOUT_MAX_MINUTES: 60,
      EXPIRY_GRACE_SECONDS: 30,
      SWEEP_INTERVAL_SECONDS: 120,
      VOID_WINDOW_MINUTES: 1395,
      VOID_CONFIRM_TIMEOUT_SECONDS: 10,
      AUTHORIZATION_WINDOW_MINUTES: 2160,
      REFUND_CONFIRM_TIMEOUT_SECONDS: 10,
      DELETE_GUARD_HOURS: 24,
      WEBHOOK_RETRY_INITIAL_SECONDS: 10,
      WEBHOOK_RETRY_MAX_INTERVAL_SECONDS: 3600,
      WEBHOOK_RETRY_MAX_AGE_HOURS: 72,
      WEBHOOK_TIMEOUT_SECONDS: 10,
      WEBHOOK_ALLOW_INSECURE: false,
    });
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.TEMPORAL_ADDRESS).toBeUndefined();
  });

  it('parses SERVICES as a comma list', () => {
    expect(loadConfig({ SERVICES: 'api, worker' }).SERVICES).toEqual(['api', 'worker']);
  });

  it.each([
    ['PORT', 'abc', /PORT: must be a number/],
    ['PORT', '70000', /PORT: must be 0-65535/],
    ['DATABASE_URL', 'mysql://x', /DATABASE_URL: must be a postgresql:\/\/ URL/],
    ['TEMPORAL_ADDRESS', 'nohostport', /TEMPORAL_ADDRESS: must be host:port/],
    ['SERVICES', 'api,cron', /SERVICES: unknown service 'cron'/],
    ['ACQUIRER', 'adyen', /ACQUIRER: must be 'sandbox' or 'stripe'/],
    ['ACQUIRER', 'stripe', /STRIPE_API_KEY: must be set when ACQUIRER is stripe/],
    ['STRIPE_API_KEY', 'pk_live_abc', /STRIPE_API_KEY: must be a Stripe secret key/],
    ['STRIPE_WEBHOOK_SECRET', 'secret', /STRIPE_WEBHOOK_SECRET: must be a Stripe webhook signing secret/],
    ['WEBHOOK_ALLOW_INSECURE', 'maybe', /WEBHOOK_ALLOW_INSECURE: must be true or false/],
    ['RATE_LIMIT_PER_SECOND', '-1', /RATE_LIMIT_PER_SECOND: must be greater than zero/],
    ['TERMINAL_TIMEOUT_DEFAULT_MINUTES', '90', /TERMINAL_TIMEOUT_DEFAULT_MINUTES: must lie between/],
    ['WORKER_DEPLOYMENT_NAME', 'payments', /WORKER_BUILD_ID: must be set when WORKER_DEPLOYMENT_NAME is set/],
    ['WORKER_BUILD_ID', '2026.11.26', /WORKER_DEPLOYMENT_NAME: must be set when WORKER_BUILD_ID is set/],
    ['WORKER_DEPLOYMENT_NAME', 'in.store', /WORKER_DEPLOYMENT_NAME: must not contain '.' or ':'/],
    ['WORKER_DEPLOYMENT_NAME', '__payments', /WORKER_DEPLOYMENT_NAME: must not start with '__'/],
  ])('refuses %s=%s naming the variable and the reason', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });
});
