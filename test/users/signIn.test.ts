/**
 * Dashboard sign-in (docs/users-and-keys.md, "Sign-in and sessions"): sessions stored hashed, expiry, logout, lockout after five
 * wrong passwords in a row and unlock (the throttle itself: test/security/signInThrottle.test.ts),
 * disabled accounts, and MFA with TOTP (enrolment, the code at sign-in, the admin reset that
 * forces re-enrolment).
 */
import { hashSessionToken } from '../../src/auth/sessions';
import type { Merchant, User } from '../../src/generated/prisma/client';
import { call, expectErrorShape } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';
import { createMerchant, createUser, login, PASSWORD, signedInUser, totpCode } from './helpers';

let stack: TestStack;
let merchant: Merchant;
let admin: { user: User; token: string };

beforeAll(async () => {
  stack = await startTestStack();
  merchant = await createMerchant(stack.db);
  admin = await signedInUser(stack.db, stack.apiUrl, merchant, ['ADMIN']);
});
afterAll(async () => {
  await stack?.stop();
});

const signIn = (body: Record<string, unknown>) => call(stack.apiUrl, 'POST', '/api/auth/login', { body });
const me = (token: string) => call(stack.apiUrl, 'GET', '/api/users/me', { token });
const auditOf = (userId: number, action: string) =>
  stack.db.auditLog.findMany({ where: { merchantId: merchant.id, targetType: 'USER', targetId: String(userId), action }, orderBy: { id: 'asc' } });

describe('POST /api/auth/login', () => {
  it('answers a token valid for 12 hours, stored only as its hash', async () => {
    const user = await createUser(stack.db, merchant, ['USER']);
    const before = Date.now();
    const res = await signIn({ username: user.username, password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ token: expect.any(String), expiresAt: expect.stringMatching(/Z$/), mfaEnrollmentRequired: false });
    const expiresAt = new Date(res.body.expiresAt).getTime();
    expect(expiresAt).toBeGreaterThanOrEqual(before + 12 * 3_600_000 - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 12 * 3_600_000 + 1000);

    const sessions = await stack.db.session.findMany({ where: { userId: user.id } });
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.tokenHash).toBe(hashSessionToken(res.body.token));
    expect(JSON.stringify(sessions)).not.toContain(res.body.token);

    const profile = await me(res.body.token);
    expect(profile.status).toBe(200);
    expect(profile.body.username).toBe(user.username);
    expect((await auditOf(user.id, 'LOGIN_SUCCEEDED')).length).toBe(1);
  });

  it('matches the username whatever its case', async () => {
    const user = await createUser(stack.db, merchant, ['USER']);
    expect((await signIn({ username: user.username.toUpperCase(), password: PASSWORD })).status).toBe(200);
  });

  it('answers 401 with the same message for an unknown user and a wrong password', async () => {
    const user = await createUser(stack.db, merchant, ['USER']);
    const unknown = expectErrorShape(await signIn({ username: 'nobody-at-all', password: PASSWORD }), 401);
    const wrong = expectErrorShape(await signIn({ username: user.username, password: 'Wrong-password-123' }), 401);
    expect(unknown).toBe(wrong);
    const failed = await auditOf(user.id, 'LOGIN_FAILED');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ actorType: 'ANONYMOUS', details: expect.objectContaining({ reason: 'BAD_PASSWORD' }) });
  });

  it('answers 400 naming the field for a malformed body', async () => {
    expect(expectErrorShape(await signIn({ username: 'someone' }), 400)).toContain('password');
    expect(expectErrorShape(await signIn({ username: 'someone', password: 'x', extra: 1 }), 400)).toContain('extra');
    expect(expectErrorShape(await signIn({ username: 'someone', password: 'x', totp: '12ab' }), 400)).toContain('totp');
  });
});

