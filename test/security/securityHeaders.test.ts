import { startTestStack, type TestStack } from '../support/stack';
import { createMerchant, createUser, PASSWORD } from '../users/helpers';

/**
 * Issue 22, part B: every answer of the API port carries the browser security headers (CSP with
 * frame-ancestors 'none', nosniff, Referrer-Policy), the /docs page a policy Swagger UI can run
 * under, and HSTS only behind a trusted proxy that says the client used https.
 */
let plain: TestStack;
let proxied: TestStack;
beforeAll(async () => {
  [plain, proxied] = await Promise.all([startTestStack(), startTestStack({ TRUST_PROXY: 'true' })]);
});
afterAll(async () => {
  await Promise.all([plain?.stop(), proxied?.stop()]);
});

const get = (stack: TestStack, path: string, headers: Record<string, string> = {}) => fetch(stack.apiUrl + path, { headers });

function expectBrowserHeaders(res: Response): string {
  const csp = res.headers.get('content-security-policy') ?? '';
  expect(csp).toContain("frame-ancestors 'none'");
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  return csp;
}

describe('security headers', () => {
  it.each(['/health', '/openapi.json', '/api/merchants/acme/stores', '/no/such/route'])('API answer %s: a CSP that loads nothing', async (path) => {
    const res = await get(plain, path);
    expect(expectBrowserHeaders(res)).toContain("default-src 'none'");
  });

  it('/docs: scripts only from /docs (no inline script), its styles and data: icons, calls to this origin', async () => {
    const res = await get(plain, '/docs');
    expect(res.status).toBe(200);
    const csp = expectBrowserHeaders(res);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(csp).toContain("img-src 'self' data:");
    expect(csp).toContain("connect-src 'self'");
    const html = await res.text();
    expect(html).not.toMatch(/<script>/);
    // Every script and stylesheet the page names is served from here, under the same headers.
    const assets = [...html.matchAll(/(?:src|href)="(\/docs\/[\w.-]+)"/g)].map((m) => m[1]!);
    expect(assets).toEqual(expect.arrayContaining(['/docs/swagger-ui-bundle.js', '/docs/init.js', '/docs/swagger-ui.css']));
    for (const asset of assets) {
      const a = await get(plain, asset);
      expect(a.status).toBe(200);
      expectBrowserHeaders(a);
      await a.arrayBuffer();
    }
    expect(await (await get(plain, '/docs/init.js')).text()).toContain("url: '/openapi.json'");
  });
});

describe('Cache-Control: no-store (issue 37)', () => {
  const post = (path: string, body: unknown) =>
    fetch(plain.apiUrl + path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

  it('on the sign-in answer, refused or signed in, and on every dashboard answer', async () => {
    const merchant = await createMerchant(plain.db, 'No-store Merchant');
    const user = await createUser(plain.db, merchant, ['ADMIN']);
    const refused = await post('/api/auth/login', { username: user.username, password: 'wrong-password-1' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('cache-control')).toBe('no-store');
    const signedIn = await post('/api/auth/login', { username: user.username, password: PASSWORD });
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.get('cache-control')).toBe('no-store');
    const { token } = (await signedIn.json()) as { token: string };
    const auth = { Authorization: `Bearer ${token}` };
    for (const path of [
      '/api/dashboard/me',
      '/api/dashboard/names',
      '/api/dashboard/payments',
      '/api/dashboard/summary',
      '/api/users/me',
      '/api/dashboard/no-such',
    ]) {
      const res = await get(plain, path, auth);
      expect([path, res.headers.get('cache-control')]).toEqual([path, 'no-store']);
      await res.arrayBuffer();
    }
    // Refusals too: no session, or a role without the area.
    expect((await get(plain, '/api/dashboard/names')).headers.get('cache-control')).toBe('no-store');
  });

  it('is not sent on the dashboard page itself or the docs, which are public and cached as before', async () => {
    for (const path of ['/docs', '/health']) {
      const res = await get(plain, path);
      expect(res.headers.get('cache-control') ?? '').not.toContain('no-store');
      await res.arrayBuffer();
    }
  });
});

describe('Strict-Transport-Security', () => {
  it('is absent on plain http, and without TRUST_PROXY even when X-Forwarded-Proto says https', async () => {
    expect((await get(plain, '/health')).headers.get('strict-transport-security')).toBeNull();
    expect((await get(plain, '/health', { 'X-Forwarded-Proto': 'https' })).headers.get('strict-transport-security')).toBeNull();
    expect((await get(proxied, '/health')).headers.get('strict-transport-security')).toBeNull();
    expect((await get(proxied, '/health', { 'X-Forwarded-Proto': 'http' })).headers.get('strict-transport-security')).toBeNull();
  });

  it('is sent with TRUST_PROXY when the proxy says the request came over https', async () => {
    for (const path of ['/health', '/docs', '/no/such/route']) {
      const res = await get(proxied, path, { 'X-Forwarded-Proto': 'https' });
      expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
      await res.arrayBuffer();
    }
  });
});
