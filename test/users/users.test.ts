/**
 * The users API with every rule of docs/users-and-keys.md, "Users" and "Roles": password policy,
 * roles in either form, default USER, the caller's own merchant, administrators only, no change of
 * one's own roles, grants up to one's own authority, soft delete, password reset, paging. A refused
 * request changes nothing.
 */
import { canGrant } from '../../src/auth/roles';
import type { Merchant, User } from '../../src/generated/prisma/client';
import { uniqueId } from '../support/fixtures';
import { call, expectErrorShape } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';
import { createMerchant, createUser, login, merchantSnapshot, PASSWORD, signedInUser } from './helpers';

let stack: TestStack;
let merchant: Merchant;
let other: Merchant;
let admin: { user: User; token: string };

beforeAll(async () => {
  stack = await startTestStack({ SERVICES: 'api' });
  merchant = await createMerchant(stack.db, 'Bakery Rossi');
  other = await createMerchant(stack.db, 'Someone Else');
  admin = await signedInUser(stack.db, stack.apiUrl, merchant, ['ADMIN']);
});
afterAll(async () => {
  await stack?.stop();
});

const api = (method: string, path: string, body?: unknown, token = admin.token) => call(stack.apiUrl, method, path, { token, body });

/** Runs a request that must be refused and checks that neither merchant changed. */
async function refused(status: number, method: string, path: string, body?: unknown, token = admin.token): Promise<string> {
  const before = [await merchantSnapshot(stack.db, merchant.id), await merchantSnapshot(stack.db, other.id)];
  const message = expectErrorShape(await api(method, path, body, token), status);
  expect([await merchantSnapshot(stack.db, merchant.id), await merchantSnapshot(stack.db, other.id)]).toEqual(before);
  return message;
}

const USER_FIELDS = [
  'id',
  'username',
  'displayName',
  'email',
  'enabled',
  'locked',
  'roles',
  'merchantExternalId',
  'merchantName',
  'mfaEnabled',
  'mfaEnrollmentRequired',
  'createdAt',
  'updatedAt',
];

