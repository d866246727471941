/**
 * API key management (docs/users-and-keys.md, "API keys"): issue live or test (the key shown once, only its hash
 * stored), list without secrets, rotate with the grace period, revoke at once; another merchant's
 * key is 404; every step audited.
 */
import { hashApiKey } from '../../src/auth/apiKeys';
import type { Merchant, User } from '../../src/generated/prisma/client';
import { createMerchantWithKey } from '../support/fixtures';
import { call, expectErrorShape } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';
import { createMerchant, merchantSnapshot, signedInUser } from './helpers';

let stack: TestStack;
let merchant: Merchant;
let admin: { user: User; token: string };

beforeAll(async () => {
  stack = await startTestStack({ SERVICES: 'api' });
  merchant = await createMerchant(stack.db);
  admin = await signedInUser(stack.db, stack.apiUrl, merchant, ['ADMIN']);
});
afterAll(async () => {
  await stack?.stop();
});

const api = (method: string, path: string, body?: unknown) => call(stack.apiUrl, method, path, { token: admin.token, body });
/** A call any key with the 'payments' scope may make. */
const useKey = (key: string) => call(stack.apiUrl, 'GET', '/api/transactions?size=1', { key });
const stores = (key: string) => call(stack.apiUrl, 'GET', `/api/merchants/${merchant.externalId}/stores`, { key });

describe('POST /api/api-keys', () => {
  it.each(['live', 'test'] as const)('issues a %s key, shown once, stored only as its hash', async (mode) => {
    const res = await api('POST', '/api/api-keys', { name: `POS ${mode}`, mode });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: `POS ${mode}`,
      mode,
      prefix: expect.stringMatching(new RegExp(`^isp_${mode}_[0-9A-Za-z]{4}$`)),
      key: expect.stringMatching(new RegExp(`^isp_${mode}_[0-9A-Za-z]{32,}$`)),
      scopes: ['payments', 'stores', 'webhooks'],
      status: 'ACTIVE',
      expiresAt: null,
      revokedAt: null,
      replacedById: null,
      lastUsedAt: null,
      createdAt: expect.stringMatching(/Z$/),
    });
    expect(res.body.key.startsWith(res.body.prefix)).toBe(true);
    const stored = await stack.db.apiKey.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(stored).toMatchObject({ merchantId: merchant.id, keyHash: hashApiKey(res.body.key) });
    expect(JSON.stringify(stored)).not.toContain(res.body.key);
    expect((await useKey(res.body.key)).status).toBe(200);
  });

  it('issues a key with fewer scopes; the key cannot reach the others', async () => {
    const res = await api('POST', '/api/api-keys', { name: 'payments only', mode: 'live', scopes: ['payments'] });
    expect(res.body.scopes).toEqual(['payments']);
    expect((await useKey(res.body.key)).status).toBe(200);
    expectErrorShape(await stores(res.body.key), 403);
  });

  it.each([
    [{ name: 'x', mode: 'production' }, /^mode: /],
    [{ mode: 'live' }, /^name: /],
    [{ name: '   ', mode: 'live' }, /^name: /],
    [{ name: 'x', mode: 'live', scopes: ['users'] }, /^scopes/],
    [{ name: 'x', mode: 'live', scopes: [] }, /^scopes: /],
    [{ name: 'x', mode: 'live', key: 'isp_live_mine' }, /key/],
  ])('refuses %j with 400 and writes nothing', async (body, message) => {
    const before = await merchantSnapshot(stack.db, merchant.id);
    expect(expectErrorShape(await api('POST', '/api/api-keys', body), 400)).toMatch(message);
    expect(await merchantSnapshot(stack.db, merchant.id)).toEqual(before);
  });
});

describe('GET /api/api-keys', () => {
  it("lists the merchant's keys newest first without secrets or hashes", async () => {
    const a = await api('POST', '/api/api-keys', { name: 'older', mode: 'live' });
    const b = await api('POST', '/api/api-keys', { name: 'newer', mode: 'test' });
    await useKey(a.body.key);
    // Two keys made within one millisecond would tie; the older one is moved a second back.
    await stack.db.apiKey.update({ where: { id: a.body.id }, data: { createdAt: new Date(Date.now() - 1000) } });
    const list = await api('GET', '/api/api-keys');
    expect(list.status).toBe(200);
    const ids = list.body.map((k: any) => k.id);
    expect(ids.indexOf(b.body.id)).toBeLessThan(ids.indexOf(a.body.id));
    const text = JSON.stringify(list.body);
    expect(text).not.toContain(a.body.key);
    expect(text).not.toContain(b.body.key);
    expect(text).not.toContain(hashApiKey(a.body.key));
    for (const k of list.body) expect(k).not.toHaveProperty('key');
    expect(list.body.find((k: any) => k.id === a.body.id).lastUsedAt).toMatch(/Z$/);
  });
});

