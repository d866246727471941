import { ApiError, capturePayment, createClient, createPayment, createRefund, syncPaymentStatus, voidPayment } from '@in-store-payments/client';
import { errorBody, fakeFetch, json, networkError } from './fakeFetch';

const payment = { merchantExternalId: 'm', storeExternalId: 's', terminalExternalId: 't', amount: 10, currency: 'EUR', reference: 'BILL-42' };
const unavailable = () => json(503, errorBody(503, 'Service Unavailable', 'try again'));
const clientWith = (fetch: typeof globalThis.fetch, sessionToken?: string) =>
  createClient({ baseUrl: 'http://api.test', apiKey: 'k', sessionToken, fetch, retry: { baseDelayMs: 1 } });

describe('TypeScript client: retries of the safe operations only', () => {
  it('repeats a payment creation after a 503 and a network failure, with the same reference', async () => {
    const { fetch, seen } = fakeFetch(unavailable(), networkError(), json(201, { id: 'p', status: 'AWAITING_TERMINAL' }));
    const { data } = await createPayment({ client: clientWith(fetch), body: payment });
    expect(data).toMatchObject({ id: 'p' });
    expect(seen).toHaveLength(3);
    expect(seen.map((s) => JSON.parse(s.body).reference)).toEqual(['BILL-42', 'BILL-42', 'BILL-42']);
  });

  it('gives up after the last attempt with the ApiError of the last answer', async () => {
    const { fetch, seen } = fakeFetch(unavailable());
    await expect(createPayment({ client: clientWith(fetch), body: payment })).rejects.toMatchObject({ status: 503 });
    expect(seen).toHaveLength(3);
  });

  it('repeats sync-status after a network failure', async () => {
    const { fetch, seen } = fakeFetch(networkError(), json(200, { id: 'p', status: 'CAPTURED' }));
    await syncPaymentStatus({ client: clientWith(fetch), path: { id: 'p' } });
    expect(seen.map((s) => s.path)).toEqual(['/api/in-store/payments/p/sync-status', '/api/in-store/payments/p/sync-status']);
  });

  it('repeats a refund with the caller’s Idempotency-Key, or one it adds, the same on every attempt', async () => {
    const given = fakeFetch(unavailable(), json(201, { id: 'r' }));
    await createRefund({ client: clientWith(given.fetch, 's'), path: { paymentId: 'p' }, body: { amount: 1 }, headers: { 'Idempotency-Key': 'refund-7' } });
    expect(given.seen.map((s) => s.headers.get('Idempotency-Key'))).toEqual(['refund-7', 'refund-7']);

    const added = fakeFetch(networkError(), json(201, { id: 'r' }));
    await createRefund({ client: clientWith(added.fetch, 's'), path: { paymentId: 'p' }, body: {} });
    const keys = added.seen.map((s) => s.headers.get('Idempotency-Key'));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
  });

  it('does not repeat an operation that is an action each time (capture, void)', async () => {
    const capture = fakeFetch(unavailable(), json(200, {}));
    await expect(capturePayment({ client: clientWith(capture.fetch), path: { id: 'p' } })).rejects.toBeInstanceOf(ApiError);
    expect(capture.seen).toHaveLength(1);

    const voided = fakeFetch(networkError(), json(200, {}));
    await expect(voidPayment({ client: clientWith(voided.fetch), path: { id: 'p' } })).rejects.toThrow('fetch failed');
    expect(voided.seen).toHaveLength(1);
  });

  it('does not repeat a refused creation (a 4xx other than 429)', async () => {
    const { fetch, seen } = fakeFetch(json(400, errorBody(400, 'Bad Request', 'amount: too small')), json(201, {}));
    await expect(createPayment({ client: clientWith(fetch), body: payment })).rejects.toMatchObject({ status: 400, message: 'amount: too small' });
    expect(seen).toHaveLength(1);
  });

  it('waits a 429’s Retry-After before repeating a creation', async () => {
    const { fetch, seen } = fakeFetch(json(429, errorBody(429, 'Too Many Requests', 'slow down'), { 'Retry-After': '0' }), json(201, { id: 'p' }));
    await createPayment({ client: clientWith(fetch), body: payment });
    expect(seen).toHaveLength(2);
  });
});
