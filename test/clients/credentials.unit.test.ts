import { createClient, createPayment, getTransaction, listUsers } from '@in-store-payments/client';
import { fakeFetch, json } from './fakeFetch';

const payment = { merchantExternalId: 'm', storeExternalId: 's', terminalExternalId: 't', amount: 10, currency: 'EUR', reference: 'R-1' };

describe('TypeScript client: credentials set once', () => {
  it('sends an API key as X-API-Key on every call, and no Authorization', async () => {
    const { fetch, seen } = fakeFetch(json(201, { id: 'p' }));
    const client = createClient({ baseUrl: 'http://api.test', apiKey: 'isp_test_abc', fetch });
    await createPayment({ client, body: payment });
    await getTransaction({ client, path: { id: 'p' } });
    expect(seen.map((s) => s.headers.get('X-API-Key'))).toEqual(['isp_test_abc', 'isp_test_abc']);
    expect(seen.every((s) => !s.headers.has('Authorization'))).toBe(true);
  });

  it('sends a session token as a bearer token, read at each call when given as a function', async () => {
    const { fetch, seen } = fakeFetch(json(200, { content: [] }));
    let token: string | null = 'first';
    const client = createClient({ baseUrl: 'http://api.test', sessionToken: () => token, fetch });
    await listUsers({ client });
    token = 'second';
    await listUsers({ client });
    token = null;
    await listUsers({ client });
    expect(seen.map((s) => s.headers.get('Authorization'))).toEqual(['Bearer first', 'Bearer second', null]);
    expect(seen.every((s) => !s.headers.has('X-API-Key'))).toBe(true);
  });

  it('sends the base address with the operation path', async () => {
    const { fetch, seen } = fakeFetch(json(200, {}));
    const client = createClient({ baseUrl: 'http://api.test/pay', apiKey: 'k', fetch });
    await getTransaction({ client, path: { id: 'pay 1' } });
    expect(seen[0]).toMatchObject({ method: 'GET', path: '/pay/api/transactions/pay%201' });
  });
});
