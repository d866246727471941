/**
 * The role table (docs/users-and-keys.md, "Roles") as one definition: each role and the areas it may reach. Every route
 * names its area; one middleware (src/http/auth.ts) checks it for users (by role) and for API keys
 * (by scope).
 */
export const AREAS = [
  'payments', // in-store payments: create, follow, cancel, void; transactions read side
  'stores', // stores and terminals
  'webhooks', // webhook configuration, history and attempts
  'users', // user management (create, update others, password reset, unlock, MFA reset, disable)
  'apiKeys', // API key management
  'auditLogs', // security audit log
  'sharedViews', // dashboard, payments read, reports, user list and user records
  'finance', // payouts, bank balance, registers
  'compliance', // compliance alerts, disputes: answering them
  'disputes', // reading disputes (docs/disputes.md): compliance answers them, finance follows the money
  'acquirerAccounts', // acquirer accounts (MIDs) and acquirer routes (docs/acquirers.md): ADMIN only
  'ownAccount', // the caller's own sign-in: own record, logout, authenticator enrolment (also while enrolment is pending)
  'ownProfile', // editing a profile: one's own (administrators: anyone's, checked by the handler)
] as const;
export type Area = (typeof AREAS)[number];

export const ROLES = ['ADMIN', 'FINANCE', 'OPERATIONS', 'COMPLIANCE', 'USER'] as const;
export type Role = (typeof ROLES)[number];

/** Every signed-in user reaches their own account, whatever their roles. */
const SIGNED_IN: readonly Area[] = ['ownAccount', 'ownProfile'];

export const ROLE_AREAS: Record<Role, readonly Area[]> = {
  ADMIN: AREAS, // everything
  FINANCE: ['finance', 'disputes', 'sharedViews', ...SIGNED_IN],
  OPERATIONS: ['stores', 'sharedViews', ...SIGNED_IN],
  COMPLIANCE: ['compliance', 'disputes', 'auditLogs', 'sharedViews', ...SIGNED_IN],
  USER: ['sharedViews', ...SIGNED_IN],
};

/** What an API key may do by default (its scopes, docs/users-and-keys.md, "Roles"): payments, stores and terminals, webhooks. */
export const API_KEY_SCOPES = ['payments', 'stores', 'webhooks'] as const satisfies readonly Area[];
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** The union of the areas of several roles; accepts either role form. */
export function areasOfRoles(roles: readonly string[]): Set<Area> {
  const out = new Set<Area>();
  for (const r of roles) for (const a of ROLE_AREAS[normalizeRole(r) as Role] ?? []) out.add(a);
  return out;
}

/** Accepts `ADMIN` or `ROLE_ADMIN` (any case); returns the bare name or undefined when unknown. */
export function normalizeRole(name: string): Role | undefined {
  const bare = name
    .trim()
    .toUpperCase()
    .replace(/^ROLE_/, '');
  return (ROLES as readonly string[]).includes(bare) ? (bare as Role) : undefined;
}

export const withRolePrefix = (role: string): string => `ROLE_${role}`;

/** Roles as the API returns them: `ROLE_` prefixed, in the table's order, no duplicates. */
export function rolesForResponse(stored: readonly string[]): string[] {
  const own = new Set(stored.map(normalizeRole).filter((r): r is Role => r !== undefined));
  return ROLES.filter((r) => own.has(r)).map(withRolePrefix);
}

/**
 * Role names from a request, in either form: the bare names in the table's order, or the names
 * that are not roles at all.
 */
export function parseRoles(names: readonly string[]): { roles: Role[]; unknown: string[] } {
  const unknown: string[] = [];
  const found = new Set<Role>();
  for (const name of names) {
    const role = normalizeRole(name);
    if (role) found.add(role);
    else unknown.push(name);
  }
  return { roles: ROLES.filter((r) => found.has(r)), unknown };
}

/** A granter may grant only roles whose areas are all within the granter's own. */
export function canGrant(granterRoles: readonly string[], role: Role): boolean {
  const own = areasOfRoles(granterRoles);
  return ROLE_AREAS[role].every((a) => own.has(a));
}
