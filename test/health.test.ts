import http from 'node:http';
import { createMerchantWithKey } from './support/fixtures';
import { call, expectErrorShape } from './support/http';
import { startTestStack, type TestStack } from './support/stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.stop();
});

describe('GET /health', () => {
  it('answers 200 without credentials once the database and Temporal answer', async () => {
    const res = await call(stack.apiUrl, 'GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', database: 'ok', temporal: 'ok' });
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });
});

describe('HTTP foundation', () => {
  it('answers an unknown route with 404 in the error shape', async () => {
    expectErrorShape(await call(stack.apiUrl, 'GET', '/no/such/route'), 404);
  });

  it('answers a wrong method with 405', async () => {
    expectErrorShape(await call(stack.apiUrl, 'DELETE', '/health'), 405);
  });

  it('answers malformed JSON, a non-object body and unknown fields with 400 naming the problem', async () => {
    const { merchant, key } = await createMerchantWithKey(stack.db);
    const path = `/api/merchants/${merchant.externalId}/stores`;
    expect(expectErrorShape(await call(stack.apiUrl, 'POST', path, { key, rawBody: '{"name": ' }), 400)).toBe('request body is not valid JSON');
    expect(expectErrorShape(await call(stack.apiUrl, 'POST', path, { key, body: [1, 2] }), 400)).toMatch(/^body: /);
    const unknown = { name: 'S', country: 'DE', timezone: 'UTC', colour: 'red' };
    expect(expectErrorShape(await call(stack.apiUrl, 'POST', path, { key, body: unknown }), 400)).toMatch(/^colour: unknown field/);
    expect(await stack.db.store.count({ where: { merchantId: merchant.id } })).toBe(0);
  });

  it('refuses NUL characters anywhere in a request with 400 naming the field, writing nothing', async () => {
    const { merchant, key } = await createMerchantWithKey(stack.db);
    const path = `/api/merchants/${merchant.externalId}/stores`;
    const body = { name: 'a\u0000', country: 'DE', timezone: 'UTC' };
    expect(expectErrorShape(await call(stack.apiUrl, 'POST', path, { key, body }), 400)).toBe('name: must not contain NUL characters');
    const meta = { name: 'a', country: 'DE', timezone: 'UTC', metadata: { 'k\u0000': 'v' } };
    expect(expectErrorShape(await call(stack.apiUrl, 'POST', path, { key, body: meta }), 400)).toMatch(/metadata: keys must not contain NUL/);
    expect(expectErrorShape(await call(stack.apiUrl, 'GET', '/api/transactions?q=a%00', { key }), 400)).toBe('q: must not contain NUL characters');
    expect(expectErrorShape(await call(stack.apiUrl, 'GET', '/api/transactions/a%00', { key }), 400)).toBe('id: must not contain NUL characters');
    expect(await stack.db.store.count({ where: { merchantId: merchant.id } })).toBe(0);
  });

  it('answers methods the router does not know with 405', async () => {
    // fetch refuses TRACE, so a plain node:http request
    const { status, body, allow } = await new Promise<{ status: number; body: string; allow?: string }>((resolve, reject) => {
      const req = http.request(`${stack.apiUrl}/health`, { method: 'TRACE' }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, body: text, allow: res.headers.allow }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(405);
    expect(JSON.parse(body)).toMatchObject({ status: 405, error: 'Method Not Allowed' });
    expect(allow).toBe('HEAD, GET');
  });

  it('keeps a sane caller request id and mints one otherwise', async () => {
    const mine = await call(stack.apiUrl, 'GET', '/health', { headers: { 'X-Request-Id': 'pos-req-12345678' } });
    expect(mine.headers.get('x-request-id')).toBe('pos-req-12345678');
    const odd = await call(stack.apiUrl, 'GET', '/health', { headers: { 'X-Request-Id': 'bad id!' } });
    expect(odd.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("serves Prometheus metrics: API latency by route and the Temporal worker's own", async () => {
    await call(stack.apiUrl, 'GET', '/health');
    const res = await fetch(stack.metricsUrl!);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(/isp_http_request_duration_seconds_bucket\{[^}]*route="\/health"/);
    expect(text).toContain('isp_payment_status_events_total');
    expect(text).toContain('isp_webhook_delivery_attempts_total');
    expect(text).toMatch(/temporal_/); // SDK core metrics of the in-process worker
  });

  it('serves the OpenAPI 3.1 document and the docs page', async () => {
    const doc = await call(stack.apiUrl, 'GET', '/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    expect(doc.body.paths['/health']).toBeDefined();
    const page = await call(stack.apiUrl, 'GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.body).toContain('swagger-ui');
    const asset = await fetch(`${stack.apiUrl}/docs/swagger-ui-bundle.js`);
    expect(asset.status).toBe(200);
  });
});
