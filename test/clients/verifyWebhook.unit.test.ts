import { verifyWebhook } from '@in-store-payments/client';
import { signWebhookBody } from '../../src/webhooks/signature';

const secret = 'whsec_0123456789abcdef0123456789abcdef';
const body = JSON.stringify({
  eventId: 'evt_8d1f0c2b9a7e4f3d2c1b0a9f8e7d6c5b',
  eventType: 'PAYMENT_CAPTURED',
  merchantExternalId: 'acme-retail',
  timestamp: '2026-11-22T10:04:31.120Z',
  data: { paymentId: 'pay_1', amount: 12.5, currency: 'EUR', note: 'café' },
});

describe('TypeScript client: verifyWebhook against the server’s own signatures', () => {
  const signature = signWebhookBody(body, secret);

  it('accepts the server’s signature of the exact body, as a string or as bytes', async () => {
    expect(await verifyWebhook(body, signature, secret)).toBe(true);
    expect(await verifyWebhook(Buffer.from(body, 'utf8'), signature, secret)).toBe(true);
    expect(await verifyWebhook(new TextEncoder().encode(body), ` ${signature} `, secret)).toBe(true);
  });

  it('refuses an altered body, including a replay with a fresh timestamp', async () => {
    expect(await verifyWebhook(body.replace('12.5', '125'), signature, secret)).toBe(false);
    expect(await verifyWebhook(body.replace('2026-11-22T10:04:31.120Z', '2026-11-23T10:04:31.120Z'), signature, secret)).toBe(false);
    expect(await verifyWebhook(JSON.stringify(JSON.parse(body), null, 1), signature, secret)).toBe(false);
  });

  it('refuses another secret (a rotated one) and a signature made for another event', async () => {
    expect(await verifyWebhook(body, signature, `${secret}x`)).toBe(false);
    expect(await verifyWebhook(body, signWebhookBody('{"eventId":"evt_other"}', secret), secret)).toBe(false);
  });

  it('is false, never an exception, for malformed input', async () => {
    for (const sig of [undefined, null, '', 'abc', `${signature}x`, signature.replace('=', '')]) expect(await verifyWebhook(body, sig, secret)).toBe(false);
    expect(await verifyWebhook(body, signature, '')).toBe(false);
    expect(await verifyWebhook(42 as unknown as string, signature, secret)).toBe(false);
  });
});
