import http from 'node:http';

/**
 * The Web UI of the dev server `npm start` runs, read-only unless asked for
 * (TEMPORAL_UI_WRITE_ACTIONS; docs/security.md, "Messages to workflows"). The Temporal CLI has no
 * setting for the UI's write actions, so the UI listens on a loopback port of its own and this
 * gate, on TEMPORAL_UI_PORT, passes reads through: pages, GETs, and workflow queries. Everything
 * else (signal, update, terminate, cancel, reset, start, batch operations) is refused with 403,
 * and the UI's settings say its write actions are off, so it shows no button for them.
 */
const QUERY_PATH = /^\/api\/v1\/namespaces\/[^/]+\/workflows\/[^/]+\/query\/[^/]+$/;
const SETTINGS_PATH = '/api/v1/settings';

/** Whether a request only reads. */
export function isReadOnlyUiRequest(method: string | undefined, url: string | undefined): boolean {
  const path = (url ?? '/').split('?')[0]!;
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return true;
  return method === 'POST' && QUERY_PATH.test(path);
}

/** The UI's settings with every write action off. */
export function readOnlySettings(settings: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...settings, DisableWriteActions: true };
  for (const key of Object.keys(settings)) if (/Disabled$/.test(key) && key !== 'RefreshWorkflowCountsDisabled') out[key] = true;
  return out;
}

export interface ReadOnlyUi {
  close(): Promise<void>;
}

export function startReadOnlyUi(opts: { host: string; port: number; upstream: { host: string; port: number } }): Promise<ReadOnlyUi> {
  const server = http.createServer((req, res) => {
    if (!isReadOnlyUiRequest(req.method, req.url)) {
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'this Temporal Web UI is read-only (TEMPORAL_UI_WRITE_ACTIONS=true allows its write actions)' }));
      req.resume();
      return;
    }
    const settings = req.method === 'GET' && (req.url ?? '').split('?')[0] === SETTINGS_PATH;
    const headers = { ...req.headers, host: `${opts.upstream.host}:${opts.upstream.port}`, ...(settings ? { 'accept-encoding': 'identity' } : {}) };
    const upstream = http.request({ ...opts.upstream, method: req.method, path: req.url, headers }, (answer) => {
      if (!settings || answer.statusCode !== 200) {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        let body: string;
        try {
          body = JSON.stringify(readOnlySettings(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>));
        } catch {
          res.writeHead(502, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ message: 'the Temporal Web UI answered its settings in an unknown shape' }));
          return;
        }
        const { 'content-length': _length, 'transfer-encoding': _encoding, ...rest } = answer.headers;
        res.writeHead(200, { ...rest, 'content-length': Buffer.byteLength(body) });
        res.end(body);
      });
    });
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'the Temporal Web UI is not answering' }));
    });
    req.pipe(upstream);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () =>
      resolve({
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      }),
    );
  });
}
