import crypto from 'node:crypto';
import type { Db } from '../db/client';
import type { UserPrincipal } from './principal';
import { normalizeRole, type Role } from './roles';
import { idleTooLong } from './sessionActivity';

/** Session tokens: 256 random bits, stored only as a SHA-256 hash. */
export function generateSessionToken(): { token: string; hash: string } {
  const token = crypto.randomBytes(32).toString('base64url');
  return { token, hash: hashSessionToken(token) };
}

export function hashSessionToken(token: string): string {
  return crypto.createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Anything with the session table: the client or a transaction. */
type SessionStore = Pick<Db, 'session'>;

/**
 * Starts a session for a user. `mfaEnrollmentPending` marks a session that may reach only the
 * caller's own account (profile, logout, authenticator enrolment) until the authenticator is
 * enrolled: after an administrator's MFA reset.
 */
export async function createSession(
  db: SessionStore,
  userId: number,
  ttlHours: number,
  opts: { mfaEnrollmentPending?: boolean; now?: Date } = {},
): Promise<{ token: string; expiresAt: Date; sessionId: string }> {
  const { token, hash } = generateSessionToken();
  const expiresAt = new Date((opts.now ?? new Date()).getTime() + ttlHours * 3_600_000);
  const session = await db.session.create({ data: { userId, tokenHash: hash, expiresAt, mfaPending: opts.mfaEnrollmentPending ?? false } });
  return { token, expiresAt, sessionId: session.id };
}

/** Ends one session (logout). */
export async function endSession(db: SessionStore, sessionId: string, now = new Date()): Promise<void> {
  await db.session.updateMany({ where: { id: sessionId, revokedAt: null }, data: { revokedAt: now } });
}

/** Ends every live session of a user (password reset, disable, MFA reset). Returns how many. */
export async function endSessionsOfUser(db: SessionStore, userId: number, now = new Date()): Promise<number> {
  const { count } = await db.session.updateMany({ where: { userId, revokedAt: null, expiresAt: { gt: now } }, data: { revokedAt: now } });
  return count;
}

export interface SessionState {
  principal: UserPrincipal;
  /** The session may reach only 'ownAccount' routes until the authenticator is enrolled. */
  mfaEnrollmentPending: boolean;
  /** The session's last recorded use (src/auth/sessionActivity.ts). */
  lastSeenAt: Date;
}

/** SESSION_IDLE_MINUTES, and the time to judge by. */
export interface SessionCheck {
  idleMinutes: number;
  now?: Date;
}

/**
 * The state of a live session token, or undefined (unknown, expired, idle too long, revoked, user
 * disabled). A `locked` mark (failed sign-ins) ends no session: anyone could set it by failing on
 * purpose.
 */
export async function resolveSessionState(db: Db, token: string, check: SessionCheck): Promise<SessionState | undefined> {
  const now = check.now ?? new Date();
  const session = await db.session.findUnique({
    where: { tokenHash: hashSessionToken(token) },
    include: { user: { include: { merchant: true } } },
  });
  if (!session || session.revokedAt || session.expiresAt <= now) return undefined;
  if (idleTooLong(session.lastSeenAt, now, check.idleMinutes)) return undefined;
  const { user } = session;
  if (!user.enabled || user.deletedAt) return undefined;
  return {
    lastSeenAt: session.lastSeenAt,
    mfaEnrollmentPending: session.mfaPending,
    principal: {
      kind: 'user',
      merchantId: user.merchantId,
      merchantExternalId: user.merchant.externalId,
      merchantName: user.merchant.name,
      userId: user.id,
      username: user.username,
      roles: user.roles.map(normalizeRole).filter((r): r is Role => r !== undefined),
      sessionId: session.id,
    },
  };
}

/** The principal of a live, fully signed-in session token, or undefined (also while MFA enrolment is pending). */
export async function resolveSession(db: Db, token: string, check: SessionCheck): Promise<UserPrincipal | undefined> {
  const state = await resolveSessionState(db, token, check);
  return state && !state.mfaEnrollmentPending ? state.principal : undefined;
}
