import crypto from 'node:crypto';
import type { Db } from '../db/client';
import type { UserPrincipal } from './principal';

/** Session tokens: 256 random bits, stored only as a SHA-256 hash. */
export function generateSessionToken(): { token: string; hash: string } {
  const token = crypto.randomBytes(32).toString('base64url');
  return { token, hash: hashSessionToken(token) };
}

export function hashSessionToken(token: string): string {
  return crypto.createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The principal of a live session token, or undefined (expired, revoked, MFA pending, user disabled). */
export async function resolveSession(db: Db, token: string, now = new Date()): Promise<UserPrincipal | undefined> {
  const session = await db.session.findUnique({
    where: { tokenHash: hashSessionToken(token) },
    include: { user: { include: { merchant: true } } },
  });
  if (!session || session.revokedAt || session.expiresAt <= now || session.mfaPending) return undefined;
  const { user } = session;
  if (!user.enabled || user.deletedAt || user.locked) return undefined;
  return {
    kind: 'user',
    merchantId: user.merchantId,
    merchantExternalId: user.merchant.externalId,
    merchantName: user.merchant.name,
    userId: user.id,
    username: user.username,
    roles: user.roles,
    sessionId: session.id,
  };
}