describe('rotation and revocation', () => {
  it('rotate: the new key works, the old keeps working until its grace ends (24 h), then 401', async () => {
    const created = await api('POST', '/api/api-keys', { name: 'till 1', mode: 'live', scopes: ['payments', 'stores'] });
    const old = created.body.key as string;
    const before = Date.now();
    const rotated = await api('POST', `/api/api-keys/${created.body.id}/rotate`);
    expect(rotated.status).toBe(201);
    expect(rotated.body).toMatchObject({
      name: 'till 1',
      mode: 'live',
      scopes: ['payments', 'stores'],
      status: 'ACTIVE',
      key: expect.stringMatching(/^isp_live_/),
    });
    expect(rotated.body.key).not.toBe(old);
    expect(rotated.body.previousKey).toMatchObject({ id: created.body.id, status: 'ROTATED', replacedById: rotated.body.id });
    const graceEnd = new Date(rotated.body.previousKey.expiresAt).getTime();
    expect(graceEnd).toBeGreaterThanOrEqual(before + 24 * 3_600_000 - 1000);
    expect(graceEnd).toBeLessThanOrEqual(Date.now() + 24 * 3_600_000 + 1000);

    expect((await useKey(rotated.body.key)).status).toBe(200);
    expect((await useKey(old)).status).toBe(200);
    const listed = (await api('GET', '/api/api-keys')).body.find((k: any) => k.id === created.body.id);
    expect(listed).toMatchObject({ status: 'ROTATED', expiresAt: rotated.body.previousKey.expiresAt });

    expect(expectErrorShape(await api('POST', `/api/api-keys/${created.body.id}/rotate`), 409)).toMatch(/ROTATED/);

    await stack.db.apiKey.update({ where: { id: created.body.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expectErrorShape(await useKey(old), 401);
    expect((await useKey(rotated.body.key)).status).toBe(200);

    const audit = await stack.db.auditLog.findFirst({ where: { action: 'API_KEY_ROTATED', targetId: created.body.id } });
    expect(audit).toMatchObject({ actorType: 'USER', actorId: String(admin.user.id), requestId: rotated.headers.get('x-request-id') });
    expect(audit?.details).toMatchObject({ replacedById: rotated.body.id });
  });

  it('revoke: the key stops at once, also a rotated key in its grace period', async () => {
    const created = await api('POST', '/api/api-keys', { name: 'till 2', mode: 'test' });
    expect((await useKey(created.body.key)).status).toBe(200);
    expect((await api('DELETE', `/api/api-keys/${created.body.id}`)).status).toBe(204);
    expectErrorShape(await useKey(created.body.key), 401);
    expect((await api('GET', '/api/api-keys')).body.find((k: any) => k.id === created.body.id)).toMatchObject({
      status: 'REVOKED',
      revokedAt: expect.stringMatching(/Z$/),
    });
    expect((await api('DELETE', `/api/api-keys/${created.body.id}`)).status).toBe(204);
    expect(await stack.db.auditLog.count({ where: { action: 'API_KEY_REVOKED', targetId: created.body.id } })).toBe(1);
    expectErrorShape(await api('POST', `/api/api-keys/${created.body.id}/rotate`), 409);

    const inGrace = await api('POST', '/api/api-keys', { name: 'till 3', mode: 'live' });
    await api('POST', `/api/api-keys/${inGrace.body.id}/rotate`);
    expect((await useKey(inGrace.body.key)).status).toBe(200);
    expect((await api('DELETE', `/api/api-keys/${inGrace.body.id}`)).status).toBe(204);
    expectErrorShape(await useKey(inGrace.body.key), 401);
  });

  it("answers another merchant's key as 404 and leaves it alone", async () => {
    const { merchant: theirs, key, apiKey } = await createMerchantWithKey(stack.db);
    const before = await merchantSnapshot(stack.db, theirs.id);
    expectErrorShape(await api('POST', `/api/api-keys/${apiKey.id}/rotate`), 404);
    expectErrorShape(await api('DELETE', `/api/api-keys/${apiKey.id}`), 404);
    expectErrorShape(await api('DELETE', '/api/api-keys/no-such-key'), 404);
    expect((await api('GET', '/api/api-keys')).body.map((k: any) => k.id)).not.toContain(apiKey.id);
    expect(await merchantSnapshot(stack.db, theirs.id)).toEqual(before);
    expect((await call(stack.apiUrl, 'GET', '/api/transactions?size=1', { key })).status).toBe(200);
  });
});

describe('audit of the key lifecycle', () => {
  it('records create, rotate and revoke with the actor and request id, never the key', async () => {
    const created = await api('POST', '/api/api-keys', { name: 'audited', mode: 'live' });
    const rotated = await api('POST', `/api/api-keys/${created.body.id}/rotate`);
    const revoked = await api('DELETE', `/api/api-keys/${rotated.body.id}`);
    const entries = await stack.db.auditLog.findMany({
      where: { merchantId: merchant.id, targetId: { in: [created.body.id, rotated.body.id] } },
      orderBy: { id: 'asc' },
    });
    expect(entries.map((e) => [e.action, e.requestId])).toEqual([
      ['API_KEY_CREATED', created.headers.get('x-request-id')],
      ['API_KEY_ROTATED', rotated.headers.get('x-request-id')],
      ['API_KEY_REVOKED', revoked.headers.get('x-request-id')],
    ]);
    const text = JSON.stringify(entries.map((e) => e.details));
    expect(text).not.toContain(created.body.key);
    expect(text).not.toContain(rotated.body.key);
    expect(text).not.toContain(hashApiKey(created.body.key));
  });
});
