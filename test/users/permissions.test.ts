/**
 * The role table (docs/users-and-keys.md, "Roles") on every user, API key and audit log endpoint: each role against each
 * endpoint, table-driven. A refused call is 403 and changes nothing.
 */
import type { Role } from '../../src/auth/roles';
import type { Merchant, User } from '../../src/generated/prisma/client';
import { generateApiKey } from '../../src/auth/apiKeys';
import { uniqueId } from '../support/fixtures';
import { call, expectErrorShape } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';
import { createMerchant, createUser, login, merchantSnapshot } from './helpers';

const ROLES: Role[] = ['ADMIN', 'FINANCE', 'OPERATIONS', 'COMPLIANCE', 'USER'];

interface Fixture {
  self: User;
  target: User;
  keyId: string;
}

interface Case {
  name: string;
  method: string;
  path: (f: Fixture) => string;
  body?: (f: Fixture) => unknown;
  /** The success status; everyone else gets 403. */
  status: number;
  allowed: Role[] | 'all';
  /** Calls with a session of its own (logout ends it). */
  freshSession?: boolean;
}

const ADMIN_ONLY: Role[] = ['ADMIN'];

const CASES: Case[] = [
  {
    name: 'POST /api/users',
    method: 'POST',
    path: () => '/api/users',
    body: () => ({ username: uniqueId('new'), password: 'Fresh-password-2026' }),
    status: 201,
    allowed: ADMIN_ONLY,
  },
  { name: 'GET /api/users', method: 'GET', path: () => '/api/users', status: 200, allowed: 'all' },
  { name: 'GET /api/users/me', method: 'GET', path: () => '/api/users/me', status: 200, allowed: 'all' },
  { name: 'GET /api/users/{id}', method: 'GET', path: (f) => `/api/users/${f.target.id}`, status: 200, allowed: 'all' },
  {
    name: 'PUT /api/users/{id} (another user)',
    method: 'PUT',
    path: (f) => `/api/users/${f.target.id}`,
    body: () => ({ displayName: 'Renamed' }),
    status: 200,
    allowed: ADMIN_ONLY,
  },
  {
    name: 'PUT /api/users/{id} (own profile)',
    method: 'PUT',
    path: (f) => `/api/users/${f.self.id}`,
    body: () => ({ displayName: 'Myself', email: 'me@example.com' }),
    status: 200,
    allowed: 'all',
  },
  {
    name: 'PUT /api/users/{id}/password',
    method: 'PUT',
    path: (f) => `/api/users/${f.target.id}/password`,
    body: () => ({ password: 'Another-password-77' }),
    status: 204,
    allowed: ADMIN_ONLY,
  },
  { name: 'POST /api/users/{id}/unlock', method: 'POST', path: (f) => `/api/users/${f.target.id}/unlock`, status: 200, allowed: ADMIN_ONLY },
  { name: 'POST /api/users/{id}/mfa/reset', method: 'POST', path: (f) => `/api/users/${f.target.id}/mfa/reset`, status: 200, allowed: ADMIN_ONLY },
  { name: 'DELETE /api/users/{id}', method: 'DELETE', path: (f) => `/api/users/${f.target.id}`, status: 204, allowed: ADMIN_ONLY },
  { name: 'POST /api/users/me/mfa/enroll', method: 'POST', path: () => '/api/users/me/mfa/enroll', status: 200, allowed: 'all' },
  { name: 'POST /api/api-keys', method: 'POST', path: () => '/api/api-keys', body: () => ({ name: 'pos', mode: 'test' }), status: 201, allowed: ADMIN_ONLY },
  { name: 'GET /api/api-keys', method: 'GET', path: () => '/api/api-keys', status: 200, allowed: ADMIN_ONLY },
  { name: 'POST /api/api-keys/{id}/rotate', method: 'POST', path: (f) => `/api/api-keys/${f.keyId}/rotate`, status: 201, allowed: ADMIN_ONLY },
  { name: 'DELETE /api/api-keys/{id}', method: 'DELETE', path: (f) => `/api/api-keys/${f.keyId}`, status: 204, allowed: ADMIN_ONLY },
  { name: 'GET /api/audit-logs', method: 'GET', path: () => '/api/audit-logs', status: 200, allowed: ['ADMIN', 'COMPLIANCE'] },
  { name: 'POST /api/auth/logout', method: 'POST', path: () => '/api/auth/logout', status: 204, allowed: 'all', freshSession: true },
];

