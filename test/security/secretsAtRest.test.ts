import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/config';
import { createDb, type Db } from '../../src/db/client';
import { startEmbeddedDatabase } from '../../src/db/embedded';
import { migrate } from '../../src/db/migrate';
import { createLogger } from '../../src/logger';
import { freePort } from '../../src/process/freePort';
import { NOTIFY_SECRET_FILE, SECRETS_KEY_FILE, withInstallationSecrets } from '../../src/secrets/installation';
import { Keyring, SecretsKeyError, sealedKeyId } from '../../src/secrets/keyring';
import { checkStoredSecrets } from '../../src/secrets/stored';
import { startService } from '../../src/service';
import { newTotpSecret } from '../../src/users/mfa';
import { runAdmin } from '../cli/runAdmin';
import { createMerchantWithKey } from '../support/fixtures';
import { call } from '../support/http';
import { startTestStack, TEST_SECRETS_KEY, type TestStack } from '../support/stack';
import { createMerchant, createUser, login, PASSWORD, totpCode } from '../users/helpers';

/**
 * Secrets at rest (issue 15, point 9): MFA secrets and webhook signing secrets are stored sealed
 * with AES-256-GCM under SECRETS_KEY, clear-text rows from before are sealed at start-up, a
 * rotation re-seals everything, and a wrong key stops the start with a clear message.
 */
const KEY_A = crypto.randomBytes(32).toString('hex');
const KEY_B = crypto.randomBytes(32).toString('base64');

const freshDir = (name: string): string => {
  const dir = path.join(process.env.TEST_ROOT!, `${name}-${crypto.randomBytes(4).toString('hex')}`);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
};