describe('POST /api/users', () => {
  it("creates a user of the caller's merchant with the documented user record and default role USER", async () => {
    const username = uniqueId('anna');
    const res = await api('POST', '/api/users', { username, password: 'Sourdough-2026-rye', displayName: 'Anna', email: 'anna@example.com' });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual([...USER_FIELDS].sort());
    expect(res.body).toEqual({
      id: expect.any(Number),
      username,
      displayName: 'Anna',
      email: 'anna@example.com',
      enabled: true,
      locked: false,
      roles: ['ROLE_USER'],
      merchantExternalId: merchant.externalId,
      merchantName: 'Bakery Rossi',
      mfaEnabled: false,
      mfaEnrollmentRequired: false,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: expect.stringMatching(/Z$/),
    });
    const stored = await stack.db.user.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(stored.merchantId).toBe(merchant.id);
    expect(stored.passwordHash).toMatch(/^\$argon2id\$/);
    expect((await call(stack.apiUrl, 'POST', '/api/auth/login', { body: { username, password: 'Sourdough-2026-rye' } })).status).toBe(200);
    const audit = await stack.db.auditLog.findFirst({ where: { action: 'USER_CREATED', targetId: String(res.body.id) } });
    expect(audit).toMatchObject({ merchantId: merchant.id, actorType: 'USER', actorId: String(admin.user.id), requestId: res.headers.get('x-request-id') });
  });

  it('accepts roles with or without ROLE_ and answers them with the prefix', async () => {
    const res = await api('POST', '/api/users', {
      username: uniqueId('multi'),
      password: 'Sourdough-2026-rye',
      roles: ['ROLE_FINANCE', 'operations', 'FINANCE'],
    });
    expect(res.status).toBe(201);
    expect(res.body.roles).toEqual(['ROLE_FINANCE', 'ROLE_OPERATIONS']);
    expect((await stack.db.user.findUniqueOrThrow({ where: { id: res.body.id } })).roles).toEqual(['FINANCE', 'OPERATIONS']);
  });

  it("accepts the caller's own merchantExternalId and refuses another with 400", async () => {
    expect(
      (await api('POST', '/api/users', { username: uniqueId('own'), password: 'Sourdough-2026-rye', merchantExternalId: merchant.externalId })).status,
    ).toBe(201);
    const message = await refused(400, 'POST', '/api/users', {
      username: uniqueId('theirs'),
      password: 'Sourdough-2026-rye',
      merchantExternalId: other.externalId,
    });
    expect(message).toMatch(/^merchantExternalId: /);
  });

  it.each([
    ['too short', 'Short-1234'],
    ['no digits', 'Only-letters-here'],
    ['no letters', '1234567890123'],
  ])('refuses a weak password (%s) with 400 naming password', async (_why, password) => {
    expect(await refused(400, 'POST', '/api/users', { username: uniqueId('weak'), password })).toMatch(/^password: /);
  });

  it('refuses a username mixing scripts, and takes look-alike full-width forms as the same username (NFKC)', async () => {
    const password = 'Sourdough-2026-rye';
    // "аdmin" with a Cyrillic а, "αdmin" with a Greek α: each looks like a Latin name
    expect(await refused(400, 'POST', '/api/users', { username: `\u0430${uniqueId('dmin')}`, password })).toBe(
      "username: must not mix scripts (Cyrillic with Latin): letters of one script can pass for another's",
    );
    expect(await refused(400, 'POST', '/api/users', { username: `${uniqueId('admin')}\u03b1`, password })).toBe(
      "username: must not mix scripts (Latin with Greek): letters of one script can pass for another's",
    );
    // invisible and direction-changing characters (issue 37): a zero-width space or joiner, a right-to-left override
    for (const [hidden, code] of [
      ['\u200b', '200B'],
      ['\u200d', '200D'],
      ['\u202e', '202E'],
    ]) {
      expect(await refused(400, 'POST', '/api/users', { username: `${admin.user.username}${hidden}`, password })).toBe(
        `username: must not contain control, invisible or direction-changing characters (U+${code})`,
      );
    }
    // full width: the existing administrator's name typed in ＡＢＣ letters is the same name
    const fullWidth = (text: string) => text.replace(/[!-~]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) + 0xfee0));
    expect(await refused(409, 'POST', '/api/users', { username: fullWidth(admin.user.username), password })).toMatch(/^username: .* is already taken$/);
    // a name in one script, or a language's own mix, is accepted; stored in NFKC, it signs in either way
    const name = uniqueId('kasse');
    const created = await api('POST', '/api/users', { username: fullWidth(name), password });
    expect(created.status).toBe(201);
    expect(created.body.username).toBe(name);
    expect((await call(stack.apiUrl, 'POST', '/api/auth/login', { body: { username: fullWidth(name), password } })).status).toBe(200);
    for (const username of [uniqueId('иван').replace(/[a-z]/g, 'к'), `山田${uniqueId('taro')}`]) {
      expect((await api('POST', '/api/users', { username, password })).status).toBe(201);
    }
  });

  it('refuses unknown roles, a missing field, an unknown field, and a taken username', async () => {
    expect(await refused(400, 'POST', '/api/users', { username: uniqueId('r'), password: 'Sourdough-2026-rye', roles: ['ROLE_SUPERUSER'] })).toMatch(
      /^roles: .*SUPERUSER/,
    );
    expect(await refused(400, 'POST', '/api/users', { password: 'Sourdough-2026-rye' })).toMatch(/^username: /);
    expect(await refused(400, 'POST', '/api/users', { username: 'ab', password: 'Sourdough-2026-rye' })).toBe('username: must be at least 3 characters');
    expect(await refused(400, 'POST', '/api/users', { username: 'maria finance', password: 'Sourdough-2026-rye' })).toBe(
      'username: must not contain spaces or control characters',
    );
    expect(await refused(400, 'POST', '/api/users', { username: uniqueId('x'), password: 'Sourdough-2026-rye', isAdmin: true })).toMatch(/isAdmin/);
    expect(await refused(409, 'POST', '/api/users', { username: admin.user.username.toUpperCase(), password: 'Sourdough-2026-rye' })).toMatch(/username/);
  });
});

describe('reading users', () => {
  it("lists the caller's merchant only, paged like transactions", async () => {
    const theirs = await createUser(stack.db, other, ['ADMIN']);
    for (let i = 0; i < 3; i++) await createUser(stack.db, merchant, ['USER']);
    const total = await stack.db.user.count({ where: { merchantId: merchant.id } });
    const first = await api('GET', '/api/users?page=0&size=2');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ totalElements: total, totalPages: Math.ceil(total / 2), page: 0, size: 2 });
    expect(first.body.content).toHaveLength(2);
    const all = await api('GET', '/api/users?size=100');
    expect(all.body.content.map((u: any) => u.merchantExternalId)).toEqual(Array(total).fill(merchant.externalId));
    expect(all.body.content.map((u: any) => u.id)).not.toContain(theirs.id);
    const ids = all.body.content.map((u: any) => u.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(JSON.stringify(all.body)).not.toMatch(/argon2|passwordHash|mfaSecret/);
    expect((await api('GET', '/api/users')).body.size).toBe(20);
    expect(expectErrorShape(await api('GET', '/api/users?size=101'), 400)).toMatch(/^size: /);
    expect(expectErrorShape(await api('GET', '/api/users?page=-1'), 400)).toMatch(/^page: /);
  });

  it('/api/users/me is the caller, not an id', async () => {
    const res = await api('GET', '/api/users/me');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: admin.user.id, username: admin.user.username, roles: ['ROLE_ADMIN'] });
  });

  it("answers another merchant's user, an unknown id, and a non-number id as 404, 404 and 400", async () => {
    const theirs = await createUser(stack.db, other, ['USER']);
    expectErrorShape(await api('GET', `/api/users/${theirs.id}`), 404);
    expectErrorShape(await api('GET', '/api/users/2147483000'), 404);
    expect(expectErrorShape(await api('GET', '/api/users/abc'), 400)).toMatch(/^id: /);
  });
});

