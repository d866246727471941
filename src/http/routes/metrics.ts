import { renderMetrics } from '../../observability/metrics';
import type { RouteModule } from '../app';

/** GET /metrics: Prometheus text format, no credentials (carries no business data). */
export const metricsRoutes: RouteModule = (router) => {
  router.get('/metrics', async (ctx) => {
    const { contentType, body } = await renderMetrics();
    ctx.type = contentType;
    ctx.body = body;
  });
};