describe('the keyring', () => {
  it('seals with a key id and a fresh nonce, opens with the current or a previous key, and refuses what does not authenticate', () => {
    const a = Keyring.fromText(KEY_A);
    const sealed = a.seal('JBSWY3DPEHPK3PXP', 'mfa');
    expect(sealed).toMatch(/^enc:v1:[0-9a-f]{12}:[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(a.seal('JBSWY3DPEHPK3PXP', 'mfa')).not.toBe(sealed);
    expect(a.open(sealed, 'mfa')).toBe('JBSWY3DPEHPK3PXP');
    // Clear text written before encryption existed reads as is.
    expect(a.open('whsec_legacy', 'webhook')).toBe('whsec_legacy');
    // A value sealed for one column does not open as another's.
    expect(() => a.open(sealed, 'webhook')).toThrow(SecretsKeyError);
    // One character in the middle: all its six bits are data (the last one may carry padding bits).
    const middle = Math.floor(sealed.length / 2) + 10;
    const tampered = sealed.slice(0, middle) + (sealed[middle] === 'A' ? 'B' : 'A') + sealed.slice(middle + 1);
    expect(() => a.open(tampered, 'mfa')).toThrow(/does not authenticate/);

    const b = Keyring.fromText(KEY_B);
    expect(() => b.open(sealed, 'mfa')).toThrow(/neither SECRETS_KEY nor in SECRETS_KEY_PREVIOUS/);
    const rotating = Keyring.fromText(KEY_B, `${KEY_A}`);
    expect(rotating.open(sealed, 'mfa')).toBe('JBSWY3DPEHPK3PXP');
    expect(sealedKeyId(rotating.seal('x', 'mfa'))).toBe(b.currentId);
    expect(() => Keyring.fromText('too-short')).toThrow(/SECRETS_KEY: must be 32 bytes/);
  });
});

describe('installation secrets', () => {
  it('are generated once into DATA_DIR with mode 0600 when not configured; a configured value wins', () => {
    const dir = freshDir('install');
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.SANDBOX_NOTIFY_SECRET).toBeUndefined();
    const first = withInstallationSecrets(config);
    for (const file of [NOTIFY_SECRET_FILE, SECRETS_KEY_FILE]) expect(fs.statSync(path.join(dir, file)).mode & 0o777).toBe(0o600);
    expect(first.SANDBOX_NOTIFY_SECRET).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(() => Keyring.fromText(first.SECRETS_KEY!)).not.toThrow();
    expect(withInstallationSecrets(config)).toMatchObject({ SANDBOX_NOTIFY_SECRET: first.SANDBOX_NOTIFY_SECRET, SECRETS_KEY: first.SECRETS_KEY });
    // Another installation gets other values.
    expect(withInstallationSecrets(loadConfig({ DATA_DIR: freshDir('install') })).SANDBOX_NOTIFY_SECRET).not.toBe(first.SANDBOX_NOTIFY_SECRET);

    const configuredDir = freshDir('configured');
    const configured = withInstallationSecrets(
      loadConfig({ DATA_DIR: configuredDir, SANDBOX_NOTIFY_SECRET: 'configured-secret-0123456789', SECRETS_KEY: KEY_A }),
    );
    expect(configured).toMatchObject({ SANDBOX_NOTIFY_SECRET: 'configured-secret-0123456789', SECRETS_KEY: KEY_A });
    expect(fs.readdirSync(configuredDir)).toEqual([]);
  });

  it('are never generated for a production start: it names each missing variable', () => {
    const problems = (env: Record<string, string>): string[] => {
      try {
        loadConfig({ NODE_ENV: 'production', ...env });
        return [];
      } catch (err) {
        return (err as ConfigError).problems;
      }
    };
    expect(problems({})).toEqual(['SECRETS_KEY: must be set in production', 'SANDBOX_NOTIFY_SECRET: must be set in production']);
    expect(problems({ SERVICES: 'sandbox' })).toEqual(['SANDBOX_NOTIFY_SECRET: must be set in production']);
    expect(problems({ SERVICES: 'worker' })).toEqual(['SECRETS_KEY: must be set in production']);
    expect(problems({ SECRETS_KEY: KEY_B, SANDBOX_NOTIFY_SECRET: 'configured-secret-0123456789' })).toEqual([]);
    expect(problems({ SECRETS_KEY: 'not-a-key' })[0]).toMatch(/^SECRETS_KEY: must be 32 bytes/);
  });
});

describe('on the running service', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('stores an MFA secret sealed, and sign-in with a code from it still works', async () => {
    const merchant = await createMerchant(stack.db);
    const user = await createUser(stack.db, merchant, ['USER']);
    const token = await login(stack.apiUrl, user.username);
    const enrol = await call(stack.apiUrl, 'POST', '/api/users/me/mfa/enroll', { token });
    expect(enrol.status).toBe(200);
    const secret = enrol.body.secret as string;
    const stored = (await stack.db.user.findUniqueOrThrow({ where: { id: user.id } })).mfaSecret!;
    expect(stored).toMatch(/^enc:v1:/);
    expect(stored).not.toContain(secret);
    expect((await call(stack.apiUrl, 'POST', '/api/users/me/mfa/verify', { token, body: { code: totpCode(secret) } })).status).toBe(200);
    expect(await login(stack.apiUrl, user.username, PASSWORD, totpCode(secret, 1))).toEqual(expect.any(String));
  });

  it('stores a webhook signing secret sealed, and answers it in clear on create and regenerate', async () => {
    const { key } = await createMerchantWithKey(stack.db);
    const created = await call(stack.apiUrl, 'POST', '/api/webhooks/configs', { key, body: { url: 'http://127.0.0.1:9/hook' } });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_/);
    const stored = (await stack.db.webhookConfig.findUniqueOrThrow({ where: { id: created.body.id } })).secret;
    expect(stored).toMatch(/^enc:v1:/);
    expect(stored).not.toContain(created.body.secret);
    expect(Keyring.fromText(TEST_SECRETS_KEY).open(stored, 'webhook')).toBe(created.body.secret);
    const rotated = await call(stack.apiUrl, 'POST', `/api/webhooks/configs/${created.body.id}/regenerate-key`, { key });
    expect(rotated.status).toBe(200);
    expect(
      Keyring.fromText(TEST_SECRETS_KEY).open((await stack.db.webhookConfig.findUniqueOrThrow({ where: { id: created.body.id } })).secret, 'webhook'),
    ).toBe(rotated.body.secret);
  });

  it('seals clear-text secrets of a database made before encryption at start-up, and they keep working', async () => {
    const merchant = await createMerchant(stack.db);
    const mfaSecret = newTotpSecret();
    const user = await createUser(stack.db, merchant, ['USER'], { mfaEnabled: true, mfaSecret });
    const config = await stack.db.webhookConfig.create({
      data: { merchantId: merchant.id, url: 'https://example.com/hook', secret: 'whsec_clearTextFromBefore' },
    });
    const again = await startTestStack({ SERVICES: 'api' });
    try {
      const storedMfa = (await stack.db.user.findUniqueOrThrow({ where: { id: user.id } })).mfaSecret!;
      const storedWebhook = (await stack.db.webhookConfig.findUniqueOrThrow({ where: { id: config.id } })).secret;
      expect([storedMfa, storedWebhook]).toEqual([expect.stringMatching(/^enc:v1:/), expect.stringMatching(/^enc:v1:/)]);
      const keyring = Keyring.fromText(TEST_SECRETS_KEY);
      expect([keyring.open(storedMfa, 'mfa'), keyring.open(storedWebhook, 'webhook')]).toEqual([mfaSecret, 'whsec_clearTextFromBefore']);
      expect(await login(again.apiUrl, user.username, PASSWORD, totpCode(mfaSecret))).toEqual(expect.any(String));
    } finally {
      await again.stop();
    }
  });

  it('refuses to start with a key that did not seal the stored secrets, naming the key ids', async () => {
    const dataDir = freshDir('wrong-key');
    const config = loadConfig({
      PORT: '0',
      SIM_PORT: '0',
      MAIL_PORT: '0',
      SERVICES: 'api',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      DATABASE_URL: process.env.TEST_DATABASE_URL!,
      TEMPORAL_ADDRESS: process.env.TEST_TEMPORAL_ADDRESS!,
      SECRETS_KEY: KEY_A,
    });
    const target = { databaseUrl: process.env.TEST_DATABASE_URL!, temporalAddress: process.env.TEST_TEMPORAL_ADDRESS! };
    const start = startService(config, target, createLogger('silent'));
    await expect(start).rejects.toThrow(SecretsKeyError);
    await expect(start).rejects.toThrow(
      new RegExp(
        `^SECRETS_KEY: stored secrets are sealed under key id ${Keyring.fromText(TEST_SECRETS_KEY).currentId}, but SECRETS_KEY is key id ${Keyring.fromText(KEY_A).currentId}`,
      ),
    );
  });
});

