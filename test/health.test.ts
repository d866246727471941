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

  it('keeps a sane caller request id and mints one otherwise', async () => {
    const mine = await call(stack.apiUrl, 'GET', '/health', { headers: { 'X-Request-Id': 'pos-req-12345678' } });
    expect(mine.headers.get('x-request-id')).toBe('pos-req-12345678');
    const odd = await call(stack.apiUrl, 'GET', '/health', { headers: { 'X-Request-Id': 'bad id!' } });
    expect(odd.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves Prometheus metrics: API latency by route and the Temporal worker\'s own', async () => {
    await call(stack.apiUrl, 'GET', '/health');
    const res = await fetch(`${stack.apiUrl}/metrics`);
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