describe("another merchant's user is 404 everywhere, and nothing changes", () => {
  let theirs: User;
  beforeAll(async () => {
    theirs = await createUser(stack.db, other, ['USER'], { locked: true, failedLoginCount: 5 });
  });
  it.each([
    ['PUT', '', { displayName: 'Hijacked', roles: ['ADMIN'] }],
    ['PUT', '/password', { password: 'Hijacked-password-1' }],
    ['POST', '/unlock', undefined],
    ['POST', '/mfa/reset', undefined],
    ['DELETE', '', undefined],
  ])('%s /api/users/{id}%s', async (method, suffix, body) => {
    await refused(404, method, `/api/users/${theirs.id}${suffix}`, body);
  });
});

describe('PUT /api/users/{id}', () => {
  it('lets anyone edit their own displayName and email, and nothing else of their own', async () => {
    const { user, token } = await signedInUser(stack.db, stack.apiUrl, merchant, ['USER']);
    const res = await api('PUT', `/api/users/${user.id}`, { displayName: 'Luca', email: 'luca@example.com' }, token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ displayName: 'Luca', email: 'luca@example.com', roles: ['ROLE_USER'] });
    expect(await refused(403, 'PUT', `/api/users/${user.id}`, { roles: ['ADMIN'] }, token)).toMatch(/own roles/);
    expect(await refused(403, 'PUT', `/api/users/${user.id}`, { enabled: false }, token)).toMatch(/own account/);
    expect(await refused(400, 'PUT', `/api/users/${user.id}`, { email: 'not-an-email' }, token)).toMatch(/^email: /);
    // Sending one's current roles unchanged is not a change.
    expect((await api('PUT', `/api/users/${user.id}`, { roles: ['ROLE_USER'], displayName: 'Luca R.' }, token)).status).toBe(200);
  });

  it('nobody changes their own roles, administrators included', async () => {
    expect(await refused(403, 'PUT', `/api/users/${admin.user.id}`, { roles: ['ADMIN', 'FINANCE'] })).toMatch(/own roles/);
    expect(await refused(403, 'PUT', `/api/users/${admin.user.id}`, { roles: ['USER'] })).toMatch(/own roles/);
  });

  it('a non-administrator cannot edit or promote anyone else (escalation)', async () => {
    const { token } = await signedInUser(stack.db, stack.apiUrl, merchant, ['FINANCE']);
    const victim = await createUser(stack.db, merchant, ['USER']);
    await refused(403, 'PUT', `/api/users/${victim.id}`, { roles: ['ADMIN'] }, token);
    await refused(403, 'PUT', `/api/users/${victim.id}`, { displayName: 'x' }, token);
    await refused(403, 'POST', '/api/users', { username: uniqueId('mine'), password: 'Sourdough-2026-rye', roles: ['ADMIN'] }, token);
  });

  it('an administrator changes roles (audited) and the change applies to live sessions at once', async () => {
    const { user, token } = await signedInUser(stack.db, stack.apiUrl, merchant, ['USER']);
    expectErrorShape(await api('GET', '/api/audit-logs', undefined, token), 403);
    const res = await api('PUT', `/api/users/${user.id}`, { roles: ['ROLE_COMPLIANCE', 'USER'] });
    expect(res.status).toBe(200);
    expect(res.body.roles).toEqual(['ROLE_COMPLIANCE', 'ROLE_USER']);
    expect((await api('GET', '/api/audit-logs', undefined, token)).status).toBe(200);
    const audit = await stack.db.auditLog.findFirst({ where: { action: 'ROLE_CHANGED', targetId: String(user.id) } });
    expect(audit?.details).toEqual({ from: ['ROLE_USER'], to: ['ROLE_COMPLIANCE', 'ROLE_USER'] });
    expect(await refused(400, 'PUT', `/api/users/${user.id}`, { roles: ['ROOT'] })).toMatch(/^roles: /);
    expect(await refused(400, 'PUT', `/api/users/${user.id}`, { roles: [] })).toMatch(/^roles: /);
  });

  it('an administrator disables (sessions end) and enables an account', async () => {
    const { user, token } = await signedInUser(stack.db, stack.apiUrl, merchant, ['USER']);
    const off = await api('PUT', `/api/users/${user.id}`, { enabled: false });
    expect(off.body.enabled).toBe(false);
    expectErrorShape(await api('GET', '/api/users/me', undefined, token), 401);
    expect((await api('PUT', `/api/users/${user.id}`, { enabled: true })).body.enabled).toBe(true);
    expect((await login(stack.apiUrl, user.username)).length).toBeGreaterThan(20);
  });
});

