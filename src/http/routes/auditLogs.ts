import { listAuditLog } from '../../audit/queries';
import { AuditLogRecord } from '../../audit/record';
import type { RouteModule } from '../routeModule';
import { z } from '../../domain/zod';
import { pagedSchema } from '../../domain/paging';
import { PagingQuery } from '../../domain/listQuery';
import { defineRoute } from '../route';

/** The security audit log of the caller's merchant, newest first (ADMIN and COMPLIANCE). */
const AuditQuery = PagingQuery.extend({
  action: z.string().min(1).max(100).optional().openapi({ description: 'Only entries of this action, e.g. LOGIN_FAILED' }),
}).strict();

export const auditLogRoutes: RouteModule = (router, registry) => {
  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: '/api/audit-logs',
      operationId: 'listAuditLogs',
      summary: 'Security events (sign-ins, lockouts, role changes, password and MFA resets, key lifecycle), newest first',
      tag: 'Audit log',
      auth: 'session',
      area: 'auditLogs',
      query: AuditQuery,
      responses: { 200: { description: 'A page of entries', schema: pagedSchema(AuditLogRecord, 'AuditLogPage') } },
      errors: [403],
    },
    async (ctx, { query }) => {
      ctx.body = await listAuditLog(ctx.deps.db, ctx.state.principal!.merchantId, query.action, query);
    },
  );
};
