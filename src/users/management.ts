import { audit, type AuditEntry } from '../audit/audit';
import type { UserPrincipal } from '../auth/principal';
import { hashPassword, passwordProblem } from '../auth/passwords';
import { areasOfRoles, canGrant, parseRoles, ROLES, withRolePrefix, type Role } from '../auth/roles';
import { endSessionsOfUser } from '../auth/sessions';
import { isUniqueViolation, type Db } from '../db/client';
import type { Prisma, User } from '../generated/prisma/client';
import { conflict, forbidden, invalid, notFound } from '../domain/errors';
import { pageArgs } from '../domain/listQuery';
import { forgetSignInFailures } from './signInThrottle';
import { toUserRecord, type UserRecord } from './userRecord';

/**
 * User management (docs/users-and-keys.md, "Users") for a signed-in caller. Every rule lives here: only administrators
 * manage users, nobody changes their own roles, roles are granted only up to the granter's own
 * authority, everything stays inside the caller's merchant (another merchant's user is 404).
 * Each change and its audit entry commit together; a refused request writes nothing.
 */
export interface Caller {
  principal: UserPrincipal;
  requestId?: string;
}

type Tx = Prisma.TransactionClient;

function auditAs(caller: Caller, entry: Omit<AuditEntry, 'merchantId' | 'actor' | 'requestId'>): AuditEntry {
  return { ...entry, merchantId: caller.principal.merchantId, actor: { type: 'USER', id: caller.principal.userId }, requestId: caller.requestId };
}

const merchantOf = (caller: Caller) => ({ externalId: caller.principal.merchantExternalId, name: caller.principal.merchantName });

const isAdministrator = (caller: Caller): boolean => areasOfRoles(caller.principal.roles).has('users');

function requireAdministrator(caller: Caller, what: string): void {
  if (!isAdministrator(caller)) throw forbidden(`only administrators ${what}`);
}

function requireValidPassword(password: string): void {
  const problem = passwordProblem(password);
  if (problem) throw invalid(`password: ${problem}`);
}

/** Role names of a request in either form; unknown names are 400. */
function rolesOf(names: readonly string[]): Role[] {
  const { roles, unknown } = parseRoles(names);
  if (unknown.length > 0)
    throw invalid(
      `roles: unknown role${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `'${n}'`).join(', ')}; expected any of ${ROLES.join(', ')} (with or without ROLE_)`,
    );
  return roles;
}

function requireGrantable(caller: Caller, roles: readonly Role[]): void {
  const beyond = roles.filter((r) => !canGrant(caller.principal.roles, r));
  if (beyond.length > 0) throw forbidden(`roles: ${beyond.map(withRolePrefix).join(', ')} ${beyond.length > 1 ? 'are' : 'is'} beyond your own authority`);
}

/** A user of the caller's merchant, or 404 (also for another merchant's user). */
export async function findUser(db: Db | Tx, caller: Caller, id: number): Promise<User> {
  const user = await db.user.findFirst({ where: { id, merchantId: caller.principal.merchantId } });
  if (!user) throw notFound(`user ${id}`);
  return user;
}

export async function getUser(db: Db, caller: Caller, id: number): Promise<UserRecord> {
  return toUserRecord(await findUser(db, caller, id), merchantOf(caller));
}

export async function listUsers(db: Db, caller: Caller, paging: { page: number; size: number }): Promise<{ content: UserRecord[]; total: number }> {
  const where = { merchantId: caller.principal.merchantId };
  const [users, total] = await Promise.all([db.user.findMany({ where, orderBy: { id: 'asc' }, ...pageArgs(paging) }), db.user.count({ where })]);
  return { content: users.map((u) => toUserRecord(u, merchantOf(caller))), total };
}

export interface CreateUserInput {
  username: string;
  password: string;
  displayName?: string | null;
  email?: string | null;
  roles?: string[];
  merchantExternalId?: string;
}

