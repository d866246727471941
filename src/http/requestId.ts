import crypto from 'node:crypto';
import type { Next } from 'koa';
import { httpRequestDuration } from '../observability/metrics';
import type { ApiContext } from './context';

const SAFE_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** Every response carries X-Request-Id (the caller's, when sane) and every log line of the request too. */
export function requestContext() {
  return async (ctx: ApiContext, next: Next): Promise<void> => {
    const incoming = ctx.get('X-Request-Id');
    const requestId = SAFE_ID.test(incoming) ? incoming : crypto.randomUUID();
    ctx.state.requestId = requestId;
    ctx.state.log = ctx.deps.logger.child({ requestId });
    ctx.set('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      // the route template, not the path: ids must not explode the label set
      const route = (ctx as { _matchedRoute?: string })._matchedRoute ?? 'unmatched';
      httpRequestDuration.observe({ method: ctx.method, route, status: String(ctx.status) }, ms / 1000);
      ctx.state.log.info({ method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 10) / 10 }, 'request');
    }
  };
}

/** From here on, every log line of the request (its closing "request" line too) names the payment. */
export function logWithPayment(ctx: ApiContext, paymentId: string): void {
  ctx.state.log = ctx.state.log.child({ paymentId });
}
