import type { Next } from 'koa';
import { hashApiKey, keyModeOf } from '../auth/apiKeys';
import type { ApiKeyPrincipal } from '../auth/principal';
import { areasOfRoles, type Area } from '../auth/roles';
import { noteSessionUse } from '../auth/sessionActivity';
import { resolveSessionState } from '../auth/sessions';
import { forbidden, unauthenticated } from '../domain/errors';
import type { ApiContext } from './context';

export type AuthKind = 'apiKey' | 'session' | 'none';

/**
 * The API key of a request: X-API-Key, or `Authorization: Bearer isp_live_...|isp_test_...`.
 * Any other Authorization content is 401 (README, "Conventions of every endpoint"), also next to a valid X-API-Key (a request
 * carrying Basic credentials or a bare token is not one this service understands, so it is not
 * half-accepted); when both carry a key they must be the same key.
 */
export function presentedApiKey(headers: Record<string, string | string[] | undefined>): string | undefined {
  const header = headers['x-api-key'];
  const fromHeader = typeof header === 'string' && header.length > 0 ? header : undefined;
  const auth = headers.authorization;
  if (auth === undefined) return fromHeader;
  if (typeof auth !== 'string') return undefined;
  const m = /^Bearer\s+(\S+)$/i.exec(auth.trim());
  const bearer = m && keyModeOf(m[1]!) ? m[1] : undefined;
  if (!bearer) return undefined;
  if (fromHeader !== undefined && fromHeader !== bearer) return undefined;
  return bearer;
}

interface KeyRow {
  id: string;
  merchantId: string;
  mode: string;
  scopes: string[];
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  merchantExternalId: string;
}

async function apiKeyPrincipal(ctx: ApiContext): Promise<ApiKeyPrincipal> {
  const key = presentedApiKey(ctx.headers);
  if (!key) throw unauthenticated('missing or invalid API key');
  const now = new Date();
  // Lookup by SHA-256 of the key: the comparison is on a hash, never on the secret itself. Read
  // on every request (a revocation bites at once, docs/users-and-keys.md, "API keys"), key and business in one statement.
  const [record] = await ctx.deps.db.$queryRaw<KeyRow[]>`
    SELECT k."id", k."merchantId", k."mode", k."scopes", k."expiresAt", k."revokedAt", k."lastUsedAt", m."externalId" AS "merchantExternalId"
    FROM "ApiKey" k JOIN "Merchant" m ON m."id" = k."merchantId"
    WHERE k."keyHash" = ${hashApiKey(key)}`;
  if (!record || record.revokedAt || (record.expiresAt && record.expiresAt <= now)) throw unauthenticated('missing or invalid API key');
  await noteKeyUse(ctx, record.id, record.lastUsedAt, now);
  return {
    kind: 'apiKey',
    merchantId: record.merchantId,
    merchantExternalId: record.merchantExternalId,
    apiKeyId: record.id,
    mode: record.mode === 'test' ? 'test' : 'live',
    scopes: record.scopes,
  };
}

/** Stale after a minute: lastUsedAt is written at most once a minute per key, not on every request. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** Records when a key was last used (shown in the key list); never fails the request. */
async function noteKeyUse(ctx: ApiContext, id: string, lastUsedAt: Date | null, now: Date): Promise<void> {
  if (lastUsedAt && now.getTime() - lastUsedAt.getTime() < LAST_USED_RESOLUTION_MS) return;
  const staleBefore = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
  await ctx.deps.db.apiKey
    .updateMany({ where: { id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: staleBefore } }] }, data: { lastUsedAt: now } })
    .catch((err: unknown) => ctx.state.log.warn({ err }, 'could not record API key use'));
}

const MFA_ENROLMENT_FIRST = 'enrol your authenticator first: POST /api/users/me/mfa/enroll, then POST /api/users/me/mfa/verify with a code';

/** Authenticates by the route's kind, then checks the route's area against scopes or roles. */
export function authenticate(kind: AuthKind, area: Area | undefined) {
  return async (ctx: ApiContext, next: Next): Promise<void> => {
    if (kind === 'apiKey') {
      const principal = await apiKeyPrincipal(ctx);
      ctx.state.principal = principal;
      if (area && !principal.scopes.includes(area)) throw forbidden(`this API key has no '${area}' scope`);
    } else if (kind === 'session') {
      const m = /^Bearer\s+(\S+)$/i.exec((ctx.headers.authorization ?? '').trim());
      const now = new Date();
      const idleMinutes = ctx.deps.config.SESSION_IDLE_MINUTES;
      const session = m ? await resolveSessionState(ctx.deps.db, m[1]!, { idleMinutes, now }) : undefined;
      if (!session) throw unauthenticated('missing, invalid or expired session token');
      const { principal } = session;
      await noteSessionUse(ctx.deps.db, principal.sessionId, session.lastSeenAt, now, idleMinutes).catch((err: unknown) =>
        ctx.state.log.warn({ err }, 'could not record session use'),
      );
      ctx.state.principal = principal;
      // After an MFA reset, a session reaches only the caller's own account until enrolment is done.
      if (session.mfaEnrollmentPending && area !== 'ownAccount') throw forbidden(MFA_ENROLMENT_FIRST);
      if (area && !areasOfRoles(principal.roles).has(area)) throw forbidden(`your roles do not grant the '${area}' area`);
    }
    if (ctx.state.principal) await ctx.deps.rateLimiter.consume(ctx.state.principal);
    await next();
  };
}