describe('lockout', () => {
  it('5 wrong passwords in a row mark the account locked and shut that address out (429); its sessions go on; an admin unlock lets it in again', async () => {
    const user = await createUser(stack.db, merchant, ['USER']);
    const earlier = await login(stack.apiUrl, user.username);
    for (let i = 1; i <= 4; i++) expectErrorShape(await signIn({ username: user.username, password: `Wrong-password-${i}0` }), 401);
    expect(await stack.db.user.findUniqueOrThrow({ where: { id: user.id } })).toMatchObject({ locked: false, failedLoginCount: 4 });

    // The fifth answers like every other wrong password: nothing tells the guesser it locked anything.
    expect(expectErrorShape(await signIn({ username: user.username, password: 'Wrong-password-50' }), 401)).toBe('invalid username or password');
    expect(await stack.db.user.findUniqueOrThrow({ where: { id: user.id } })).toMatchObject({ locked: true, failedLoginCount: 5 });
    const refused = await signIn({ username: user.username, password: PASSWORD });
    expect(expectErrorShape(refused, 429)).toBe('too many failed sign-ins; try again later');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await me(earlier)).status).toBe(200); // failing on purpose signs nobody out
    expect(await auditOf(user.id, 'ACCOUNT_LOCKED')).toHaveLength(1);

    const listed = await call(stack.apiUrl, 'GET', `/api/users/${user.id}`, { token: admin.token });
    expect(listed.body.locked).toBe(true);
    const unlocked = await call(stack.apiUrl, 'POST', `/api/users/${user.id}/unlock`, { token: admin.token });
    expect(unlocked.status).toBe(200);
    expect(unlocked.body.locked).toBe(false);
    expect(await stack.db.user.findUniqueOrThrow({ where: { id: user.id } })).toMatchObject({ locked: false, failedLoginCount: 0 });
    const unlockAudit = await auditOf(user.id, 'ACCOUNT_UNLOCKED');
    expect(unlockAudit).toHaveLength(1);
    expect(unlockAudit[0]).toMatchObject({ actorType: 'USER', actorId: String(admin.user.id), requestId: unlocked.headers.get('x-request-id') });

    expect((await signIn({ username: user.username, password: PASSWORD })).status).toBe(200);
  });

  it('counts failures in a row only: a successful sign-in resets the count', async () => {
    const user = await createUser(stack.db, merchant, ['USER']);
    for (let i = 0; i < 4; i++) await signIn({ username: user.username, password: 'Wrong-password-00' });
    expect((await signIn({ username: user.username, password: PASSWORD })).status).toBe(200);
    expect((await stack.db.user.findUniqueOrThrow({ where: { id: user.id } })).failedLoginCount).toBe(0);
    for (let i = 0; i < 4; i++) await signIn({ username: user.username, password: 'Wrong-password-00' });
    expect(await stack.db.user.findUniqueOrThrow({ where: { id: user.id } })).toMatchObject({ locked: false, failedLoginCount: 4 });
    expect((await signIn({ username: user.username, password: PASSWORD })).status).toBe(200);
  });

  it('unlocking an account that is not locked changes nothing', async () => {
    const user = await createUser(stack.db, merchant, ['USER']);
    const res = await call(stack.apiUrl, 'POST', `/api/users/${user.id}/unlock`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(await auditOf(user.id, 'ACCOUNT_UNLOCKED')).toHaveLength(0);
  });
});

describe('disabled accounts', () => {
  it('a soft-deleted user cannot sign in, even with the right password, and does not count failures', async () => {
    const user = await createUser(stack.db, merchant, ['USER']);
    expect((await call(stack.apiUrl, 'DELETE', `/api/users/${user.id}`, { token: admin.token })).status).toBe(204);
    expect(expectErrorShape(await signIn({ username: user.username, password: PASSWORD }), 401)).toMatch(/disabled/);
    expect(expectErrorShape(await signIn({ username: user.username, password: 'Wrong-password-00' }), 401)).not.toMatch(/disabled/);
    expect((await stack.db.user.findUniqueOrThrow({ where: { id: user.id } })).failedLoginCount).toBe(0);
  });
});

