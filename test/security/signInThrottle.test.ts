import crypto from 'node:crypto';
import type { Merchant } from '../../src/generated/prisma/client';
import { call, expectErrorShape, type HttpResult } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';
import { createMerchant, createUser, PASSWORD } from '../users/helpers';

/**
 * Issue 15, point 4: sign-in throttling (docs/security.md, "Sign-in"). Before the fix, 150
 * parallel attempts were all refused only after argon2 each, a locked account answered
 * differently from an unknown one, and anyone could lock a known username for good.
 *
 * The stack trusts X-Forwarded-For (TRUST_PROXY, as behind a proxy), so each test plays callers
 * from addresses of its own, away from the loopback address the rest of the suite signs in from.
 */
const ADDRESS_FAILURES = 20;
const USERNAME_FAILURES = 10;
const USERNAME_COOLDOWN_SECONDS = 60;

let stack: TestStack;
let merchant: Merchant;

beforeAll(async () => {
  stack = await startTestStack({
    SERVICES: 'api',
    TRUST_PROXY: 'true',
    SIGN_IN_ADDRESS_FAILURES: String(ADDRESS_FAILURES),
    SIGN_IN_USERNAME_FAILURES: String(USERNAME_FAILURES),
    SIGN_IN_USERNAME_COOLDOWN_SECONDS: String(USERNAME_COOLDOWN_SECONDS),
  });
  merchant = await createMerchant(stack.db);
});
afterAll(async () => {
  await stack?.stop();
});

let addressCount = 0;
/** Unique per call within a run: 198.18.x.y (RFC 2544 benchmarking range), never the loopback address. */
const address = (): string => {
  addressCount += 1;
  const n = crypto.randomInt(0, 60000) + addressCount;
  return `198.18.${(n >> 8) & 255}.${n & 255}`;
};

const signIn = (from: string, username: string, password: string): Promise<HttpResult> =>
  call(stack.apiUrl, 'POST', '/api/auth/login', { body: { username, password }, headers: { 'X-Forwarded-For': from } });

/** The answer without the parts that differ by the moment it was given. */
const shape = (r: HttpResult) => ({ status: r.status, message: r.body?.message, error: r.body?.error, keys: Object.keys(r.body ?? {}).sort() });

