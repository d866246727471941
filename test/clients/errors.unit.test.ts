import { ApiError, createClient, getTransaction, listUsers } from '@in-store-payments/client';
import { errorBody, fakeFetch, json } from './fakeFetch';

const retry = { attempts: 1 };

describe('TypeScript client: errors', () => {
  it('throws every non-2xx as an ApiError with the status, message and body of the error shape', async () => {
    const body = errorBody(404, 'Not Found', 'Payment not found');
    const { fetch } = fakeFetch(json(404, body));
    const client = createClient({ baseUrl: 'http://api.test', apiKey: 'isp_test_k', fetch, retry });
    const err = await getTransaction({ client, path: { id: 'pay_1' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ name: 'ApiError', status: 404, message: 'Payment not found', body });
  });

  it('keeps the status of an answer that is not the error shape, with its text as message', async () => {
    const { fetch } = fakeFetch(new Response('upstream down', { status: 502 }));
    const client = createClient({ baseUrl: 'http://api.test', sessionToken: 't', fetch, retry });
    await expect(listUsers({ client })).rejects.toMatchObject({ status: 502, message: 'upstream down' });
  });

  it('returns the typed data of a 2xx answer', async () => {
    const { fetch } = fakeFetch(json(200, { content: [], totalElements: 0, totalPages: 0, page: 0, size: 20 }));
    const client = createClient({ baseUrl: 'http://api.test', sessionToken: 't', fetch, retry });
    const { data } = await listUsers({ client });
    expect(data.totalElements).toBe(0);
  });

  it('lets a network failure through as it is (no answer, no status)', async () => {
    const client = createClient({ baseUrl: 'http://api.test', apiKey: 'k', fetch: fakeFetch(new TypeError('fetch failed')).fetch, retry });
    await expect(getTransaction({ client, path: { id: 'p' } })).rejects.toThrow(TypeError);
  });
});