export async function createUser(db: Db, caller: Caller, input: CreateUserInput): Promise<UserRecord> {
  requireAdministrator(caller, 'create users');
  if (input.merchantExternalId !== undefined && input.merchantExternalId !== caller.principal.merchantExternalId) {
    throw invalid(`merchantExternalId: users are created in your own merchant '${caller.principal.merchantExternalId}'; omit the field or name it`);
  }
  requireValidPassword(input.password);
  const roles = input.roles && input.roles.length > 0 ? rolesOf(input.roles) : (['USER'] as Role[]);
  requireGrantable(caller, roles);
  const taken = () => conflict(`username: '${input.username}' is already taken`);
  if (await db.user.findFirst({ where: { username: { equals: input.username, mode: 'insensitive' } }, select: { id: true } })) throw taken();
  const passwordHash = await hashPassword(input.password);
  try {
    const user = await db.$transaction(async (tx) => {
      const created = await tx.user.create({
        data: {
          merchantId: caller.principal.merchantId,
          username: input.username,
          passwordHash,
          displayName: input.displayName ?? null,
          email: input.email ?? null,
          roles,
        },
      });
      await audit(
        tx,
        auditAs(caller, {
          action: 'USER_CREATED',
          target: { type: 'USER', id: created.id },
          details: { username: created.username, roles: roles.map(withRolePrefix) },
        }),
      );
      return created;
    });
    return toUserRecord(user, merchantOf(caller));
  } catch (err) {
    if (isUniqueViolation(err)) throw taken();
    throw err;
  }
}

export interface UpdateUserInput {
  displayName?: string | null;
  email?: string | null;
  roles?: string[];
  enabled?: boolean;
}

const sameRoles = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((r) => b.includes(r));

/**
 * Administrators update anyone of their merchant (profile, roles, enablement); everyone else only
 * their own displayName and email. Nobody changes their own roles or their own enablement.
 */
export async function updateUser(db: Db, caller: Caller, id: number, input: UpdateUserInput): Promise<UserRecord> {
  const target = await findUser(db, caller, id);
  const self = target.id === caller.principal.userId;
  if (!self) requireAdministrator(caller, "update other users' profiles");
  const currentRoles = parseRoles(target.roles).roles;
  const newRoles = input.roles !== undefined ? rolesOf(input.roles) : undefined;
  const rolesChange = newRoles !== undefined && !sameRoles(newRoles, currentRoles);
  if (rolesChange) {
    if (self) throw forbidden('roles: nobody can change their own roles');
    if (newRoles.length === 0) throw invalid('roles: must name at least one role');
    // Granting and taking away both need authority over the role concerned.
    requireGrantable(caller, [...newRoles.filter((r) => !currentRoles.includes(r)), ...currentRoles.filter((r) => !newRoles.includes(r))]);
  }
  const enabledChange = input.enabled !== undefined && input.enabled !== (target.enabled && !target.deletedAt);
  if (enabledChange && self) throw forbidden('enabled: nobody can disable or enable their own account');

  const data: Prisma.UserUpdateInput = {};
  const profileFields: string[] = [];
  if (input.displayName !== undefined && input.displayName !== target.displayName) {
    data.displayName = input.displayName;
    profileFields.push('displayName');
  }
  if (input.email !== undefined && input.email !== target.email) {
    data.email = input.email;
    profileFields.push('email');
  }
  if (rolesChange) data.roles = newRoles;
  if (enabledChange) Object.assign(data, input.enabled ? { enabled: true, deletedAt: null } : { enabled: false });
  if (Object.keys(data).length === 0) return toUserRecord(target, merchantOf(caller));

  const updated = await db.$transaction(async (tx) => {
    const user = await tx.user.update({ where: { id: target.id }, data });
    const on = { type: 'USER', id: target.id };
    if (profileFields.length > 0) await audit(tx, auditAs(caller, { action: 'PROFILE_UPDATED', target: on, details: { fields: profileFields } }));
    if (rolesChange) {
      await audit(
        tx,
        auditAs(caller, { action: 'ROLE_CHANGED', target: on, details: { from: currentRoles.map(withRolePrefix), to: newRoles.map(withRolePrefix) } }),
      );
    }
    if (enabledChange && input.enabled) await audit(tx, auditAs(caller, { action: 'USER_ENABLED', target: on }));
    if (enabledChange && !input.enabled) {
      const ended = await endSessionsOfUser(tx, target.id);
      await audit(tx, auditAs(caller, { action: 'USER_DISABLED', target: on, details: { sessionsEnded: ended } }));
    }
    return user;
  });
  return toUserRecord(updated, merchantOf(caller));
}