describe('sign-in throttling', () => {
  it('a flood of parallel bad attempts from one address: only SIGN_IN_ADDRESS_FAILURES are checked, the rest get 429 in the error shape with Retry-After', async () => {
    const from = address();
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => signIn(from, `nobody-${crypto.randomBytes(4).toString('hex')}-${i}`, 'Wrong-password-00')),
    );
    const refused = results.filter((r) => r.status === 429);
    expect(results.filter((r) => r.status === 401)).toHaveLength(ADDRESS_FAILURES);
    expect(refused).toHaveLength(60 - ADDRESS_FAILURES);
    for (const r of refused) {
      expect(expectErrorShape(r, 429)).toBe('too many failed sign-ins; try again later');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    // Even the right password of a real user waits: the address is shut, whoever it names.
    const user = await createUser(stack.db, merchant, ['USER']);
    expectErrorShape(await signIn(from, user.username, PASSWORD), 429);
    expect((await signIn(address(), user.username, PASSWORD)).status).toBe(200);
  });

  it('parallel guesses at one username from one address: five are checked (and counted), the rest refused before any password check', async () => {
    const user = await createUser(stack.db, merchant, ['USER']);
    const from = address();
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => signIn(from, user.username, `Wrong-password-${i}0`)));
    expect(results.filter((r) => r.status === 401)).toHaveLength(5);
    expect(results.filter((r) => r.status === 429)).toHaveLength(25);
    const failures = await stack.db.auditLog.count({ where: { targetType: 'USER', targetId: String(user.id), action: 'LOGIN_FAILED' } });
    expect(failures).toBe(5); // the refused 25 never reached the password check
    expect(await stack.db.user.findUniqueOrThrow({ where: { id: user.id } })).toMatchObject({ locked: true, failedLoginCount: 5 });
  });

  it('answers an unknown user, a wrong password and a locked account the same way', async () => {
    const user = await createUser(stack.db, merchant, ['USER']);
    const unknown = `nobody-${crypto.randomBytes(5).toString('hex')}`;
    const first = address();
    const wrong = await signIn(first, user.username, 'Wrong-password-00');
    const noSuchUser = await signIn(first, unknown, 'Wrong-password-00');
    expectErrorShape(wrong, 401);
    expect(shape(noSuchUser)).toEqual(shape(wrong));

    // Five wrong passwords in a row lock the known account for this address; the unknown name behaves alike.
    const attacker = address();
    for (let i = 0; i < 5; i++) {
      expect(shape(await signIn(attacker, user.username, `Wrong-password-${i}0`))).toEqual(shape(wrong));
      expect(shape(await signIn(attacker, unknown, `Wrong-password-${i}0`))).toEqual(shape(wrong));
    }
    expect((await stack.db.user.findUniqueOrThrow({ where: { id: user.id } })).locked).toBe(true);
    const lockedRight = await signIn(attacker, user.username, PASSWORD);
    const lockedUnknown = await signIn(attacker, unknown, PASSWORD);
    expectErrorShape(lockedRight, 429);
    expect(shape(lockedUnknown)).toEqual(shape(lockedRight));
    expect(lockedRight.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(lockedUnknown.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);

    // From another address, the locked account answers a wrong password exactly like an unknown user.
    const other = address();
    expect(shape(await signIn(other, user.username, 'Wrong-password-99'))).toEqual(shape(wrong));
    expect(shape(await signIn(other, unknown, 'Wrong-password-99'))).toEqual(shape(wrong));
  });

  it('an attacker hammering a username cannot keep its owner out: a right password from an address that has not been failing signs in', async () => {
    const user = await createUser(stack.db, merchant, ['USER']);
    const session = (await signIn(address(), user.username, PASSWORD)).body.token as string;
    // Three attacker addresses, five guesses each, over SIGN_IN_USERNAME_FAILURES (10) in a row.
    const attackers = [address(), address(), address()];
    const statuses: number[] = [];
    for (const from of attackers) for (let i = 0; i < 5; i++) statuses.push((await signIn(from, user.username, `Wrong-password-${i}0`)).status);
    // The eleventh failure starts the username's cool-down: the third address's first guess is still
    // checked (it had not failed before), its next ones are not.
    expect(statuses).toEqual([...Array(11).fill(401), ...Array(4).fill(429)]);
    for (const from of attackers) expectErrorShape(await signIn(from, user.username, PASSWORD), 429);
    expect((await call(stack.apiUrl, 'GET', '/api/users/me', { token: session })).status).toBe(200);

    // An address that failed once on this username waits out the short cool-down, no longer.
    const typo = address();
    expectErrorShape(await signIn(typo, user.username, 'Wrong-password-00'), 401);
    const cooling = await signIn(typo, user.username, PASSWORD);
    expectErrorShape(cooling, 429);
    expect(Number(cooling.headers.get('retry-after'))).toBeLessThanOrEqual(USERNAME_COOLDOWN_SECONDS);

    // The owner, from an address that has not been failing, signs in; the attackers stay shut out.
    const owner = await signIn(address(), user.username, PASSWORD);
    expect(owner.status).toBe(200);
    expect(owner.body.token).toEqual(expect.any(String));
    expect(await stack.db.user.findUniqueOrThrow({ where: { id: user.id } })).toMatchObject({ locked: false, failedLoginCount: 0 });
    expectErrorShape(await signIn(attackers[0]!, user.username, PASSWORD), 429);
    // The cool-down ended with the success: the address with one typo gets in again.
    expect((await signIn(typo, user.username, PASSWORD)).status).toBe(200);
  });

  it('the password step of an MFA sign-in is not a failure: signing in with a second factor many times never throttles', async () => {
    const user = await createUser(stack.db, merchant, ['USER'], { mfaEnabled: true, mfaSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' });
    const from = address();
    for (let i = 0; i < 8; i++) expect(expectErrorShape(await signIn(from, user.username, PASSWORD), 401)).toContain('totp');
    expect((await stack.db.user.findUniqueOrThrow({ where: { id: user.id } })).failedLoginCount).toBe(0);
  });
});
