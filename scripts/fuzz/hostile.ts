/**
 * Hostile shapes (issue 15, docs/fuzzing.md "Hostile shapes"): after the schema-driven run, every
 * operation of /openapi.json and every route of the sandbox acquirer gets the inputs an attacker
 * sends on purpose rather than the ones a schema generator draws: prototype keys (`__proto__`,
 * `constructor`, `prototype`) as path segments, query names and JSON keys; nesting thousands deep;
 * arrays of 100,000 items; lone surrogates, NUL, right-to-left overrides, invalid UTF-8 and
 * overlong strings. The promise checked: never a 5xx, never a dropped connection, and the process
 * still answers afterwards (a polluted Object.prototype once crashed the next request).
 */
import type { Fixtures } from './fixtures';

export interface HostileResult {
  requests: number;
  failures: string[];
}

interface Operation {
  method: string;
  /** Path template with `{name}` parameters. */
  path: string;
  headers: Record<string, string>;
  query: string[];
  bodyFields: string[] | undefined;
}

const LONG = 'a'.repeat(5000);
/** Path segments, already percent-encoded as a client would put them on the wire. */
const SEGMENTS = ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', '%00', '%E2%80%AE', '%ED%A0%80', '%F0%9F%92%B3', '..%2F..%2Fetc', LONG];
/** Query strings: prototype names as keys, bracketed (qs-style) nesting, odd values, repeats. */
const QUERIES = [
  '__proto__=1&constructor=1&prototype=1',
  '__proto__[polluted]=1&constructor[prototype][polluted]=1',
  `x=%ED%A0%80&y=%00&z=%E2%80%AE&w=${LONG}`,
];
const nested = (depth: number, open: string, close: string, inner: string): string => open.repeat(depth) + inner + close.repeat(depth);
const hugeArray = `[${new Array(100_000).fill('0').join(',')}]`;
/** Whole bodies, raw (some are not what JSON.stringify could produce). */
const BODIES: [string, string | Buffer][] = [
  ['__proto__ key', '{"__proto__":{"polluted":"yes"}}'],
  ['constructor.prototype key', '{"constructor":{"prototype":{"polluted":"yes"}}}'],
  ['array nesting 10,000 deep', nested(10_000, '[', ']', '1')],
  ['object nesting 5,000 deep', nested(5_000, '{"a":', '}', '1')],
  ['array of 100,000', hugeArray],
  ['lone surrogate string', '"\\ud800"'],
  ['odd Unicode values', '{"x":"\\ud800\\u0000\\u202e\\ufeff","\\u0000":"\\udfff"}'],
  ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0x78, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0xff, 0x22, 0x7d])],
  ['null', 'null'],
];
/** Values put in each top-level field the operation's schema names. */
const FIELD_VALUES: [string, string][] = [
  ['__proto__ object', '{"__proto__":{"polluted":"yes"}}'],
  ['object nesting 5,000 deep', nested(5_000, '{"a":', '}', '1')],
  ['array of 100,000', hugeArray],
  ['lone surrogate', '"\\ud800x"'],
  ['NUL and RTL override', '"\\u0000\\u202eevil"'],
  ['100,000 characters', `"${'b'.repeat(100_000)}"`],
];

function baseline(f: Fixtures): Record<string, string> {
  const t = f.terminals.main[0]!;
  return {
    merchantExternalId: t.merchantExternalId,
    storeExternalId: t.storeExternalId,
    terminalExternalId: t.terminalExternalId,
    paymentId: f.payments.main[0] ?? 'x',
    configId: f.webhookConfigs.main,
    eventId: f.webhookEvents.main[0] ?? 'x',
    // A sandbox account: its notification path reaches the signature check.
    accountId: f.acquirerAccounts.main[0]!.id,
  };
}

/** `{id}` by resource: an account the routes name (DELETE is 409, so it stays), else a value that names nothing. */
const idFor = (path: string, f: Fixtures): string => (path.startsWith('/api/dashboard/acquirer-accounts/') ? f.acquirerAccounts.main[0]!.id : 'x1');

