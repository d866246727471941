/**
 * An acquirer account's credentials never reach a log line: creation, a refused
 * creation (wrong mode), rotation and reads at LOG_LEVEL=debug, every line the service writes captured.
 */
import { capturedLogger } from '../support/capturedLogger';
import type { TestStack } from '../support/stack';
import { withStack } from '../support/suite';
import { createMerchant } from '../users/helpers';
import { adminOf, STRIPE_LIVE, STRIPE_TEST } from './helpers';

const { logger, lines } = capturedLogger('debug');

let stack: TestStack;
withStack({ LOG_LEVEL: 'debug' }, { logger }, (s) => void (stack = s));

it('keeps every credential out of the logs', async () => {
  const admin = await adminOf(stack, await createMerchant(stack.db, 'Log Secrets Merchant'));
  const rotated = { apiKey: 'sk_test_51RotatedKeyForLogsTest9', webhookSecret: 'whsec_rotatedForLogsTest42' };
  const adyen = { apiKey: 'AQEyhmfxLogSecretAdyenKey77', hmacKey: 'AB12CD34EF56AB12CD34EF56AB12CD34', environment: 'TEST' };
  const created = await admin.createAccount({ name: 'Stripe', acquirer: 'stripe', mode: 'test', merchantAccountId: 'MID-LOG', credentials: STRIPE_TEST });
  expect(created.status).toBe(201);
  expect(
    (await admin.createAccount({ name: 'Wrong mode', acquirer: 'stripe', mode: 'test', merchantAccountId: 'MID-LOG', credentials: STRIPE_LIVE })).status,
  ).toBe(400);
  expect((await admin.createAccount({ name: 'Adyen', acquirer: 'adyen', mode: 'test', merchantAccountId: 'MID-LOG', credentials: adyen })).status).toBe(201);
  expect((await admin.updateAccount(created.body.id, { credentials: rotated })).status).toBe(200);
  expect((await admin.updateAccount(created.body.id, { credentials: { ...rotated, extra: 'x' } })).status).toBe(400);
  await admin.getAccount(created.body.id);
  await admin.listAccounts();

  expect(lines.length).toBeGreaterThan(5); // the requests were logged
  const all = lines.join('\n');
  for (const secret of [
    STRIPE_TEST.apiKey,
    STRIPE_TEST.webhookSecret,
    STRIPE_LIVE.apiKey,
    STRIPE_LIVE.webhookSecret,
    rotated.apiKey,
    rotated.webhookSecret,
    adyen.apiKey,
    adyen.hmacKey,
  ]) {
    expect(all).not.toContain(secret);
    // Nor most of it: a prefix long enough to be the secret without its masked tail.
    expect(all).not.toContain(secret.slice(0, -4));
  }
});
