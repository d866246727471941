import { pagedSchema } from '../../domain/paging';
import { tipReport, TipRowSchema, tipsCsv, tipsPage, TipsQuery } from '../../tips/report';
import type { RouteModule } from '../routeModule';
import { defineRoute } from '../route';

/** The tips report (docs/tips.md): ADMIN and FINANCE (the 'finance' area), JSON pages or CSV. */
export const tipRoutes: RouteModule = (router, registry) => {
  defineRoute(
    router,
    registry,
    {
      tag: 'Tips',
      auth: 'session',
      area: 'finance',
      method: 'get',
      path: '/api/dashboard/tips',
      operationId: 'listTips',
      summary: 'Tips per business date, store, cashier and currency',
      query: TipsQuery,
      responses: {
        200: {
          description:
            'A page of rows, newest business date first; with format=csv every row of the period as text/csv: businessDate,storeExternalId,cashierId,currency,count,tipAmount',
          schema: pagedSchema(TipRowSchema, 'TipPage'),
          text: 'text/csv',
        },
      },
      errors: [403],
    },
    async (ctx, { query }) => {
      const rows = await tipReport(ctx.deps.db, ctx.state.principal!.merchantId, query, ctx.deps.config.SETTLEMENT_CUTOFF_HOUR);
      if (query.format === 'csv') {
        ctx.type = 'text/csv; charset=utf-8';
        ctx.set('Content-Disposition', `attachment; filename="tips${query.from ? `-${query.from}` : ''}${query.to ? `-${query.to}` : ''}.csv"`);
        ctx.body = tipsCsv(rows);
        return;
      }
      ctx.body = tipsPage(rows, query);
    },
  );
};
