import { rolesForResponse } from '../auth/roles';
import type { Merchant, User } from '../generated/prisma/client';
import { z } from '../domain/zod';

/**
 * The user record (docs/users-and-keys.md, "Users"), plus the two MFA flags a dashboard needs to steer the user. Never
 * the password hash, the MFA secret or the failed sign-in count.
 */
export const UserRecord = z
  .object({
    id: z.number().int().openapi({ example: 42 }),
    username: z.string().openapi({ example: 'maria.finance' }),
    displayName: z.string().nullable().openapi({ example: 'Maria Rossi' }),
    email: z.string().nullable().openapi({ example: 'maria@example.com' }),
    enabled: z.boolean(),
    locked: z.boolean(),
    roles: z.array(z.string()).openapi({ example: ['ROLE_FINANCE', 'ROLE_USER'] }),
    merchantExternalId: z.string(),
    merchantName: z.string(),
    mfaEnabled: z.boolean().openapi({ description: 'An authenticator is enrolled; sign-in needs its code' }),
    mfaEnrollmentRequired: z.boolean().openapi({ description: 'After an MFA reset: the next sign-in may only enrol an authenticator' }),
    createdAt: z.string().openapi({ example: '2026-11-22T10:00:00.000Z' }),
    updatedAt: z.string().openapi({ example: '2026-11-22T10:00:00.000Z' }),
  })
  .openapi('User');
export type UserRecord = z.infer<typeof UserRecord>;

export function toUserRecord(user: User, merchant: Pick<Merchant, 'externalId' | 'name'>): UserRecord {
  return {
    id: user.id,
    username: user.username,
    displayName: user.displayName,
    email: user.email,
    enabled: user.enabled,
    locked: user.locked,
    roles: rolesForResponse(user.roles),
    merchantExternalId: merchant.externalId,
    merchantName: merchant.name,
    mfaEnabled: user.mfaEnabled,
    mfaEnrollmentRequired: user.mfaEnrollmentRequired,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
  };
}
