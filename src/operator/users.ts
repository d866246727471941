import { audit } from '../audit/audit';
import { hashPassword, passwordProblem } from '../auth/passwords';
import { parseRoles, ROLES, withRolePrefix, type Role } from '../auth/roles';
import type { Db } from '../db/client';
import { isUniqueViolation } from '../db/client';
import { toUserRecord, type UserRecord } from '../users/userRecord';
import { usernameSchema } from '../users/username';
import { conflict, invalid } from '../domain/errors';
import { findMerchant } from './merchants';

/** Role names in either form (`ADMIN`, `ROLE_ADMIN`); none given means USER (docs/users-and-keys.md, "Users"). */
export function operatorRoles(names: readonly string[] | undefined): Role[] {
  const given = (names ?? []).map((n) => n.trim()).filter(Boolean);
  if (given.length === 0) return ['USER'];
  const { roles, unknown } = parseRoles(given);
  if (unknown.length > 0) {
    throw invalid(`roles: unknown role${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `'${n}'`).join(', ')}; expected any of ${ROLES.join(', ')}`);
  }
  return roles;
}

/**
 * Creates a dashboard user of a business: how its first administrator comes to exist. Returns the
 * user record the API returns (docs/users-and-keys.md, "Users"). The creation is audited with the operator as actor.
 */
export async function createUser(
  db: Db,
  input: { merchantExternalId: string; username: string; password: string; roles?: readonly string[]; actorId?: string },
): Promise<UserRecord> {
  const parsed = usernameSchema.safeParse(input.username ?? '');
  if (!parsed.success) throw invalid(`username: ${parsed.error.issues[0]!.message}`);
  const username = parsed.data;
  const problem = passwordProblem(input.password ?? '');
  if (problem) throw invalid(`password: ${problem}`);
  const roles = operatorRoles(input.roles);
  const merchant = await findMerchant(db, input.merchantExternalId);
  // Usernames are unique whatever their case; the index "User_username_lower_key" has the last word
  // when two creates race, the look-up first spares a password hash.
  const taken = () => conflict(`username '${username}' is already taken`);
  if (await db.user.findFirst({ where: { username: { equals: username, mode: 'insensitive' } }, select: { id: true } })) throw taken();
  const passwordHash = await hashPassword(input.password);
  try {
    const user = await db.$transaction(async (tx) => {
      const created = await tx.user.create({ data: { merchantId: merchant.id, username, passwordHash, roles } });
      await audit(tx, {
        merchantId: merchant.id,
        actor: { type: 'OPERATOR', id: input.actorId ?? null },
        action: 'USER_CREATED',
        target: { type: 'USER', id: created.id },
        details: { username: created.username, roles: roles.map(withRolePrefix) },
      });
      return created;
    });
    return toUserRecord(user, merchant);
  } catch (err) {
    if (isUniqueViolation(err)) throw taken();
    throw err;
  }
}
