import type { AuditLog } from '../generated/prisma/client';
import { z } from '../domain/zod';

/** An audit log entry as GET /api/audit-logs returns it. */
export const AuditLogRecord = z
  .object({
    id: z.string().openapi({ description: 'Opaque, increasing' }),
    action: z.string().openapi({ example: 'LOGIN_FAILED' }),
    actorType: z.string().openapi({ description: 'USER, API_KEY, OPERATOR, ANONYMOUS or SYSTEM (the service itself, e.g. the daily settlement close)' }),
    actorId: z.string().nullable().openapi({ description: 'User id, API key id or operator name' }),
    targetType: z.string().nullable().openapi({ example: 'USER' }),
    targetId: z.string().nullable(),
    details: z.record(z.string(), z.unknown()),
    requestId: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi('AuditLogEntry');
export type AuditLogRecord = z.infer<typeof AuditLogRecord>;

export function toAuditLogRecord(e: AuditLog): AuditLogRecord {
  return {
    id: e.id.toString(),
    action: e.action,
    actorType: e.actorType,
    actorId: e.actorId,
    targetType: e.targetType,
    targetId: e.targetId,
    details: (e.details ?? {}) as Record<string, unknown>,
    requestId: e.requestId,
    createdAt: e.createdAt.toISOString(),
  };
}
