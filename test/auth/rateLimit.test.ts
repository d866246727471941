import { generateApiKey } from '../../src/auth/apiKeys';
import { API_KEY_SCOPES } from '../../src/auth/roles';
import { createMerchantWithKey } from '../support/fixtures';
import { call, expectErrorShape } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';

/**
 * Rate limiting per API key (README, "Conventions of every endpoint"): a token bucket of RATE_LIMIT_BURST refilled at
 * RATE_LIMIT_PER_SECOND; over it, 429 with Retry-After in whole seconds. Other keys keep their own budget.
 */

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '3' });
});
afterAll(async () => {
  await stack?.stop();
});

describe('rate limit per API key', () => {
  it('answers the request after the burst with 429 and Retry-After; other keys are unaffected; the key works again after the wait', async () => {
    const m = await createMerchantWithKey(stack.db);
    const path = `/api/merchants/${m.merchant.externalId}/stores`;
    // A second key of the same business, and a key of another business.
    const second = generateApiKey('live');
    await stack.db.apiKey.create({
      data: { merchantId: m.merchant.id, name: 'second', mode: 'live', prefix: second.prefix, keyHash: second.hash, scopes: [...API_KEY_SCOPES] },
    });
    const other = await createMerchantWithKey(stack.db);

    for (let i = 0; i < 3; i++) expect((await call(stack.apiUrl, 'GET', path, { key: m.key })).status).toBe(200);
    const limited = await call(stack.apiUrl, 'GET', path, { key: m.key });
    expectErrorShape(limited, 429);
    const retryAfter = limited.headers.get('retry-after');
    expect(retryAfter).toMatch(/^[1-9]\d*$/);

    expect((await call(stack.apiUrl, 'GET', path, { key: second.key })).status).toBe(200);
    expect((await call(stack.apiUrl, 'GET', `/api/merchants/${other.merchant.externalId}/stores`, { key: other.key })).status).toBe(200);

    // What a caller does with a 429: wait the indicated delay, then retry.
    await new Promise((resolve) => setTimeout(resolve, Number(retryAfter) * 1000 + 100));
    expect((await call(stack.apiUrl, 'GET', path, { key: m.key })).status).toBe(200);
  });

  it('counts the bearer form against the same key', async () => {
    const m = await createMerchantWithKey(stack.db);
    const path = `/api/merchants/${m.merchant.externalId}/stores`;
    expect((await call(stack.apiUrl, 'GET', path, { key: m.key })).status).toBe(200);
    expect((await call(stack.apiUrl, 'GET', path, { headers: { Authorization: `Bearer ${m.key}` } })).status).toBe(200);
    expect((await call(stack.apiUrl, 'GET', path, { key: m.key })).status).toBe(200);
    const limited = await call(stack.apiUrl, 'GET', path, { headers: { Authorization: `Bearer ${m.key}` } });
    expectErrorShape(limited, 429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});
