import { generateApiKey } from '../../src/auth/apiKeys';
import { createMerchantWithKey } from '../support/fixtures';
import { call, expectErrorShape } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';

/**
 * API-key authentication (README, "Conventions of every endpoint") through a real endpoint (the store list): the key in
 * X-API-Key or as `Authorization: Bearer isp_live_...|isp_test_...`; everything else is 401.
 */

let stack: TestStack;
let m: Awaited<ReturnType<typeof createMerchantWithKey>>;
let path: string;

beforeAll(async () => {
  stack = await startTestStack();
  m = await createMerchantWithKey(stack.db);
  path = `/api/merchants/${m.merchant.externalId}/stores`;
});
afterAll(async () => {
  await stack?.stop();
});

const get = (headers: Record<string, string>) => call(stack.apiUrl, 'GET', path, { headers });

describe('accepted credentials', () => {
  it('accepts a live key in X-API-Key', async () => {
    expect(m.key.startsWith('isp_live_')).toBe(true);
    const res = await get({ 'X-API-Key': m.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it('accepts a live key as Authorization: Bearer isp_live_...', async () => {
    expect((await get({ Authorization: `Bearer ${m.key}` })).status).toBe(200);
  });

  it('accepts a test key as Bearer isp_test_... and in X-API-Key', async () => {
    const t = await createMerchantWithKey(stack.db, { mode: 'test' });
    expect(t.key.startsWith('isp_test_')).toBe(true);
    const testPath = `/api/merchants/${t.merchant.externalId}/stores`;
    expect((await call(stack.apiUrl, 'GET', testPath, { headers: { Authorization: `Bearer ${t.key}` } })).status).toBe(200);
    expect((await call(stack.apiUrl, 'GET', testPath, { headers: { 'X-API-Key': t.key } })).status).toBe(200);
  });

  it('accepts a rotated key until its expiresAt, and not after', async () => {
    const k = await createMerchantWithKey(stack.db);
    const kPath = `/api/merchants/${k.merchant.externalId}/stores`;
    await stack.db.apiKey.update({ where: { id: k.apiKey.id }, data: { expiresAt: new Date(Date.now() + 3600_000) } });
    expect((await call(stack.apiUrl, 'GET', kPath, { key: k.key })).status).toBe(200);
    await stack.db.apiKey.update({ where: { id: k.apiKey.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expectErrorShape(await call(stack.apiUrl, 'GET', kPath, { key: k.key }), 401);
  });
});

describe('refused credentials: 401 in the error shape', () => {
  const cases: Array<[string, () => Record<string, string>]> = [
    ['no credentials', () => ({})],
    ['an empty X-API-Key', () => ({ 'X-API-Key': '' })],
    ['an unknown key in X-API-Key', () => ({ 'X-API-Key': generateApiKey('live').key })],
    ['an unknown key as Bearer', () => ({ Authorization: `Bearer ${generateApiKey('test').key}` })],
    ['a random string in X-API-Key', () => ({ 'X-API-Key': 'not-a-key' })],
    ['Bearer with a token without the key prefix', () => ({ Authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig' })],
    ['Bearer with the key minus its prefix', () => ({ Authorization: `Bearer ${m.key.slice('isp_live_'.length)}` })],
    ['Bearer with another brand prefix', () => ({ Authorization: `Bearer sk_live_${m.key.slice('isp_live_'.length)}` })],
    ['Basic auth carrying the key', () => ({ Authorization: `Basic ${Buffer.from(`${m.key}:`).toString('base64')}` })],
    ['the key without a scheme', () => ({ Authorization: m.key })],
    ['a wrong scheme', () => ({ Authorization: `Token ${m.key}` })],
  ];
  it.each(cases)('refuses %s', async (_name, headers) => {
    expect(expectErrorShape(await get(headers()), 401)).toMatch(/credentials|API key/i);
  });

  it('refuses a revoked key', async () => {
    const k = await createMerchantWithKey(stack.db);
    const kPath = `/api/merchants/${k.merchant.externalId}/stores`;
    expect((await call(stack.apiUrl, 'GET', kPath, { key: k.key })).status).toBe(200);
    await stack.db.apiKey.update({ where: { id: k.apiKey.id }, data: { revokedAt: new Date() } });
    expectErrorShape(await call(stack.apiUrl, 'GET', kPath, { key: k.key }), 401);
    expectErrorShape(await call(stack.apiUrl, 'GET', kPath, { headers: { Authorization: `Bearer ${k.key}` } }), 401);
  });

  it('never echoes the presented key', async () => {
    const res = await get({ 'X-API-Key': 'isp_live_thisIsNotARealKeyButLooksLikeOne000000' });
    expectErrorShape(res, 401);
    expect(JSON.stringify(res.body)).not.toContain('thisIsNotARealKey');
  });
});

describe('scopes', () => {
  it("answers 403 for a valid key without the 'stores' scope, and writes nothing", async () => {
    const k = await createMerchantWithKey(stack.db, { scopes: ['payments', 'webhooks'] });
    const kPath = `/api/merchants/${k.merchant.externalId}/stores`;
    expect(expectErrorShape(await call(stack.apiUrl, 'GET', kPath, { key: k.key }), 403)).toContain('stores');
    expectErrorShape(await call(stack.apiUrl, 'POST', kPath, { key: k.key, body: { name: 'x', country: 'DE', timezone: 'UTC' } }), 403);
    expect(await stack.db.store.count({ where: { merchantId: k.merchant.id } })).toBe(0);
  });
});
