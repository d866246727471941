import type { UserPrincipal } from '../../auth/principal';
import { AlertListQuery, AlertRecordSchema, listAlerts } from '../../compliance/record';
import { pagedSchema } from '../../domain/paging';
import type { RouteModule } from '../routeModule';
import { defineRoute } from '../route';

/** Compliance alerts (docs/disputes.md, "Compliance alerts"): ADMIN and COMPLIANCE (the 'compliance' area); other roles 403, an API key 401. */
export const complianceAlertRoutes: RouteModule = (router, registry) => {
  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: '/api/dashboard/compliance-alerts',
      operationId: 'listComplianceAlerts',
      summary: "The business's compliance alerts (chargeback and refund ratios), newest raised first (ADMIN, COMPLIANCE)",
      tag: 'Compliance',
      auth: 'session',
      area: 'compliance',
      query: AlertListQuery,
      responses: { 200: { description: 'A page of alerts', schema: pagedSchema(AlertRecordSchema, 'ComplianceAlertPage') } },
      errors: [403],
    },
    async (ctx, { query }) => {
      ctx.body = await listAlerts(ctx.deps.db, (ctx.state.principal as UserPrincipal).merchantId, query);
    },
  );
};
