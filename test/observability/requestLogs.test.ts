/**
 * Every log line of a payment request names the request and the payment (issue 6): the closing
 * "request" line of a create, a sync-status and a transaction read carries the X-Request-Id the
 * caller got back and the payment's id, as JSON.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { REDACT_PATHS } from '../../src/logger';
import { call } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';
import { createPayment, openShop, paymentAction } from '../payments/helpers';

const lines: Array<Record<string, unknown>> = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    lines.push(JSON.parse(String(chunk)));
    done();
  },
});
const logger = pino({ level: 'info', base: { service: 'in-store-payments' }, redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, sink);

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({}, { logger });
});
afterAll(async () => {
  await stack?.stop();
});

const requestLine = (requestId: string | null) => lines.find((l) => l.msg === 'request' && l.requestId === requestId);

it('names the request id and the payment id on the request line of create, sync-status and reads', async () => {
  const shop = await openShop(stack);
  const created = await createPayment(stack, shop);
  expect(created.status).toBe(201);
  const paymentId = created.body.id as string;
  expect(requestLine(created.headers.get('x-request-id'))).toMatchObject({ paymentId, method: 'POST', status: 201 });

  const synced = await paymentAction(stack, shop, paymentId, 'sync-status');
  expect(synced.status).toBe(200);
  expect(requestLine(synced.headers.get('x-request-id'))).toMatchObject({ paymentId, status: 200 });

  const read = await call(stack.apiUrl, 'GET', `/api/transactions/${paymentId}`, { key: shop.key });
  expect(read.status).toBe(200);
  expect(requestLine(read.headers.get('x-request-id'))).toMatchObject({ paymentId, status: 200 });
});

it('keeps the caller request id when it is sane, on the response and the log line', async () => {
  const shop = await openShop(stack);
  const res = await call(stack.apiUrl, 'GET', '/api/transactions?size=1', { key: shop.key, headers: { 'X-Request-Id': 'pos-till-7:0042' } });
  expect(res.headers.get('x-request-id')).toBe('pos-till-7:0042');
  expect(requestLine('pos-till-7:0042')).toMatchObject({ method: 'GET', status: 200 });
});
