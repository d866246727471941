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

  it('keeps a sane caller request id and mints one otherwise', async () => {
    const mine = await call(stack.apiUrl, 'GET', '/health', { headers: { 'X-Request-Id': 'pos-req-12345678' } });
    expect(mine.headers.get('x-request-id')).toBe('pos-req-12345678');
    const odd = await call(stack.apiUrl, 'GET', '/health', { headers: { 'X-Request-Id': 'bad id!' } });
    expect(odd.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
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