describe('sessions', () => {
  it('logout ends the session at once; other sessions of the user go on', async () => {
    const user = await createUser(stack.db, merchant, ['USER']);
    const first = await login(stack.apiUrl, user.username);
    const second = await login(stack.apiUrl, user.username);
    expect((await call(stack.apiUrl, 'POST', '/api/auth/logout', { token: first })).status).toBe(204);
    expectErrorShape(await me(first), 401);
    expectErrorShape(await call(stack.apiUrl, 'POST', '/api/auth/logout', { token: first }), 401);
    expect((await me(second)).status).toBe(200);
    expect(await auditOf(user.id, 'LOGOUT')).toHaveLength(1);
  });

  it('an expired session is refused', async () => {
    const user = await createUser(stack.db, merchant, ['USER']);
    const token = await login(stack.apiUrl, user.username);
    expect((await me(token)).status).toBe(200);
    await stack.db.session.update({ where: { tokenHash: hashSessionToken(token) }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(expectErrorShape(await me(token), 401)).toMatch(/expired/);
  });

  it('sessions live SESSION_TTL_HOURS: with a tiny value they expire on their own', async () => {
    const short = await startTestStack({ SESSION_TTL_HOURS: '0.0003', SERVICES: 'api' }); // about 1.1 s
    try {
      const user = await createUser(short.db, merchant, ['USER']);
      const token = await login(short.apiUrl, user.username);
      const session = await short.db.session.findUniqueOrThrow({ where: { tokenHash: hashSessionToken(token) } });
      expect(session.expiresAt.getTime() - session.createdAt.getTime()).toBeLessThan(2000);
      await new Promise((r) => setTimeout(r, 1500));
      expectErrorShape(await call(short.apiUrl, 'GET', '/api/users/me', { token }), 401);
    } finally {
      await short.stop();
    }
  });
});

describe('MFA with TOTP', () => {
  it('enrolment, the code at sign-in, replay refusal, and the admin reset forcing re-enrolment', async () => {
    const { user, token } = await signedInUser(stack.db, stack.apiUrl, merchant, ['FINANCE']);

    // Enrolment: a secret, pending until a code from it is verified.
    const enrol = await call(stack.apiUrl, 'POST', '/api/users/me/mfa/enroll', { token });
    expect(enrol.status).toBe(200);
    expect(enrol.body).toEqual({ secret: expect.stringMatching(/^[A-Z2-7]{32}$/), otpauthUrl: expect.stringMatching(/^otpauth:\/\/totp\//) });
    expect(enrol.body.otpauthUrl).toContain(`secret=${enrol.body.secret}`);
    const secret = enrol.body.secret as string;
    expect((await signIn({ username: user.username, password: PASSWORD })).status).toBe(200); // not on yet

    const wrong = await call(stack.apiUrl, 'POST', '/api/users/me/mfa/verify', { token, body: { code: totpCode(secret, 10) } });
    expect(expectErrorShape(wrong, 400)).toContain('code');
    expect((await stack.db.user.findUniqueOrThrow({ where: { id: user.id } })).mfaEnabled).toBe(false);

    const verified = await call(stack.apiUrl, 'POST', '/api/users/me/mfa/verify', { token, body: { code: totpCode(secret) } });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ mfaEnabled: true, mfaEnrollmentRequired: false });
    expect(verified.body).not.toHaveProperty('mfaSecret');
    expectErrorShape(await call(stack.apiUrl, 'POST', '/api/users/me/mfa/enroll', { token }), 409);

    // Sign-in now needs a valid code.
    expect(expectErrorShape(await signIn({ username: user.username, password: PASSWORD }), 401)).toContain('totp');
    expect(expectErrorShape(await signIn({ username: user.username, password: PASSWORD, totp: totpCode(secret, 10) }), 401)).toContain('totp');
    const next = totpCode(secret, 1); // the enrolment used the current step; a code is good once
    const withCode = await signIn({ username: user.username, password: PASSWORD, totp: next });
    expect(withCode.status).toBe(200);
    expect(withCode.body.mfaEnrollmentRequired).toBe(false);
    expectErrorShape(await signIn({ username: user.username, password: PASSWORD, totp: next }), 401); // replay
    expect(expectErrorShape(await signIn({ username: user.username, password: 'Wrong-password-00', totp: totpCode(secret, 1) }), 401)).not.toContain('totp');

    // The admin reset: MFA off, every session ends, the next sign-in can only enrol.
    const reset = await call(stack.apiUrl, 'POST', `/api/users/${user.id}/mfa/reset`, { token: admin.token });
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({ mfaEnabled: false, mfaEnrollmentRequired: true });
    expectErrorShape(await me(withCode.body.token), 401);
    expect(await auditOf(user.id, 'MFA_RESET')).toHaveLength(1);
    expect(await stack.db.user.findUniqueOrThrow({ where: { id: user.id } })).toMatchObject({ mfaSecret: null, mfaEnabled: false });

    const limited = await signIn({ username: user.username, password: PASSWORD });
    expect(limited.status).toBe(200);
    expect(limited.body.mfaEnrollmentRequired).toBe(true);
    const pending = limited.body.token as string;
    expect(expectErrorShape(await call(stack.apiUrl, 'GET', '/api/users', { token: pending }), 403)).toMatch(/enrol/);
    expect((await me(pending)).body).toMatchObject({ mfaEnrollmentRequired: true });

    const again = await call(stack.apiUrl, 'POST', '/api/users/me/mfa/enroll', { token: pending });
    expect(again.status).toBe(200);
    expect(again.body.secret).not.toBe(secret);
    const reenrolled = await call(stack.apiUrl, 'POST', '/api/users/me/mfa/verify', { token: pending, body: { code: totpCode(again.body.secret) } });
    expect(reenrolled.body).toMatchObject({ mfaEnabled: true, mfaEnrollmentRequired: false });
    expect((await call(stack.apiUrl, 'GET', '/api/users', { token: pending })).status).toBe(200); // the session is whole now
    expect(await auditOf(user.id, 'MFA_ENROLLED')).toHaveLength(2);

    expectErrorShape(await signIn({ username: user.username, password: PASSWORD }), 401);
    expect((await signIn({ username: user.username, password: PASSWORD, totp: totpCode(again.body.secret, 1) })).status).toBe(200);
  });

  it('a session waiting for enrolment reaches nothing else, even for an administrator', async () => {
    const pendingAdmin = await createUser(stack.db, merchant, ['ADMIN'], { mfaEnrollmentRequired: true });
    const victim = await createUser(stack.db, merchant, ['USER']);
    const res = await signIn({ username: pendingAdmin.username, password: PASSWORD });
    expect(res.body.mfaEnrollmentRequired).toBe(true);
    const token = res.body.token as string;
    const before = await stack.db.user.findUniqueOrThrow({ where: { id: victim.id } });
    for (const [method, path, body] of [
      ['PUT', `/api/users/${victim.id}`, { roles: ['ADMIN'] }],
      ['PUT', `/api/users/${pendingAdmin.id}`, { displayName: 'x' }],
      ['PUT', `/api/users/${victim.id}/password`, { password: 'Hijacked-password-1' }],
      ['DELETE', `/api/users/${victim.id}`, undefined],
      ['POST', '/api/users', { username: 'sneaky-admin', password: 'Hijacked-password-1', roles: ['ADMIN'] }],
      ['POST', '/api/api-keys', { name: 'sneaky', mode: 'live' }],
      ['GET', '/api/api-keys', undefined],
      ['GET', '/api/audit-logs', undefined],
      ['GET', `/api/users/${victim.id}`, undefined],
    ] as const) {
      expect(expectErrorShape(await call(stack.apiUrl, method, path, { token, body }), 403)).toMatch(/enrol/);
    }
    expect(await stack.db.user.findUniqueOrThrow({ where: { id: victim.id } })).toEqual(before);
    expect(await stack.db.user.count({ where: { username: 'sneaky-admin' } })).toBe(0);
    expect((await me(token)).status).toBe(200);
    expect((await call(stack.apiUrl, 'POST', '/api/auth/logout', { token })).status).toBe(204);
  });

  it('wrong codes count towards the lockout', async () => {
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    const user = await createUser(stack.db, merchant, ['USER'], { mfaEnabled: true, mfaSecret: secret });
    const valid = new Set([-1, 0, 1].map((step) => totpCode(secret, step)));
    const wrongCode = ['000000', '111111', '222222', '333333'].find((c) => !valid.has(c))!;
    for (let i = 0; i < 5; i++) expectErrorShape(await signIn({ username: user.username, password: PASSWORD, totp: wrongCode }), 401);
    expect(await stack.db.user.findUniqueOrThrow({ where: { id: user.id } })).toMatchObject({ locked: true, failedLoginCount: 5 });
  });
});
