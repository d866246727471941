/**
 * The role table of spec 2.9 as one definition: each role and the areas it may reach. Every route
 * names its area; one middleware (src/http/auth.ts) checks it for users (by role) and for API keys
 * (by scope).
 */
export const AREAS = [
  'payments', // in-store payments: create, follow, cancel, void; transactions read side
  'stores', // stores and terminals
  'webhooks', // webhook configuration, history and attempts
  'users', // user management (write)
  'apiKeys', // API key management
  'auditLogs', // security audit log
  'sharedViews', // dashboard, payments read, reports, own profile, user list
  'finance', // payouts, bank balance, registers
  'compliance', // compliance alerts, disputes
] as const;
export type Area = (typeof AREAS)[number];

export const ROLES = ['ADMIN', 'FINANCE', 'OPERATIONS', 'COMPLIANCE', 'USER'] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_AREAS: Record<Role, readonly Area[]> = {
  ADMIN: AREAS, // everything
  FINANCE: ['finance', 'sharedViews'],
  OPERATIONS: ['stores', 'sharedViews'],
  COMPLIANCE: ['compliance', 'auditLogs', 'sharedViews'],
  USER: ['sharedViews'],
};

/** What an API key may do by default (spec 5.6): payments, stores and terminals, webhooks. */
export const API_KEY_SCOPES = ['payments', 'stores', 'webhooks'] as const satisfies readonly Area[];
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export function areasOfRoles(roles: readonly string[]): Set<Area> {
  const out = new Set<Area>();
  for (const r of roles) for (const a of ROLE_AREAS[r as Role] ?? []) out.add(a);
  return out;
}

/** Accepts `ADMIN` or `ROLE_ADMIN`; returns the bare name or undefined when unknown. */
export function normalizeRole(name: string): Role | undefined {
  const bare = name.trim().toUpperCase().replace(/^ROLE_/, '');
  return (ROLES as readonly string[]).includes(bare) ? (bare as Role) : undefined;
}

export const withRolePrefix = (role: string): string => `ROLE_${role}`;

/** A granter may grant only roles whose areas are all within the granter's own. */
export function canGrant(granterRoles: readonly string[], role: Role): boolean {
  const own = areasOfRoles(granterRoles);
  return ROLE_AREAS[role].every((a) => own.has(a));
}
