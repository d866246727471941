import net from 'node:net';
import crypto from 'node:crypto';
import path from 'node:path';
import fs from 'node:fs';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { freePort } from '../../src/process/freePort';
import { startService } from '../../src/service';
import { type MerchantWithKey } from '../support/fixtures';
import { call, expectErrorShape } from '../support/http';
import { TEST_SECRETS_KEY, type TestStack } from '../support/stack';
import { withStackAndMerchant } from '../support/suite';

/**
 * Issue 15 points 1, 2, 8 and 11: hostile input at the edge of the API and the sandbox, the
 * Authorization header rule, requests during start-up, and the production start guard.
 */
let stack: TestStack;
let m: MerchantWithKey;
withStackAndMerchant((started) => ({ stack, m } = started));

const storesPath = () => `/api/merchants/${m.merchant.externalId}/stores`;
const nested = (depth: number): unknown => {
  let v: unknown = 'leaf';
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
};
/** The JSON text of `nested(depth)`, written out (JSON.stringify itself overflows on such depths). */
const nestedText = (depth: number): string => '{"a":'.repeat(depth) + '"leaf"' + '}'.repeat(depth);
const PROTO_PROPS = ['modes', 'twoStep', 'reachable', 'latencyMs', 'deviceId'];

describe('prototype keys never index a plain object (point 1)', () => {
  it.each(['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString'])(
    'the sandbox refuses the device id %s and Object.prototype stays clean; the API keeps answering',
    async (deviceId) => {
      const put = await call(stack.sandboxUrl, 'PUT', `/sim/devices/${deviceId}`, { body: { reachable: false, latencyMs: 5 } });
      expect(put.status).toBe(400);
      expect(put.body.message).toMatch(/^deviceId: /);
      for (const prop of PROTO_PROPS) expect(Object.hasOwn(Object.prototype, prop)).toBe(false);
      expect((await call(stack.sandboxUrl, 'GET', `/sim/devices/${deviceId}`)).status).toBe(400);
      expect((await call(stack.sandboxUrl, 'GET', `/acquirer/v1/devices/${deviceId}`)).status).toBe(400);
      expect((await call(stack.sandboxUrl, 'GET', `/sim/bills/${deviceId}`)).status).toBe(400);
      expect((await call(stack.sandboxUrl, 'GET', `/acquirer/v1/devices/dev-1/voids/${deviceId}`)).status).toBe(400);
      expect((await call(stack.apiUrl, 'GET', storesPath(), { key: m.key })).status).toBe(200);
      expect((await call(stack.apiUrl, 'GET', '/health')).status).toBe(200);
    },
  );

  it.each(['__proto__', 'constructor', 'toString', 'valueOf'])('answers GET /docs/%s with 404 in the error shape', async (asset) => {
    expectErrorShape(await call(stack.apiUrl, 'GET', `/docs/${asset}`), 404);
    expect((await call(stack.apiUrl, 'GET', '/docs/swagger-ui.css')).status).toBe(200);
  });

  it('refuses __proto__, constructor and prototype as keys anywhere in a body, naming the field, writing nothing', async () => {
    const raw = (key: string) => `{"name":"S","country":"DE","timezone":"UTC","metadata":{"x":{"${key}":{"polluted":true}}}}`;
    for (const key of ['constructor', 'prototype']) {
      const res = await call(stack.apiUrl, 'POST', storesPath(), { key: m.key, rawBody: raw(key) });
      expect(expectErrorShape(res, 400)).toBe(`metadata.x.${key}: '${key}' is a reserved name and not accepted as a key`);
    }
    // __proto__ is refused by the JSON parser itself (before any object holds it); the answer still names it.
    const proto = await call(stack.apiUrl, 'POST', storesPath(), { key: m.key, rawBody: raw('__proto__') });
    expect(expectErrorShape(proto, 400)).toMatch(/__proto__/);
    const sim = await call(stack.sandboxUrl, 'PUT', '/sim/devices/dev-proto', { rawBody: '{"__proto__":{"reachable":false}}' });
    expect(sim.status).toBe(400);
    expect(sim.body.message).toMatch(/__proto__/);
    expect(Object.hasOwn(Object.prototype, 'polluted')).toBe(false);
    expect(await stack.db.store.count({ where: { merchantId: m.merchant.id } })).toBe(0);
  });
});

describe('deep nesting is a 400 naming the field (point 2)', () => {
  it('refuses metadata nested thousands deep on store create, and a deep body anywhere', async () => {
    const body = `{"name":"S","country":"DE","timezone":"UTC","metadata":${nestedText(5000)}}`;
    expect(expectErrorShape(await call(stack.apiUrl, 'POST', storesPath(), { key: m.key, rawBody: body }), 400)).toBe(
      'metadata: must not be nested more than 32 levels deep',
    );
    const arrays = '['.repeat(100_000) + ']'.repeat(100_000);
    expect(expectErrorShape(await call(stack.apiUrl, 'POST', storesPath(), { key: m.key, rawBody: arrays }), 400)).toMatch(/nested more than 32 levels/);
    const payment = await call(stack.apiUrl, 'POST', '/api/in-store/payments', {
      key: m.key,
      rawBody: `{"amount":1,"currency":"EUR","extra":${nestedText(10_000)}}`,
    });
    expect(expectErrorShape(payment, 400)).toBe('extra: must not be nested more than 32 levels deep');
    const sim = await call(stack.sandboxUrl, 'PUT', '/sim/devices/dev-deep', { rawBody: `{"modes":${nestedText(10_000)}}` });
    expect(sim.status).toBe(400);
    expect(sim.body.message).toBe('modes: must not be nested more than 32 levels deep');
    // Moderate nesting is still stored as sent.
    const ok = await call(stack.apiUrl, 'POST', storesPath(), { key: m.key, body: { name: 'S', country: 'DE', timezone: 'UTC', metadata: nested(20) } });
    expect(ok.status).toBe(201);
    expect(ok.body.metadata).toEqual(nested(20));
    expect((await call(stack.apiUrl, 'GET', '/health')).status).toBe(200);
  });
});

