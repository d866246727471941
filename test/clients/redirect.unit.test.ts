import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, createClient, createPayment, getTransaction, listUsers } from '../../clients/typescript/src';

/**
 * Issue 37: the TypeScript client follows no redirect. A followed one would carry X-API-Key (fetch
 * drops only Authorization across origins) to the address in Location; here the "service" on one
 * loopback port redirects to a second loopback server, which must never hear from the client.
 */
interface Heard {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

async function server(
  answer: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<{ url: string; heard: Heard[]; close: () => Promise<void> }> {
  const heard: Heard[] = [];
  const s = http.createServer((req, res) => {
    heard.push({ method: req.method!, url: req.url!, headers: req.headers });
    req.resume();
    req.on('end', () => answer(req, res));
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, heard, close: () => new Promise((resolve) => s.close(() => resolve())) };
}

let elsewhere: Awaited<ReturnType<typeof server>>;
let service: Awaited<ReturnType<typeof server>>;
let status = 307;

beforeAll(async () => {
  elsewhere = await server((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ id: 'stolen', content: [] }));
  });
  // localhost, not 127.0.0.1: another origin, as a redirect to another host would be.
  service = await server((req, res) => {
    res.writeHead(status, { Location: `${elsewhere.url.replace('127.0.0.1', 'localhost')}${req.url}` });
    res.end();
  });
});
afterAll(async () => {
  await Promise.all([service?.close(), elsewhere?.close()]);
});
beforeEach(() => {
  service.heard.length = 0;
  elsewhere.heard.length = 0;
});

const payment = { merchantExternalId: 'm', storeExternalId: 's', terminalExternalId: 't', amount: 10, currency: 'EUR', reference: 'R-1' };

describe('TypeScript client: no redirect is followed (issue 37)', () => {
  it.each([301, 302, 303, 307, 308])('a %i to another origin: ApiError naming the redirect, the API key never sent there, no retry', async (code) => {
    status = code;
    const client = createClient({ baseUrl: service.url, apiKey: 'isp_test_secretkey', retry: { baseDelayMs: 1 } });
    // createPayment is retried on temporary answers: a redirect is none.
    const thrown = await createPayment({ client, body: payment }).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(ApiError);
    expect(thrown).toMatchObject({ status: code });
    expect((thrown as ApiError).message).toMatch(
      /^POST \/api\/in-store\/payments was answered with a redirect to http:\/\/localhost:\d+\/api\/in-store\/payments; the client follows no redirect/,
    );
    expect(service.heard).toHaveLength(1);
    expect(service.heard[0]!.headers['x-api-key']).toBe('isp_test_secretkey');
    expect(elsewhere.heard).toEqual([]);

    await expect(getTransaction({ client, path: { id: 'p-1' } })).rejects.toMatchObject({ name: 'ApiError', status: code });
    expect(elsewhere.heard).toEqual([]);
  });

  it('a session token is not sent on either', async () => {
    status = 302;
    const client = createClient({ baseUrl: service.url, sessionToken: 'session-token-1' });
    await expect(listUsers({ client })).rejects.toBeInstanceOf(ApiError);
    expect(service.heard.map((h) => h.headers.authorization)).toEqual(['Bearer session-token-1']);
    expect(elsewhere.heard).toEqual([]);
  });
});