let stack: TestStack;
let merchant: Merchant;
const callers = new Map<Role, { user: User; token: string }>();

beforeAll(async () => {
  stack = await startTestStack();
  merchant = await createMerchant(stack.db);
  for (const role of ROLES) {
    const user = await createUser(stack.db, merchant, [role]);
    callers.set(role, { user, token: await login(stack.apiUrl, user.username) });
  }
});
afterAll(async () => {
  await stack?.stop();
});

async function fixture(self: User): Promise<Fixture> {
  const target = await createUser(stack.db, merchant, ['USER'], { locked: true, failedLoginCount: 5 });
  const { hash, prefix } = generateApiKey('live');
  const key = await stack.db.apiKey.create({ data: { merchantId: merchant.id, name: 'matrix', mode: 'live', prefix, keyHash: hash, scopes: ['payments'] } });
  return { self, target, keyId: key.id };
}

const MATRIX = ROLES.flatMap((role) => CASES.map((c) => ({ role, ...c, expected: c.allowed === 'all' || c.allowed.includes(role) ? c.status : 403 })));

describe('permission matrix (the role table)', () => {
  it.each(MATRIX)('$role: $name -> $expected', async ({ role, method, path, body, expected, freshSession }) => {
    const caller = callers.get(role)!;
    const token = freshSession ? await login(stack.apiUrl, caller.user.username) : caller.token;
    const f = await fixture(caller.user);
    const before = await merchantSnapshot(stack.db, merchant.id);
    const res = await call(stack.apiUrl, method, path(f), { token, body: body?.(f) });
    if (expected === 403) {
      expectErrorShape(res, 403);
      expect(await merchantSnapshot(stack.db, merchant.id)).toEqual(before);
    } else {
      expect({ status: res.status, body: res.body }).toEqual({ status: expected, body: expected === 204 ? undefined : expect.anything() });
    }
  });

  it('gives a user with several roles the union of their grants', async () => {
    const user = await createUser(stack.db, merchant, ['FINANCE', 'COMPLIANCE']);
    const token = await login(stack.apiUrl, user.username);
    expect((await call(stack.apiUrl, 'GET', '/api/audit-logs', { token })).status).toBe(200);
    expect((await call(stack.apiUrl, 'GET', '/api/users', { token })).status).toBe(200);
    expectErrorShape(await call(stack.apiUrl, 'GET', '/api/api-keys', { token }), 403);
    expectErrorShape(await call(stack.apiUrl, 'POST', '/api/users', { token, body: { username: uniqueId('u'), password: 'Fresh-password-2026' } }), 403);
  });

  it('answers 401 without a session token, with an API key, or with a made-up token', async () => {
    const { key, hash, prefix } = generateApiKey('live');
    await stack.db.apiKey.create({
      data: { merchantId: merchant.id, name: 'not-a-session', mode: 'live', prefix, keyHash: hash, scopes: ['payments', 'stores', 'webhooks'] },
    });
    for (const path of ['/api/users', '/api/users/me', '/api/api-keys', '/api/audit-logs']) {
      expectErrorShape(await call(stack.apiUrl, 'GET', path), 401);
      expectErrorShape(await call(stack.apiUrl, 'GET', path, { key }), 401);
      expectErrorShape(await call(stack.apiUrl, 'GET', path, { token: key }), 401);
      expectErrorShape(await call(stack.apiUrl, 'GET', path, { token: 'made-up-session-token' }), 401);
    }
  });
});
