import fs from 'node:fs';
import path from 'node:path';
import type { Context, Next } from 'koa';
import { notFound } from '../domain/errors';
import { ApiError } from './errors';

/**
 * Serves the merchant dashboard (docs/dashboard.md) built by `npm install` into dashboard/dist: its
 * hashed assets under /dashboard/assets/, and index.html for every other address under
 * /dashboard so a deep link (/dashboard/payments/{id}) opens the right page. Its security headers
 * (the content security policy lets the page run only the app's own scripts and talk only to this
 * origin) are set for every answer by src/http/securityHeaders.ts.
 */
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

/** dashboard/dist from the source tree (src/http) or a compiled tree one level deeper. */
function distDir(): string | undefined {
  for (const up of ['../..', '../../..']) {
    const dir = path.resolve(__dirname, up, 'dashboard', 'dist');
    if (fs.existsSync(path.join(dir, 'index.html'))) return dir;
  }
  return undefined;
}

export function dashboardApp() {
  let dir: string | undefined;
  return async (ctx: Context, next: Next): Promise<void> => {
    if (ctx.path !== '/dashboard' && !ctx.path.startsWith('/dashboard/')) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD')
      throw new ApiError(405, `${ctx.method} is not allowed here; the dashboard is read with GET`, { Allow: 'GET, HEAD' });
    dir ??= distDir();
    if (!dir) {
      ctx.status = 503;
      ctx.type = 'text/plain';
      ctx.body = 'The dashboard is not built: run npm install (or npm run dashboard:build).\n';
      return;
    }
    if (ctx.path.startsWith('/dashboard/assets/')) {
      // Only a plain file name of the build's assets folder; anything else is 404, never the app.
      const asset = /^\/dashboard\/assets\/([A-Za-z0-9_-][A-Za-z0-9_.-]*)$/.exec(ctx.path)?.[1];
      const file = asset === undefined ? undefined : path.join(dir, 'assets', asset);
      if (!asset || !file || !fs.existsSync(file)) throw notFound('dashboard asset');
      ctx.type = TYPES[path.extname(asset)] ?? 'application/octet-stream';
      ctx.set('Cache-Control', 'public, max-age=31536000, immutable'); // names carry a content hash
      ctx.body = fs.createReadStream(file);
      return;
    }
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = fs.createReadStream(path.join(dir, 'index.html'));
  };
}
