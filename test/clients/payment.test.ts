import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, createClient, createPayment, createWebhookConfig, getTransaction, syncPaymentStatus, verifyWebhook } from '@in-store-payments/client';
import { eventually, openShop, sim } from '../payments/helpers';
import { startTestStack, type TestStack } from '../support/stack';

/** The TypeScript client against the real service: a payment end to end, and a webhook it verifies. */
let stack: TestStack;
let receiver: http.Server;
const received: { body: Buffer; signature: string | undefined }[] = [];
beforeAll(async () => {
  stack = await startTestStack();
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ body: Buffer.concat(chunks), signature: req.headers['x-webhook-signature'] as string | undefined });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await stack?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

it('takes a payment through the client: created, repeated with its reference, captured, read; a verified webhook', async () => {
  const shop = await openShop(stack);
  const client = createClient({ baseUrl: stack.apiUrl, apiKey: shop.key });
  const { data: hook } = await createWebhookConfig({
    client,
    body: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, eventTypes: ['PAYMENT_CAPTURED'] },
  });

  const body = {
    merchantExternalId: shop.merchantExternalId,
    storeExternalId: shop.storeExternalId,
    terminalExternalId: shop.terminalExternalId,
    amount: 12.5,
    currency: 'EUR',
    reference: `client-${Date.now()}`,
  };
  const { data: created, response } = await createPayment({ client, body });
  expect(response.status).toBe(201);
  expect(created).toMatchObject({ status: 'AWAITING_TERMINAL', amount: 12.5, currency: 'EUR' });
  // The same reference while open: the same payment, never a second bill.
  expect((await createPayment({ client, body })).data.id).toBe(created.id);

  await sim(stack).customer(shop.deviceId, { action: 'pay', cardBrand: 'VISA', last4: '4242' });
  const captured = await eventually(async () => {
    const { data } = await syncPaymentStatus({ client, path: { id: created.id } });
    return data.status === 'CAPTURED' ? data : undefined;
  });
  expect(captured).toMatchObject({ id: created.id, cardBrand: 'VISA', last4: '4242' });
  expect((await getTransaction({ client, path: { id: created.id } })).data.status).toBe('CAPTURED');

  const delivery = await eventually(async () => received.find((r) => r.body.toString('utf8').includes(created.pspReference)));
  expect(await verifyWebhook(delivery.body, delivery.signature, hook.secret)).toBe(true);
  expect(await verifyWebhook(delivery.body, delivery.signature, `${hook.secret}x`)).toBe(false);

  const missing = await getTransaction({ client, path: { id: 'pay_missing' } }).catch((e: unknown) => e);
  expect(missing).toBeInstanceOf(ApiError);
  expect(missing).toMatchObject({ status: 404, body: { status: 404, error: 'Not Found' } });
});