type OpenApi = { paths: Record<string, Record<string, OpenApiOperation>> };
type OpenApiOperation = {
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string }[];
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
};

function apiOperations(doc: OpenApi, f: Fixtures): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const schemes = (op.security ?? []).flatMap((s) => Object.keys(s));
      const headers: Record<string, string> = schemes.includes('Session')
        ? { authorization: `Bearer ${f.credentials.adminSession}` }
        : schemes.length
          ? { 'x-api-key': f.credentials.liveKey }
          : {};
      const schema = op.requestBody?.content?.['application/json']?.schema;
      ops.push({
        method: method.toUpperCase(),
        path,
        headers,
        query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
        bodyFields: op.requestBody ? Object.keys(schema?.properties ?? {}) : undefined,
      });
    }
  }
  return ops;
}

/** The sandbox's routes (acquirer API and the /sim control API): not in /openapi.json. */
function sandboxOperations(): Operation[] {
  const d = '/acquirer/v1/devices/{deviceId}';
  const routes: [string, string, boolean][] = [
    ['GET', '/sim/devices/{deviceId}', false],
    ['PUT', '/sim/devices/{deviceId}', true],
    ['POST', '/sim/devices/{deviceId}/customer', true],
    ['POST', '/sim/devices/{deviceId}/offline-payments', true],
    ['GET', '/sim/bills/{acquirerRef}', false],
    ['GET', '/sim/acquirer-calls', false],
    ['GET', `${d}/`, false],
    ['POST', `${d}/bills`, true],
    ['GET', `${d}/bills/{acquirerRef}`, false],
    ['POST', `${d}/bills/{acquirerRef}/withdraw`, true],
    ['POST', `${d}/bills/{acquirerRef}/voids`, true],
    ['POST', `${d}/bills/{acquirerRef}/complete`, true],
    ['POST', `${d}/bills/{acquirerRef}/release`, true],
    ['POST', `${d}/bills/{acquirerRef}/refunds`, true],
    ['POST', `${d}/settlements`, true],
    ['GET', `${d}/refunds/{refundReference}`, false],
    ['GET', `${d}/voids/{voidReference}`, false],
  ];
  return routes.map(([method, path, body]) => ({
    method,
    path,
    headers: {},
    query: ['deviceId', 'since'],
    bodyFields: body ? ['amount', 'currency', 'reference', 'outcome', 'metadata'] : undefined,
  }));
}

