import { openSecret } from '../secrets/active';
import { audit } from '../audit/audit';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { createSession, endSession } from '../auth/sessions';
import type { Db } from '../db/client';
import type { User } from '../generated/prisma/client';
import { unauthenticated } from '../domain/errors';
import type { Caller } from './management';
import { checkTotp } from './mfa';
import { MAX_FAILED_SIGN_INS, type SignInAttempt, type SignInThrottle } from './signInThrottle';

/** The one answer to every refusal before the password is proven: unknown user, wrong password, disabled, locked. */
export const INVALID_CREDENTIALS = 'invalid username or password';
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
  throttle: SignInThrottle;
}

// A hash to verify against when the username is unknown, so both answers take the same time.
let decoyHash: Promise<string> | undefined;
const decoy = (): Promise<string> => (decoyHash ??= hashPassword('decoy-password-0000'));

type FailureReason = 'BAD_PASSWORD' | 'ACCOUNT_DISABLED' | 'MFA_CODE_MISSING' | 'MFA_CODE_INVALID';

/**
 * Dashboard sign-in (docs/users-and-keys.md, "Sign-in and sessions"). The throttle takes its points before anything else
 * (src/users/signInThrottle.ts: 429 with Retry-After when an address or a username is over its
 * limit). Every refusal before the password is proven is the same 401 with the same message and
 * costs the same password check, whether the user is unknown, the password wrong or the account
 * locked, so no answer tells whether a username exists. Only a caller who knows the password learns
 * that the account is disabled or that a second factor is needed. Five wrong passwords or codes in a
 * row mark the account `locked` (shown to administrators, audited); the refusals themselves are the
 * throttle's, which a right password from an address that has not been failing passes.
 * Failed sign-ins write the count and the audit log: the one place where a 4xx writes.
 */
export async function signIn(c: SignInContext, input: SignInInput): Promise<SignInResult> {
  // Usernames are stored in NFKC (src/users/username.ts): "ａｄｍｉｎ" signs in as "admin", and
  // is throttled as "admin" too, so width variants do not buy more guesses.
  const attempt = await c.throttle.begin(input.username.normalize('NFKC'), c.ip);
  const result = await checkedSignIn(c, input, attempt);
  await attempt.succeeded();
  return result;
}

async function checkedSignIn(c: SignInContext, input: SignInInput, attempt: SignInAttempt): Promise<SignInResult> {
  const { db } = c;
  const byName = (username: string) => db.user.findFirst({ where: { username: { equals: username, mode: 'insensitive' } } });
  const normalized = input.username.normalize('NFKC');
  // the form as typed too: an account created before usernames were normalised keeps signing in
  const user = (await byName(normalized)) ?? (normalized !== input.username ? await byName(input.username) : null);
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

  const passwordOk = await verifyPassword(user.passwordHash, input.password);
  if (!user.enabled || user.deletedAt) {
    // A disabled account says so only to someone who knows its password; it never counts failures.
    await fail('ACCOUNT_DISABLED');
    throw unauthenticated(passwordOk ? ACCOUNT_DISABLED : INVALID_CREDENTIALS);
  }
  if (!passwordOk) {
    await countFailure(c, user, 'BAD_PASSWORD');
    throw unauthenticated(INVALID_CREDENTIALS);
  }

  let acceptedStep: number | undefined;
  const mfaActive = user.mfaEnabled && user.mfaSecret !== null;
  if (mfaActive) {
    if (!input.totp) {
      // The first of the two steps of an MFA sign-in: not a failure, the throttle gives its points back.
      await attempt.notCounted();
      await fail('MFA_CODE_MISSING');
      throw unauthenticated(TOTP_REQUIRED);
    }
    acceptedStep = await checkTotp(openSecret(user.mfaSecret!, 'mfa'), input.totp, user.mfaLastTimeStep);
    if (acceptedStep === undefined) {
      await countFailure(c, user, 'MFA_CODE_INVALID');
      throw unauthenticated(TOTP_INVALID);
    }
  }

  const mfaEnrollmentRequired = !mfaActive && user.mfaEnrollmentRequired;
  const session = await db.$transaction(async (tx) => {
    if (acceptedStep !== undefined) {
      // Claims the code's time step: of two sign-ins racing with one code, only one gets through.
      const claimed = await tx.user.updateMany({
        where: { id: user.id, OR: [{ mfaLastTimeStep: null }, { mfaLastTimeStep: { lt: acceptedStep } }] },
        data: { mfaLastTimeStep: acceptedStep, failedLoginCount: 0, locked: false },
      });
      if (claimed.count === 0) return undefined;
    } else if (user.failedLoginCount !== 0 || user.locked) {
      await tx.user.update({ where: { id: user.id }, data: { failedLoginCount: 0, locked: false } });
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

/**
 * One more failure in a row; the fifth marks the account locked (audited once). The mark refuses
 * nothing by itself and ends no session: an attacker who fails on purpose must not sign the owner
 * out or keep them out. It clears on the next success or an administrator's unlock.
 */
async function countFailure(c: SignInContext, user: User, reason: FailureReason): Promise<void> {
  await c.db.$transaction(async (tx) => {
    const counted = await tx.user.update({ where: { id: user.id }, data: { failedLoginCount: { increment: 1 } } });
    const base = { merchantId: user.merchantId, target: { type: 'USER', id: user.id }, requestId: c.requestId };
    await audit(tx, { ...base, actor: { type: 'ANONYMOUS' }, action: 'LOGIN_FAILED', details: { reason, ip: c.ip, failedInARow: counted.failedLoginCount } });
    if (counted.failedLoginCount < MAX_FAILED_SIGN_INS) return;
    // Only the attempt that flips the flag records the lockout, however many race past the limit.
    const locked = await tx.user.updateMany({ where: { id: user.id, locked: false }, data: { locked: true } });
    if (locked.count === 0) return;
    await audit(tx, { ...base, actor: { type: 'ANONYMOUS' }, action: 'ACCOUNT_LOCKED', details: { failedInARow: counted.failedLoginCount, ip: c.ip } });
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
