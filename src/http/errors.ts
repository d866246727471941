import { STATUS_CODES } from 'node:http';
import type { Context, Next } from 'koa';
import { acquirerFailureError } from '../acquirer/errors';
import { DomainError } from '../domain/errors';
import type { Logger } from '../logger';

/**
 * An HTTP-only refusal (no route, wrong method, rate limit, a bad acquirer signature). Refusals of
 * the domain are DomainErrors, mapped below; both become the API's error shape (README, "Conventions of every endpoint").
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

function asApiError(err: DomainError): ApiError {
  const headers: Record<string, string> = err.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(err.retryAfterSeconds) };
  return new ApiError(err.status, err.message, headers);
}

export function errorBody(status: number, message: string): { timestamp: string; status: number; error: string; message: string } {
  return { timestamp: new Date().toISOString(), status, error: STATUS_CODES[status] ?? 'Error', message };
}

/**
 * The router answers without a body: 404 when no route matches the path, 405 (501 for a method it
 * does not implement) with Allow when the path has other methods. Each becomes an error here; a
 * wrong method is 405 either way and keeps Allow (RFC 9110 15.5.6).
 */
function throwBareRouterStatus(ctx: Context): void {
  if (ctx.status === 404) throw new ApiError(404, `no route for ${ctx.method} ${ctx.path}`);
  if (ctx.status === 405 || ctx.status === 501) throw new ApiError(405, 'method not allowed', { Allow: String(ctx.response.get('Allow')) });
}

/**
 * Turns every thrown error, ours or Koa's (body parser, router), into the API's error shape. An
 * acquirer's error that reaches here is answered by acquirerFailureError (src/acquirer/errors.ts):
 * 409 or 503, never the acquirer's own status.
 */
export function errorHandler() {
  return async (ctx: Context, next: Next): Promise<void> => {
    try {
      await next();
      if (ctx.body === undefined) throwBareRouterStatus(ctx);
    } catch (thrown) {
      const domain = thrown instanceof DomainError ? thrown : acquirerFailureError(thrown);
      const err = domain ? asApiError(domain) : thrown;
      const e = err as { status?: number; statusCode?: number; expose?: boolean; message?: string; type?: string; headers?: Record<string, string> };
      let status = err instanceof ApiError ? err.status : (e.status ?? e.statusCode ?? 500);
      if (status < 400 || status > 599) status = 500;
      let message =
        err instanceof ApiError || (e.expose && status < 500)
          ? (e.message ?? '')
          : status < 500
            ? (STATUS_CODES[status] ?? 'request refused')
            : 'internal server error';
      if (status === 400 && e.message === 'Object contains forbidden prototype property')
        message = "body: '__proto__' is a reserved name and not accepted as a key";
      else if (e.type === 'entity.parse.failed' || (status === 400 && err instanceof SyntaxError)) message = 'request body is not valid JSON';
      else if (status === 413) message = 'request body too large';
      else if (status === 415) message = 'request body must be application/json';
      if (status >= 500) (ctx.state.log as Logger | undefined)?.error({ err: thrown }, 'request failed');
      ctx.status = status;
      for (const [k, v] of Object.entries(e.headers ?? {})) ctx.set(k, v);
      ctx.body = errorBody(status, message);
    }
  };
}
