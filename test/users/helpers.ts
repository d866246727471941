import crypto from 'node:crypto';
import { hashPassword } from '../../src/auth/passwords';
import type { Role } from '../../src/auth/roles';
import type { Db } from '../../src/db/client';
import type { Merchant, User } from '../../src/generated/prisma/client';
import { base32Decode } from '../../src/users/mfa';
import { uniqueId } from '../support/fixtures';
import { call } from '../support/http';

/** The password of every user these tests create directly; hashed once (argon2id is slow on purpose). */
export const PASSWORD = 'Correct-horse-42-battery';
let passwordHash: Promise<string> | undefined;

export async function createMerchant(db: Db, name = 'Users Test Merchant'): Promise<Merchant> {
  return db.merchant.create({ data: { externalId: uniqueId('m'), name } });
}

/** A user written straight to the database, password PASSWORD. */
export async function createUser(db: Db, merchant: Merchant, roles: Role[], data: Partial<User> = {}): Promise<User> {
  return db.user.create({
    data: {
      merchantId: merchant.id,
      username: uniqueId('user'),
      passwordHash: await (passwordHash ??= hashPassword(PASSWORD)),
      roles,
      ...data,
    } as any,
  });
}

export async function login(baseUrl: string, username: string, password = PASSWORD, totp?: string): Promise<string> {
  const res = await call(baseUrl, 'POST', '/api/auth/login', { body: { username, password, ...(totp ? { totp } : {}) } });
  if (res.status !== 200) throw new Error(`login of ${username} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token as string;
}

/** A user with these roles, signed in through the API. */
export async function signedInUser(db: Db, baseUrl: string, merchant: Merchant, roles: Role[]): Promise<{ user: User; token: string }> {
  const user = await createUser(db, merchant, roles);
  return { user, token: await login(baseUrl, user.username) };
}

/**
 * The code an authenticator app shows, `stepsAhead` 30-second steps from now: RFC 6238 written out
 * here (HMAC-SHA1, dynamic truncation, six digits), independent of the library under test.
 */
export function totpCode(secret: string, stepsAhead = 0, epochSeconds = Date.now() / 1000): string {
  const counter = Math.floor(epochSeconds / 30) + stepsAhead;
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = crypto
    .createHmac('sha1', Buffer.from(base32Decode(secret)))
    .update(message)
    .digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 1_000_000).padStart(6, '0');
}

/** Everything of a merchant that a refused request must leave untouched. */
export async function merchantSnapshot(db: Db, merchantId: string): Promise<unknown> {
  const [users, sessions, apiKeys, auditLogs] = await Promise.all([
    db.user.findMany({ where: { merchantId }, orderBy: { id: 'asc' } }),
    db.session.findMany({ where: { user: { merchantId } }, orderBy: { id: 'asc' } }),
    db.apiKey.findMany({ where: { merchantId }, orderBy: { id: 'asc' } }),
    db.auditLog.count({ where: { merchantId } }),
  ]);
  // lastUsedAt and lastSeenAt are bookkeeping of key and session use, not a change of state.
  return {
    users,
    sessions: sessions.map(({ lastSeenAt: _seen, ...s }) => s),
    apiKeys: apiKeys.map(({ lastUsedAt: _ignored, ...k }) => k),
    auditLogs,
  };
}
