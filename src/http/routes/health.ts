import type { RouteModule } from '../routeModule';
import type { ApiContext } from '../context';
import { defineRoute } from '../route';
import { z } from '../../domain/zod';

const Health = z
  .object({
    status: z.enum(['ok', 'unavailable']),
    database: z.enum(['ok', 'unavailable']),
    temporal: z.enum(['ok', 'unavailable']),
    time: z.string(),
  })
  .openapi('Health');

async function probe(check: () => Promise<unknown>, timeoutMs = 2000): Promise<'ok' | 'unavailable'> {
  try {
    await Promise.race([check(), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), timeoutMs).unref())]);
    return 'ok';
  } catch {
    return 'unavailable';
  }
}

export const healthRoutes: RouteModule = (router, registry) => {
  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: '/health',
      operationId: 'getHealth',
      summary: 'Liveness and readiness: 200 once the database and Temporal answer, 503 otherwise',
      tag: 'Health',
      auth: 'none',
      responses: { 200: { description: 'Ready', schema: Health }, 503: { description: 'A dependency does not answer', schema: Health } },
    },
    async (ctx: ApiContext) => {
      const { db, temporal } = ctx.deps;
      const [database, temporalStatus] = await Promise.all([probe(() => db.$queryRaw`SELECT 1`), probe(() => temporal.workflowService.getSystemInfo({}))]);
      const ok = database === 'ok' && temporalStatus === 'ok';
      ctx.status = ok ? 200 : 503;
      ctx.body = { status: ok ? 'ok' : 'unavailable', database, temporal: temporalStatus, time: new Date().toISOString() };
    },
  );
};
