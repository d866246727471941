import { openSecret } from '../secrets/active';
import { audit } from '../audit/audit';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { createSession, endSession } from '../auth/sessions';
import type { Db } from '../db/client';
import type { User } from '../generated/prisma/client';
import { unauthenticated } from '../domain/errors';
import type { Caller } from './management';
import { checkTotp } from './mfa';

/** Contracts 2: five wrong passwords in a row lock the account. */
export const MAX_FAILED_SIGN_INS = 5;

export const INVALID_CREDENTIALS = 'invalid username or password';
export const ACCOUNT_LOCKED = 'this account is locked after too many failed sign-ins; an administrator must unlock it';
export const ACCOUNT_DISABLED = 'this account is disabled';
export const TOTP_REQUIRED = 'totp: a code from your authenticator app is required';
export const TOTP_INVALID = 'totp: invalid or already used code';

export interface SignInInput {
  username: string;
  password: string;
  totp?: string;
}

export interface SignInResult {
  token: string;
  expiresAt: Date;
  /** True after an MFA reset: the session may only enrol an authenticator (and read the own profile, log out). */
  mfaEnrollmentRequired: boolean;
}

export interface SignInContext {
  db: Db;
  sessionTtlHours: number;
  requestId?: string;
  ip?: string;
}

// A hash to verify against when the username is unknown, so both answers take the same time.
let decoyHash: Promise<string> | undefined;
const decoy = (): Promise<string> => (decoyHash ??= hashPassword('decoy-password-0000'));

type FailureReason = 'BAD_PASSWORD' | 'ACCOUNT_LOCKED' | 'ACCOUNT_DISABLED' | 'MFA_CODE_MISSING' | 'MFA_CODE_INVALID';

/**
 * Dashboard sign-in (contracts 2). Every refusal is 401. Wrong passwords and wrong one-time codes
 * count towards the lockout; the fifth in a row locks the account. A locked account is refused
 * even with the right password, and the answer says it is locked. A success resets the count.
 * Failed sign-ins write the count and the audit log: the one place where a 4xx writes.
 */
export async function signIn(c: SignInContext, input: SignInInput): Promise<SignInResult> {
  const { db } = c;
  const user = await db.user.findFirst({ where: { username: { equals: input.username, mode: 'insensitive' } } });
  if (!user) {
    await verifyPassword(await decoy(), input.password);
    throw unauthenticated(INVALID_CREDENTIALS);
  }
  const fail = async (reason: FailureReason, extra: Record<string, unknown> = {}): Promise<void> => {
    await audit(db, {
      merchantId: user.merchantId,
      actor: { type: 'ANONYMOUS' },
      action: 'LOGIN_FAILED',
      target: { type: 'USER', id: user.id },
      details: { reason, ip: c.ip, ...extra },
      requestId: c.requestId,
    });
  };

  if (user.locked) {
    await fail('ACCOUNT_LOCKED');
    throw unauthenticated(ACCOUNT_LOCKED);
  }
  const passwordOk = await verifyPassword(user.passwordHash, input.password);
  if (!user.enabled || user.deletedAt) {
    // A disabled account says so only to someone who knows its password; it never counts failures.
    await fail('ACCOUNT_DISABLED');
    throw unauthenticated(passwordOk ? ACCOUNT_DISABLED : INVALID_CREDENTIALS);
  }
  if (!passwordOk) {
    const locked = await countFailure(c, user, 'BAD_PASSWORD');
    throw unauthenticated(locked ? `${INVALID_CREDENTIALS}; ${ACCOUNT_LOCKED}` : INVALID_CREDENTIALS);
  }

  let acceptedStep: number | undefined;
  const mfaActive = user.mfaEnabled && user.mfaSecret !== null;
  if (mfaActive) {
    if (!input.totp) {
      await fail('MFA_CODE_MISSING');
      throw unauthenticated(TOTP_REQUIRED);
    }
    acceptedStep = await checkTotp(openSecret(user.mfaSecret!, 'mfa'), input.totp, user.mfaLastTimeStep);
    if (acceptedStep === undefined) {
      const locked = await countFailure(c, user, 'MFA_CODE_INVALID');
      throw unauthenticated(locked ? `${TOTP_INVALID}; ${ACCOUNT_LOCKED}` : TOTP_INVALID);
    }
  }

  const mfaEnrollmentRequired = !mfaActive && user.mfaEnrollmentRequired;
  const session = await db.$transaction(async (tx) => {
    if (acceptedStep !== undefined) {
      // Claims the code's time step: of two sign-ins racing with one code, only one gets through.
      const claimed = await tx.user.updateMany({
        where: { id: user.id, OR: [{ mfaLastTimeStep: null }, { mfaLastTimeStep: { lt: acceptedStep } }] },
        data: { mfaLastTimeStep: acceptedStep, failedLoginCount: 0 },
      });
      if (claimed.count === 0) return undefined;
    } else if (user.failedLoginCount !== 0) {
      await tx.user.update({ where: { id: user.id }, data: { failedLoginCount: 0 } });
    }
    const created = await createSession(tx, user.id, c.sessionTtlHours, { mfaEnrollmentPending: mfaEnrollmentRequired });
    await audit(tx, {
      merchantId: user.merchantId,
      actor: { type: 'USER', id: user.id },
      action: 'LOGIN_SUCCEEDED',
      target: { type: 'USER', id: user.id },
      details: { ip: c.ip, mfa: mfaActive, mfaEnrollmentRequired, sessionId: created.sessionId },
      requestId: c.requestId,
    });
    return created;
  });
  if (!session) {
    await countFailure(c, user, 'MFA_CODE_INVALID');
    throw unauthenticated(TOTP_INVALID);
  }
  return { token: session.token, expiresAt: session.expiresAt, mfaEnrollmentRequired };
}

/** One more failure in a row; the fifth locks the account. Returns true when this one locked it. */
async function countFailure(c: SignInContext, user: User, reason: FailureReason): Promise<boolean> {
  return c.db.$transaction(async (tx) => {
    const counted = await tx.user.update({ where: { id: user.id }, data: { failedLoginCount: { increment: 1 } } });
    const base = { merchantId: user.merchantId, target: { type: 'USER', id: user.id }, requestId: c.requestId };
    await audit(tx, { ...base, actor: { type: 'ANONYMOUS' }, action: 'LOGIN_FAILED', details: { reason, ip: c.ip, failedInARow: counted.failedLoginCount } });
    if (counted.failedLoginCount < MAX_FAILED_SIGN_INS) return false;
    // Only the attempt that flips the flag records the lockout, however many race past the limit.
    const locked = await tx.user.updateMany({ where: { id: user.id, locked: false }, data: { locked: true } });
    if (locked.count === 0) return false;
    await audit(tx, { ...base, actor: { type: 'ANONYMOUS' }, action: 'ACCOUNT_LOCKED', details: { failedInARow: counted.failedLoginCount } });
    await tx.session.updateMany({ where: { userId: user.id, revokedAt: null }, data: { revokedAt: new Date() } });
    return true;
  });
}

/** Signing out: the session token stops working at once; the audit entry commits with it. */
export async function signOut(db: Db, caller: Caller): Promise<void> {
  await db.$transaction(async (tx) => {
    await endSession(tx, caller.principal.sessionId);
    await audit(tx, {
      merchantId: caller.principal.merchantId,
      actor: { type: 'USER', id: caller.principal.userId },
      action: 'LOGOUT',
      target: { type: 'USER', id: caller.principal.userId },
      details: { sessionId: caller.principal.sessionId },
      requestId: caller.requestId,
    });
  });
}
