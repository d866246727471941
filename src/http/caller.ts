import { actorOf, audit, type AuditEntry, type AuditSource, type AuditStore } from '../audit/audit';
import type { UserPrincipal } from '../auth/principal';
import type { Caller } from '../users/management';
import type { ApiContext } from './context';

/** The signed-in user of a 'session' route, with the request id for the audit log. */
export function callerOf(ctx: ApiContext): Caller {
  const principal = ctx.state.principal;
  if (principal?.kind !== 'user') throw new Error('callerOf: route is not authenticated by a session');
  return { principal: principal as UserPrincipal, requestId: ctx.state.requestId };
}

/** An audit entry for the request being served: the caller's merchant, the caller as actor, and the request id. */
export function auditRequest(
  ctx: ApiContext,
  entry: Omit<AuditEntry, 'merchantId' | 'actor' | 'requestId'> & Partial<Pick<AuditEntry, 'merchantId' | 'actor'>>,
  db: AuditStore = ctx.deps.db,
): Promise<void> {
  const principal = ctx.state.principal;
  const merchantId = entry.merchantId ?? principal?.merchantId;
  if (!merchantId) throw new Error('auditRequest needs a merchant: no principal on this request');
  return audit(db, { ...entry, merchantId, actor: entry.actor ?? actorOf(principal), requestId: ctx.state.requestId });
}

/** Who acts in the request being served, for the audit entries a domain function writes. */
export function auditSourceOf(ctx: ApiContext): AuditSource {
  const principal = ctx.state.principal;
  if (!principal) throw new Error('auditSourceOf: no principal on this request');
  return { merchantId: principal.merchantId, actor: actorOf(principal), requestId: ctx.state.requestId };
}