describe('rotation with npm run admin -- secrets:reencrypt', () => {
  // A database of its own: the rotation re-seals every row, which the run's other stacks must not see.
  let db: Db;
  let url: string;
  let stopDb: () => Promise<void>;
  beforeAll(async () => {
    const embedded = await startEmbeddedDatabase({ dataDir: freshDir('rotation-db'), host: '127.0.0.1', port: await freePort() });
    stopDb = () => embedded.child.stop();
    url = embedded.url;
    await migrate(url);
    db = createDb(url, { poolSize: 2 });
  }, 120_000);
  afterAll(async () => {
    await db?.$disconnect();
    await stopDb?.();
  });

  it('re-seals every secret under the new key (clear-text ones too), after which the old key is no longer needed', async () => {
    const a = Keyring.fromText(KEY_A);
    const merchant = await createMerchant(db);
    const mfa = [newTotpSecret(), newTotpSecret()];
    await createUser(db, merchant, ['USER'], { mfaEnabled: true, mfaSecret: a.seal(mfa[0]!, 'mfa') });
    await createUser(db, merchant, ['USER'], { mfaEnabled: true, mfaSecret: mfa[1]! });
    await db.webhookConfig.create({ data: { merchantId: merchant.id, url: 'https://example.com/a', secret: a.seal('whsec_sealedUnderA', 'webhook') } });
    const env = (over: Record<string, string | undefined>) => ({
      env: { DATABASE_URL: url, DATA_DIR: freshDir('rotation-cli'), SECRETS_KEY_PREVIOUS: undefined, ...over },
    });

    // The new key alone cannot open what the old one sealed: refused, nothing written.
    const refused = await runAdmin(['secrets:reencrypt', '--json'], env({ SECRETS_KEY: KEY_B }));
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stderr).error).toMatch(/^SECRETS_KEY: stored secrets are sealed under key id/);

    const run = await runAdmin(['secrets:reencrypt', '--json'], env({ SECRETS_KEY: KEY_B, SECRETS_KEY_PREVIOUS: KEY_A }));
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    const b = Keyring.fromText(KEY_B);
    expect(run.json).toEqual({ keyId: b.currentId, mfaSecrets: 2, webhookSecrets: 1 });

    const users = await db.user.findMany({ where: { merchantId: merchant.id }, orderBy: { id: 'asc' } });
    const configs = await db.webhookConfig.findMany({ where: { merchantId: merchant.id } });
    for (const stored of [...users.map((u) => u.mfaSecret!), ...configs.map((c) => c.secret)]) expect(sealedKeyId(stored)).toBe(b.currentId);
    expect(users.map((u) => b.open(u.mfaSecret!, 'mfa'))).toEqual(mfa);
    expect(b.open(configs[0]!.secret, 'webhook')).toBe('whsec_sealedUnderA');
    // The old key is no longer needed; alone, it no longer opens anything.
    await expect(checkStoredSecrets(db, b)).resolves.toBeUndefined();
    await expect(checkStoredSecrets(db, a)).rejects.toThrow(/sealed under key id/);
    // Run again: nothing left to do.
    expect((await runAdmin(['secrets:reencrypt', '--json'], env({ SECRETS_KEY: KEY_B }))).json).toEqual({
      keyId: b.currentId,
      mfaSecrets: 0,
      webhookSecrets: 0,
    });
  }, 120_000);
});