/** Soft delete: the account is disabled and its sessions end; the record stays (enabled false). */
export async function disableUser(db: Db, caller: Caller, id: number): Promise<void> {
  requireAdministrator(caller, 'disable users');
  const target = await findUser(db, caller, id);
  if (target.id === caller.principal.userId) throw forbidden('nobody can delete their own account');
  if (!target.enabled && target.deletedAt) return; // already deleted: nothing to do
  await db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: target.id }, data: { enabled: false, deletedAt: new Date() } });
    const ended = await endSessionsOfUser(tx, target.id);
    await audit(tx, auditAs(caller, { action: 'USER_DISABLED', target: { type: 'USER', id: target.id }, details: { softDelete: true, sessionsEnded: ended } }));
  });
}

/** Sets a new password (admin reset); every session of the user ends. */
export async function resetPassword(db: Db, caller: Caller, id: number, password: string): Promise<void> {
  requireAdministrator(caller, 'reset passwords');
  const target = await findUser(db, caller, id);
  requireValidPassword(password);
  const passwordHash = await hashPassword(password);
  await db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: target.id }, data: { passwordHash } });
    const ended = await endSessionsOfUser(tx, target.id);
    await audit(tx, auditAs(caller, { action: 'PASSWORD_RESET', target: { type: 'USER', id: target.id }, details: { sessionsEnded: ended } }));
  });
}

/**
 * Unlocks a locked account: clears its failure count and the sign-in throttle's cool-downs for its
 * username, from every address. Unlocking an unlocked account changes nothing.
 */
export async function unlockUser(db: Db, caller: Caller, id: number): Promise<UserRecord> {
  requireAdministrator(caller, 'unlock accounts');
  const target = await findUser(db, caller, id);
  await forgetSignInFailures(db, target.username);
  if (!target.locked && target.failedLoginCount === 0) return toUserRecord(target, merchantOf(caller));
  const user = await db.$transaction(async (tx) => {
    const updated = await tx.user.update({ where: { id: target.id }, data: { locked: false, failedLoginCount: 0 } });
    if (target.locked) await audit(tx, auditAs(caller, { action: 'ACCOUNT_UNLOCKED', target: { type: 'USER', id: target.id } }));
    return updated;
  });
  return toUserRecord(user, merchantOf(caller));
}

/**
 * Forces authenticator re-enrolment: the secret is cleared, every session ends, and the next
 * sign-in (password only) gives a session that can do nothing but enrol a new authenticator.
 */
export async function resetMfa(db: Db, caller: Caller, id: number): Promise<UserRecord> {
  requireAdministrator(caller, 'reset MFA');
  const target = await findUser(db, caller, id);
  const user = await db.$transaction(async (tx) => {
    const updated = await tx.user.update({
      where: { id: target.id },
      data: { mfaSecret: null, mfaEnabled: false, mfaEnrollmentRequired: true, mfaLastTimeStep: null },
    });
    const ended = await endSessionsOfUser(tx, target.id);
    await audit(
      tx,
      auditAs(caller, { action: 'MFA_RESET', target: { type: 'USER', id: target.id }, details: { hadMfa: target.mfaEnabled, sessionsEnded: ended } }),
    );
    return updated;
  });
  return toUserRecord(user, merchantOf(caller));
}