describe('Authorization header (point 8: a key, or 401)', () => {
  it.each([
    ['Basic credentials', () => `Basic ${Buffer.from('a:b').toString('base64')}`],
    ['an unprefixed bearer', () => 'Bearer abcdef0123456789'],
    ['a bearer of another key', () => `Bearer isp_live_${'x'.repeat(40)}`],
    ['a bare key without Bearer', () => m.key],
    ['an empty value', () => ''],
  ])('refuses a valid X-API-Key next to %s with 401', async (_what, auth) => {
    const res = await call(stack.apiUrl, 'GET', storesPath(), { headers: { 'X-API-Key': m.key, Authorization: auth() } });
    expectErrorShape(res, 401);
  });

  it('accepts X-API-Key together with a Bearer of the same key', async () => {
    const res = await call(stack.apiUrl, 'GET', storesPath(), { headers: { 'X-API-Key': m.key, Authorization: `Bearer ${m.key}` } });
    expect(res.status).toBe(200);
  });
});

describe('metrics (point 7)', () => {
  it('serves GET /metrics on its own loopback port, not on the API', async () => {
    expectErrorShape(await call(stack.apiUrl, 'GET', '/metrics'), 404);
    expect(new URL(stack.metricsUrl!).hostname).toBe('127.0.0.1');
    expect(new URL(stack.metricsUrl!).port).not.toBe(new URL(stack.apiUrl).port);
    const res = await fetch(stack.metricsUrl!);
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/isp_http_request_duration_seconds/);
  });
});

/** A Temporal address that accepts connections and never answers: the start stays under way. */
async function silentServer(): Promise<{ address: string; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

const testConfig = async (env: Record<string, string>) => {
  const dataDir = path.join(process.env.TEST_ROOT!, `start-${crypto.randomBytes(4).toString('hex')}`);
  fs.mkdirSync(dataDir, { recursive: true });
  return loadConfig({
    PORT: String(await freePort()),
    SIM_PORT: '0',
    MAIL_PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    DATABASE_URL: process.env.TEST_DATABASE_URL!,
    // The run's database holds secrets sealed under the run's key; a production start needs both set.
    SECRETS_KEY: TEST_SECRETS_KEY,
    SANDBOX_NOTIFY_SECRET: 'hostile-input-notify-secret-0123',
    ...env,
  });
};

describe('start-up (point 11) and the production guard (point 1)', () => {
  it('answers 503 in the error shape with Retry-After while the service is starting', async () => {
    const temporal = await silentServer();
    const config = await testConfig({ SERVICES: 'api', TEMPORAL_ADDRESS: temporal.address });
    const starting = startService(config, { databaseUrl: process.env.TEST_DATABASE_URL!, temporalAddress: temporal.address }, createLogger('silent'));
    const outcome = starting.then(
      (s) => s,
      (err: Error) => err,
    );
    const url = `http://${config.HOST}:${config.PORT}`;
    let res: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 200 && !res; i++) {
      res = await call(url, 'GET', '/health').catch(() => undefined);
      if (!res) await new Promise((r) => setTimeout(r, 50));
    }
    expect(expectErrorShape(res!, 503)).toMatch(/starting/);
    expect(res!.headers.get('retry-after')).toBe('1');
    const post = await call(url, 'POST', '/api/in-store/payments', { body: { amount: 1 } });
    expectErrorShape(post, 503);
    await temporal.close();
    const done = await outcome;
    if (!(done instanceof Error)) await done.stop();
  }, 120_000);

  it('refuses a production start with the sandbox acquirer while live keys exist, unless allowed', async () => {
    const target = { databaseUrl: process.env.TEST_DATABASE_URL!, temporalAddress: process.env.TEST_TEMPORAL_ADDRESS! };
    const refused = await testConfig({ NODE_ENV: 'production', SERVICES: 'api', TEMPORAL_ADDRESS: target.temporalAddress });
    await expect(startService(refused, target, createLogger('silent'))).rejects.toThrow(/ACQUIRER=sandbox in production while \d+ live API key/);
    const allowed = await testConfig({ NODE_ENV: 'production', SERVICES: 'api', TEMPORAL_ADDRESS: target.temporalAddress, SANDBOX_ALLOW_LIVE_KEYS: 'true' });
    const running = await startService(allowed, target, createLogger('silent'));
    expect((await call(running.apiUrl!, 'GET', '/health')).status).toBe(200);
    await running.stop();
  });
});
