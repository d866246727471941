import { openSecret, sealSecret } from '../secrets/active';
import { audit } from '../audit/audit';
import type { Db } from '../db/client';
import { conflict, invalid } from '../domain/errors';
import { findUser, type Caller } from './management';
import { checkTotp, newTotpSecret, otpauthUrl } from './mfa';
import { toUserRecord, type UserRecord } from './userRecord';

const ALREADY_ENABLED = 'MFA is already enabled for this account; an administrator can reset it (POST /api/users/{id}/mfa/reset)';

/**
 * Step 1 of enrolment, for the signed-in user: a fresh secret, kept pending until a code from it
 * is verified. Asking again replaces the pending secret.
 */
export async function startMfaEnrollment(db: Db, caller: Caller): Promise<{ secret: string; otpauthUrl: string }> {
  const user = await findUser(db, caller, caller.principal.userId);
  if (user.mfaEnabled) throw conflict(ALREADY_ENABLED);
  const secret = newTotpSecret();
  await db.user.update({ where: { id: user.id }, data: { mfaSecret: sealSecret(secret, 'mfa'), mfaLastTimeStep: null } });
  return { secret, otpauthUrl: otpauthUrl(secret, user.username) };
}

/**
 * Step 2: a valid code from the pending secret turns MFA on. From then on sign-in needs a code;
 * the current session, if it was limited to enrolment, becomes a full session.
 */
export async function confirmMfaEnrollment(db: Db, caller: Caller, code: string): Promise<UserRecord> {
  const user = await findUser(db, caller, caller.principal.userId);
  if (user.mfaEnabled) throw conflict(ALREADY_ENABLED);
  if (!user.mfaSecret) throw conflict('no enrolment in progress: POST /api/users/me/mfa/enroll first');
  const step = await checkTotp(openSecret(user.mfaSecret, 'mfa'), code, null);
  if (step === undefined) throw invalid('code: invalid code for the enrolled secret');
  const updated = await db.$transaction(async (tx) => {
    const u = await tx.user.update({
      where: { id: user.id },
      data: { mfaEnabled: true, mfaEnrollmentRequired: false, mfaLastTimeStep: step },
    });
    await tx.session.updateMany({ where: { id: caller.principal.sessionId }, data: { mfaPending: false } });
    await audit(tx, {
      merchantId: caller.principal.merchantId,
      actor: { type: 'USER', id: user.id },
      action: 'MFA_ENROLLED',
      target: { type: 'USER', id: user.id },
      requestId: caller.requestId,
    });
    return u;
  });
  return toUserRecord(updated, { externalId: caller.principal.merchantExternalId, name: caller.principal.merchantName });
}
