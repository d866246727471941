/**
 * GET /api/audit-logs: security events of the caller's merchant, newest first, paged, for ADMIN
 * and COMPLIANCE (the role matrix is in permissions.test.ts).
 */
import { audit } from '../../src/audit/audit';
import type { Merchant, User } from '../../src/generated/prisma/client';
import { call, expectErrorShape } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';
import { createMerchant, createUser, PASSWORD, signedInUser } from './helpers';

let stack: TestStack;
let merchant: Merchant;
let compliance: { user: User; token: string };

beforeAll(async () => {
  stack = await startTestStack({ SERVICES: 'api' });
  merchant = await createMerchant(stack.db);
  compliance = await signedInUser(stack.db, stack.apiUrl, merchant, ['COMPLIANCE']);
});
afterAll(async () => {
  await stack?.stop();
});

const logs = (query = '') => call(stack.apiUrl, 'GET', `/api/audit-logs${query}`, { token: compliance.token });

describe('GET /api/audit-logs', () => {
  it('pages the merchant’s events newest first, with actor, target and request id', async () => {
    const user = await createUser(stack.db, merchant, ['USER']);
    const failed = await call(stack.apiUrl, 'POST', '/api/auth/login', { body: { username: user.username, password: 'Wrong-password-00' } });
    const ok = await call(stack.apiUrl, 'POST', '/api/auth/login', { body: { username: user.username, password: PASSWORD } });
    expect(ok.status).toBe(200);

    const page = await logs('?size=2');
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ page: 0, size: 2, totalElements: expect.any(Number), totalPages: expect.any(Number) });
    expect(page.body.content).toHaveLength(2);
    const [newest, before] = page.body.content;
    expect(newest).toEqual({
      id: expect.any(String),
      action: 'LOGIN_SUCCEEDED',
      actorType: 'USER',
      actorId: String(user.id),
      targetType: 'USER',
      targetId: String(user.id),
      details: expect.objectContaining({ mfa: false }),
      requestId: ok.headers.get('x-request-id'),
      createdAt: expect.stringMatching(/Z$/),
    });
    expect(before).toMatchObject({
      action: 'LOGIN_FAILED',
      actorType: 'ANONYMOUS',
      requestId: failed.headers.get('x-request-id'),
      details: expect.objectContaining({ reason: 'BAD_PASSWORD' }),
    });
    expect(BigInt(newest.id)).toBeGreaterThan(BigInt(before.id));

    const second = await logs('?size=2&page=1');
    expect(second.body.content[0].id).not.toBe(newest.id);
    const filtered = await logs('?action=LOGIN_FAILED');
    expect(filtered.body.content.every((e: any) => e.action === 'LOGIN_FAILED')).toBe(true);
  });

  it("shows nothing of another merchant's log", async () => {
    const other = await createMerchant(stack.db, 'Other');
    await audit(stack.db, { merchantId: other.id, actor: { type: 'OPERATOR', id: 'ops' }, action: 'API_KEY_CREATED', details: { marker: 'other-merchant' } });
    const all = await logs('?size=100');
    expect(JSON.stringify(all.body)).not.toContain('other-merchant');
    expect(all.body.totalElements).toBe(await stack.db.auditLog.count({ where: { merchantId: merchant.id } }));
  });

  it('refuses bad paging with 400', async () => {
    expect(expectErrorShape(await logs('?size=101'), 400)).toMatch(/^size: /);
    expect(expectErrorShape(await logs('?page=x'), 400)).toMatch(/^page: /);
    expect(expectErrorShape(await logs('?sort=asc'), 400)).toMatch(/sort/);
  });
});

describe('audit(db, entry)', () => {
  it('drops fields that could carry a secret, however deep', async () => {
    await audit(stack.db, {
      merchantId: merchant.id,
      actor: { type: 'OPERATOR' },
      action: 'TEST_EVENT',
      details: { password: 'p', nested: { token: 't', key: 'k', secret: 's', keep: 1 }, list: [{ mfaSecret: 'm', ok: true }], name: 'kept' },
    });
    const entry = await stack.db.auditLog.findFirstOrThrow({ where: { merchantId: merchant.id, action: 'TEST_EVENT' } });
    expect(entry.details).toEqual({ nested: { keep: 1 }, list: [{ ok: true }], name: 'kept' });
  });
});
