import fs from 'node:fs';
import path from 'node:path';
import type Router from '@koa/router';
// The package's index evaluates Swagger UI's whole browser bundle (0.2 s a process) to export a path.
import getAbsoluteFSPath from 'swagger-ui-dist/absolute-path.js';

/** The API docs page at /docs: Swagger UI served from its npm package, never from the web. */
/** A Map, not an object: a requested name such as `__proto__` or `constructor` finds nothing. */
const ASSETS = new Map<string, string>([
  ['swagger-ui.css', 'text/css; charset=utf-8'],
  ['swagger-ui-bundle.js', 'application/javascript; charset=utf-8'],
  ['swagger-ui-standalone-preset.js', 'application/javascript; charset=utf-8'],
]);

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>In-store payments API</title>
<link rel="stylesheet" href="/docs/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/swagger-ui-standalone-preset.js"></script>
<script src="/docs/init.js"></script>
</body></html>`;

/**
 * Swagger UI's start, a file of its own so the page's content security policy needs no inline
 * script (src/http/securityHeaders.ts); no validator badge, which would load from the web.
 */
const INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout' });
`;

export function mountDocs(router: Router<any, any>, document: () => object): void {
  const dir = getAbsoluteFSPath();
  router.get('/openapi.json', (ctx) => {
    ctx.body = document();
  });
  router.get('/docs', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = PAGE;
  });
  router.get('/docs/init.js', (ctx) => {
    ctx.type = 'application/javascript; charset=utf-8';
    ctx.body = INIT;
  });
  router.get('/docs/:asset', (ctx) => {
    const type = ASSETS.get(ctx.params.asset!);
    if (!type) return; // falls through to the 404 of the error handler
    ctx.type = type;
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = fs.createReadStream(path.join(dir, ctx.params.asset!));
  });
}
