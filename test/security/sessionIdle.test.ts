import type { Merchant } from '../../src/generated/prisma/client';
import { call, expectErrorShape } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';
import { createMerchant, createUser, login } from '../users/helpers';

/**
 * Issue 22, part B: a dashboard session unused for longer than SESSION_IDLE_MINUTES (default 30)
 * answers 401 and the user signs in again; every authenticated request keeps it alive, with at
 * most one write of its last use a minute. Idle time is simulated by moving the recorded last use
 * back in the database.
 */
let stack: TestStack;
let merchant: Merchant;
beforeAll(async () => {
  stack = await startTestStack();
  merchant = await createMerchant(stack.db);
});
afterAll(async () => {
  await stack?.stop();
});

const ME = '/api/dashboard/me';
const MINUTE = 60_000;

async function signIn(): Promise<{ username: string; token: string; sessionId: string }> {
  const user = await createUser(stack.db, merchant, ['ADMIN']);
  const token = await login(stack.apiUrl, user.username);
  const session = await stack.db.session.findFirstOrThrow({ where: { userId: user.id }, orderBy: { createdAt: 'desc' } });
  return { username: user.username, token, sessionId: session.id };
}

const lastSeen = async (id: string): Promise<Date> => (await stack.db.session.findUniqueOrThrow({ where: { id } })).lastSeenAt;
const setLastSeen = (id: string, minutesAgo: number) =>
  stack.db.session.update({ where: { id }, data: { lastSeenAt: new Date(Date.now() - minutesAgo * MINUTE) } });

describe('SESSION_IDLE_MINUTES', () => {
  it('defaults to 30 minutes', () => {
    expect(stack.config.SESSION_IDLE_MINUTES).toBe(30);
  });

  it('refuses a session idle for longer with 401; signing in again gives a working session', async () => {
    const s = await signIn();
    expect((await call(stack.apiUrl, 'GET', ME, { token: s.token })).status).toBe(200);
    await setLastSeen(s.sessionId, 31);
    expect(expectErrorShape(await call(stack.apiUrl, 'GET', ME, { token: s.token }), 401)).toBe('missing, invalid or expired session token');
    // Refused, not revived: the stale token stays refused.
    expectErrorShape(await call(stack.apiUrl, 'GET', ME, { token: s.token }), 401);
    const again = await login(stack.apiUrl, s.username);
    expect((await call(stack.apiUrl, 'GET', ME, { token: again })).status).toBe(200);
  });

  it('keeps a session in use working past the idle time: each request refreshes its last use', async () => {
    const s = await signIn();
    // 29 minutes idle, then used: the use is recorded, so 29 more minutes later (58 in all) it still works.
    await setLastSeen(s.sessionId, 29);
    expect((await call(stack.apiUrl, 'GET', ME, { token: s.token })).status).toBe(200);
    expect(Date.now() - (await lastSeen(s.sessionId)).getTime()).toBeLessThan(MINUTE);
    await stack.db.session.update({ where: { id: s.sessionId }, data: { createdAt: new Date(Date.now() - 58 * MINUTE) } });
    await setLastSeen(s.sessionId, 29);
    expect((await call(stack.apiUrl, 'GET', ME, { token: s.token })).status).toBe(200);
  });

  it('writes the last use at most about once a minute', async () => {
    const s = await signIn();
    await setLastSeen(s.sessionId, 0.5);
    const before = await lastSeen(s.sessionId);
    for (let i = 0; i < 3; i++) expect((await call(stack.apiUrl, 'GET', ME, { token: s.token })).status).toBe(200);
    expect(await lastSeen(s.sessionId)).toEqual(before);
  });
});