describe('roles are granted only up to the granter’s own authority', () => {
  it('follows the role table', () => {
    expect(canGrant(['ADMIN'], 'ADMIN')).toBe(true);
    expect(canGrant(['ADMIN'], 'FINANCE')).toBe(true);
    expect(canGrant(['FINANCE'], 'ADMIN')).toBe(false);
    expect(canGrant(['FINANCE'], 'COMPLIANCE')).toBe(false);
    expect(canGrant(['COMPLIANCE'], 'USER')).toBe(true);
    expect(canGrant(['ROLE_FINANCE', 'ROLE_COMPLIANCE'], 'USER')).toBe(true);
    expect(canGrant(['USER'], 'OPERATIONS')).toBe(false);
  });
});

describe('DELETE /api/users/{id} (soft delete)', () => {
  it('disables the account, ends its sessions and keeps the record', async () => {
    const { user, token } = await signedInUser(stack.db, stack.apiUrl, merchant, ['OPERATIONS']);
    const res = await api('DELETE', `/api/users/${user.id}`);
    expect(res.status).toBe(204);
    expectErrorShape(await api('GET', '/api/users/me', undefined, token), 401);
    expectErrorShape(await call(stack.apiUrl, 'POST', '/api/auth/login', { body: { username: user.username, password: PASSWORD } }), 401);
    const record = await api('GET', `/api/users/${user.id}`);
    expect(record.body).toMatchObject({ enabled: false, username: user.username });
    expect((await stack.db.user.findUniqueOrThrow({ where: { id: user.id } })).deletedAt).not.toBeNull();
    expect(await stack.db.auditLog.count({ where: { action: 'USER_DISABLED', targetId: String(user.id) } })).toBe(1);
    expect((await api('DELETE', `/api/users/${user.id}`)).status).toBe(204); // again: nothing more happens
    expect(await stack.db.auditLog.count({ where: { action: 'USER_DISABLED', targetId: String(user.id) } })).toBe(1);
  });

  it('nobody deletes their own account', async () => {
    expect(await refused(403, 'DELETE', `/api/users/${admin.user.id}`)).toMatch(/own account/);
  });
});

describe('PUT /api/users/{id}/password', () => {
  it("sets the password and ends the user's sessions", async () => {
    const { user, token } = await signedInUser(stack.db, stack.apiUrl, merchant, ['USER']);
    const res = await api('PUT', `/api/users/${user.id}/password`, { password: 'Brand-new-secret-99' });
    expect(res.status).toBe(204);
    expectErrorShape(await api('GET', '/api/users/me', undefined, token), 401);
    expectErrorShape(await call(stack.apiUrl, 'POST', '/api/auth/login', { body: { username: user.username, password: PASSWORD } }), 401);
    expect((await login(stack.apiUrl, user.username, 'Brand-new-secret-99')).length).toBeGreaterThan(20);
    const audit = await stack.db.auditLog.findFirst({ where: { action: 'PASSWORD_RESET', targetId: String(user.id) } });
    expect(audit?.details).toEqual({ sessionsEnded: 1 });
  });

  it('refuses a weak password and an unknown field with 400, changing nothing', async () => {
    const user = await createUser(stack.db, merchant, ['USER']);
    expect(await refused(400, 'PUT', `/api/users/${user.id}/password`, { password: 'short1' })).toMatch(/^password: /);
    expect(await refused(400, 'PUT', `/api/users/${user.id}/password`, { newPassword: 'Brand-new-secret-99' })).toMatch(/password/);
  });
});

describe('OpenAPI', () => {
  it('documents every user, sign-in, API key and audit log endpoint', async () => {
    const doc = (await call(stack.apiUrl, 'GET', '/openapi.json')).body;
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/auth/login',
        '/api/auth/logout',
        '/api/users',
        '/api/users/me',
        '/api/users/me/mfa/enroll',
        '/api/users/me/mfa/verify',
        '/api/users/{id}',
        '/api/users/{id}/password',
        '/api/users/{id}/unlock',
        '/api/users/{id}/mfa/reset',
        '/api/api-keys',
        '/api/api-keys/{id}/rotate',
        '/api/api-keys/{id}',
        '/api/audit-logs',
      ]),
    );
    expect(doc.paths['/api/users'].post.security).toEqual([{ Session: [] }]);
  });
});