interface Shot {
  label: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

function shots(base: string, op: Operation, fill: Record<string, string>): Shot[] {
  const params = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const at = (values: Record<string, string>): string => base + op.path.replace(/\{(\w+)\}/g, (_, n: string) => values[n] ?? fill[n] ?? 'x1');
  const label = `${op.method} ${op.path}`;
  const json = { ...op.headers, 'content-type': 'application/json' };
  const out: Shot[] = [];
  for (const p of params)
    for (const s of SEGMENTS) out.push({ label: `${label} with ${p}=${s.slice(0, 20)}`, method: op.method, url: at({ [p]: s }), headers: op.headers });
  for (const q of [...QUERIES, op.query.map((n) => `${n}=__proto__`).join('&'), op.query.map((n) => `${n}=%ED%A0%80&${n}=2`).join('&')]) {
    if (q) out.push({ label: `${label} ?${q.slice(0, 40)}`, method: op.method, url: `${at({})}?${q}`, headers: op.headers });
  }
  if (op.bodyFields) {
    for (const [name, body] of BODIES) out.push({ label: `${label} body ${name}`, method: op.method, url: at({}), headers: json, body });
    for (const field of op.bodyFields) {
      for (const [name, value] of FIELD_VALUES) {
        out.push({ label: `${label} ${field}: ${name}`, method: op.method, url: at({}), headers: json, body: `{${JSON.stringify(field)}:${value}}` });
      }
    }
  }
  return out;
}

async function send(shot: Shot): Promise<number | string> {
  try {
    const res = await fetch(shot.url, { method: shot.method, headers: shot.headers, body: shot.body, signal: AbortSignal.timeout(60_000) });
    await res.arrayBuffer();
    return res.status;
  } catch (err) {
    return `no answer (${err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err)})`;
  }
}

/** Whether the process still answers normally (it would not with Object.prototype polluted). */
async function alive(url: string, headers: Record<string, string>): Promise<boolean> {
  return (await send({ label: 'alive', method: 'GET', url, headers })) === 200;
}

/**
 * The Temporal Web UI's gate (src/temporal/readOnlyUi.ts): every write route, with every hostile
 * path segment and body, is refused with exactly 403 (it never reaches the UI), and the gate and the
 * UI still answer afterwards with their write actions off.
 */
const UI_WRITES = [
  '/api/v1/namespaces/{ns}/workflows/{id}/update/refund',
  '/api/v1/namespaces/{ns}/workflows/{id}/signal/resumeRefunds',
  '/api/v1/namespaces/{ns}/workflows/{id}/terminate',
  '/api/v1/namespaces/{ns}/workflows/{id}/reset',
  '/api/v1/namespaces/{ns}/workflows/{id}',
  '/api/v1/namespaces/{ns}/batch-operations/{id}',
];
async function uiGate(uiUrl: string, result: HostileResult): Promise<void> {
  for (const path of UI_WRITES) {
    const op: Operation = { method: 'POST', path, headers: { authorization: 'Bearer anything' }, query: [], bodyFields: ['request', 'input'] };
    for (const shot of shots(uiUrl, op, { ns: 'default', id: 'payment-x1' })) {
      for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
        const status = await send({ ...shot, method, label: `UI ${method} ${shot.label}` });
        result.requests++;
        if (status !== 403) result.failures.push(`UI ${method} ${shot.label}: ${status}, not 403`);
      }
    }
  }
  const settings = await fetch(`${uiUrl}/api/v1/settings`).then(
    (r) => (r.ok ? (r.json() as Promise<{ DisableWriteActions?: boolean }>) : null),
    () => null,
  );
  if (settings?.DisableWriteActions !== true) result.failures.push('UI: the gate no longer answers its settings with the write actions off');
}

export async function hostileShapes(opts: {
  apiUrl: string;
  sandboxUrl: string;
  temporalUiUrl?: string;
  fixtures: Fixtures;
  log: (line: string) => void;
}): Promise<HostileResult> {
  const f = opts.fixtures;
  const doc = (await (await fetch(`${opts.apiUrl}/openapi.json`)).json()) as OpenApi;
  const fill = { ...baseline(f), deviceId: 'fuzz-hostile', acquirerRef: 'x1', refundReference: 'REFUND-x1', voidReference: 'VOID-x1' };
  const apiAlive = (): Promise<boolean> => alive(`${opts.apiUrl}/api/webhooks/configs`, { 'x-api-key': f.credentials.liveKey });
  const sandboxAlive = (): Promise<boolean> => alive(`${opts.sandboxUrl}/sim/acquirer-calls`, {});
  const targets: [string, Operation[], () => Promise<boolean>][] = [
    [opts.apiUrl, apiOperations(doc, f), apiAlive],
    [opts.sandboxUrl, sandboxOperations(), sandboxAlive],
  ];
  const result: HostileResult = { requests: 0, failures: [] };
  for (const [base, ops, isAlive] of targets) {
    for (const op of ops) {
      for (const shot of shots(base, op, { ...fill, id: idFor(op.path, f) })) {
        const status = await send(shot);
        result.requests++;
        if (typeof status !== 'number' || status >= 500) result.failures.push(`${shot.label}: ${status}`);
      }
      if (!(await isAlive())) {
        result.failures.push(`${op.method} ${op.path}: the process no longer answers normally afterwards`);
        return result;
      }
    }
    opts.log(`hostile shapes: ${ops.length} operations of ${base} done, ${result.requests} requests so far`);
  }
  if (opts.temporalUiUrl) {
    await uiGate(opts.temporalUiUrl, result);
    opts.log(`hostile shapes: the Temporal Web UI's gate done, ${result.requests} requests so far`);
  }
  return result;
}
