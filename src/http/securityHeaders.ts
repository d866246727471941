import type { Context, Next } from 'koa';
import { RECEIPT_STYLE_HASH } from '../receipts/html';

/**
 * The one home of the browser security headers of every answer of the API port: the JSON API,
 * the /docs page and the dashboard. Each policy lets its page do what it needs and nothing more;
 * every one forbids framing (clickjacking) and sniffing a JSON answer into a script or page.
 */
const csp = (...directives: string[]): string => directives.join('; ');

/** The dashboard (dashboard/dist): only the app's own scripts, styles and calls to this origin. */
export const DASHBOARD_CSP = csp(
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
);

/**
 * Swagger UI at /docs (src/http/docs.ts): its bundle and start script from /docs, /openapi.json and
 * "Try it out" calls to this origin, its CSS's data: icons. It sets inline styles (React style
 * attributes and a few style elements), hence 'unsafe-inline' for styles only; scripts stay 'self'.
 */
export const DOCS_CSP = csp(
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
);

/** A printable receipt page (docs/receipts.md): its own inline style, nothing else; no script at all. */
export const RECEIPT_PAGE_CSP = csp(
  "default-src 'none'",
  `style-src '${RECEIPT_STYLE_HASH}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
);

/** JSON answers: nothing in them may load, run or be framed if a browser ever renders one. */
export const API_CSP = csp("default-src 'none'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'");

/** One year, subdomains too: sent only when the request is known to have come over TLS. */
export const HSTS = 'max-age=31536000; includeSubDomains';

const under = (path: string, prefix: string): boolean => path === prefix || path.startsWith(`${prefix}/`);

function policyFor(path: string): string {
  if (under(path, '/dashboard')) return DASHBOARD_CSP;
  if (under(path, '/docs')) return DOCS_CSP;
  return API_CSP;
}

/**
 * The JSON API's answers are never stored by a browser or a shared cache (docs/security.md, "Rules
 * added in the security round (issue 37)"): the sign-in answer carries a session token, the
 * dashboard's answers (`/api/dashboard/...`, users, API keys, MFA enrolment) a business's data, a new
 * key or an authenticator secret, and a signed-out browser's back button must not show them again.
 */
const NO_STORE: Record<string, string> = { 'Cache-Control': 'no-store' };

/** The headers every answer to `path` carries (also the 503 sent while the service starts). */
export function securityHeadersFor(path: string): Record<string, string> {
  return {
    'Content-Security-Policy': policyFor(path),
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    ...(under(path, '/api') ? NO_STORE : {}),
  };
}

/**
 * Sets the headers before anything else answers, so errors (404, 401, 429) carry them too.
 * HSTS only behind a trusted proxy (TRUST_PROXY: app.proxy) that says the client used https
 * (X-Forwarded-Proto, read by Koa as ctx.secure): on plain http a browser ignores it anyway, and
 * without a trusted proxy nobody vouches for the scheme.
 */
export function securityHeaders() {
  return async (ctx: Context, next: Next): Promise<void> => {
    ctx.set(securityHeadersFor(ctx.path));
    if (ctx.app.proxy && ctx.secure) ctx.set('Strict-Transport-Security', HSTS);
    await next();
  };
}
