import type { Principal } from '../auth/principal';
import type { Db } from '../db/client';
import type { ActorType, AuditAction } from './actions';

/** Anything with the audit table: the client or a transaction, so the entry commits with the change. */
export type AuditStore = Pick<Db, 'auditLog'>;

export interface Actor {
  type: ActorType;
  id?: string | number | null;
}

export interface AuditEntry {
  merchantId: string;
  actor: Actor;
  /** One of AUDIT_ACTIONS, or another area's own event name. */
  action: AuditAction | (string & {});
  target?: { type: string; id: string | number };
  /** Facts about the event. Never a secret: fields named like one are dropped before writing. */
  details?: Record<string, unknown>;
  requestId?: string;
}

/** Who acts, for which merchant, in which request: what the audit entries of one request share. */
export interface AuditSource {
  merchantId: string;
  actor: Actor;
  requestId?: string;
}

/** An entry written on behalf of `source`; pass a transaction client to commit it with the change. */
export function auditFor(db: AuditStore, source: AuditSource, entry: Omit<AuditEntry, 'merchantId' | 'actor' | 'requestId'>): Promise<void> {
  return audit(db, { ...entry, ...source });
}

/** Field names that could carry a secret; the writer drops them whatever the caller passed. */
const SECRET_FIELDS = /^(password|passwordHash|token|tokenHash|key|keyHash|apiKey|secret|mfaSecret|totp|code|authorization)$/i;

function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (!SECRET_FIELDS.test(k)) out[k] = withoutSecrets(v);
    return out;
  }
  return value;
}

/** Writes one audit log entry. Pass a transaction client to commit it together with the change it records. */
export async function audit(db: AuditStore, entry: AuditEntry): Promise<void> {
  await db.auditLog.create({
    data: {
      merchantId: entry.merchantId,
      actorType: entry.actor.type,
      actorId: entry.actor.id == null ? null : String(entry.actor.id),
      action: entry.action,
      targetType: entry.target?.type ?? null,
      targetId: entry.target ? String(entry.target.id) : null,
      details: (withoutSecrets(entry.details ?? {}) ?? {}) as object,
      requestId: entry.requestId ?? null,
    },
  });
}

export function actorOf(principal: Principal | undefined): Actor {
  if (!principal) return { type: 'ANONYMOUS' };
  return principal.kind === 'user' ? { type: 'USER', id: principal.userId } : { type: 'API_KEY', id: principal.apiKeyId };
}
