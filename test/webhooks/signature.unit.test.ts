import crypto from 'node:crypto';
import { verifyWebhookSignature } from '../../src';
import { signWebhookBody } from '../../src/webhooks/signature';
import { checkUrlShape, refusedAddressReason } from '../../src/webhooks/urlPolicy';
import { serializeEventBody } from '../../src/webhooks/payload';

/** The receiver's verification helper and the address classification, as pure functions. */
const secret = 'whsec_0123456789abcdefghijABCDEFGHIJ0123456789';
const body = Buffer.from('{"eventId":"evt_1","eventType":"TEST","data":{"amount":"1.00","note":"caf\u00e9"}}', 'utf8');

describe('verifyWebhookSignature', () => {
  it('accepts the Base64 HMAC-SHA256 of the raw bytes under the secret', () => {
    const expected = crypto.createHmac('sha256', secret).update(body).digest('base64');
    expect(signWebhookBody(body, secret)).toBe(expected);
    expect(verifyWebhookSignature(body, expected, secret)).toBe(true);
    expect(verifyWebhookSignature(body.toString('utf8'), expected, secret)).toBe(true);
    expect(verifyWebhookSignature(body, ` ${expected} `, secret)).toBe(true);
  });

  it('is false for any other body, secret or signature, and for malformed input', () => {
    const good = signWebhookBody(body, secret);
    const reparsed = Buffer.from(JSON.stringify(JSON.parse(body.toString('utf8')), null, 1));
    expect(verifyWebhookSignature(reparsed, good, secret)).toBe(false);
    expect(verifyWebhookSignature(body, good, `${secret}x`)).toBe(false);
    expect(
      verifyWebhookSignature(
        body,
        good.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')),
        secret,
      ),
    ).toBe(false);
    expect(verifyWebhookSignature(body, undefined, secret)).toBe(false);
    expect(verifyWebhookSignature(body, '', secret)).toBe(false);
    expect(verifyWebhookSignature(body, good.slice(0, -1), secret)).toBe(false);
    expect(verifyWebhookSignature(body, `${good}AAAA`, secret)).toBe(false);
    expect(verifyWebhookSignature(body, 'not base64 at all!!!!!!!!!!!!!!!!!!!!!!!!!!=', secret)).toBe(false);
    expect(verifyWebhookSignature(body, crypto.createHmac('sha256', secret).update(body).digest('hex'), secret)).toBe(false);
    expect(verifyWebhookSignature(body, good, '')).toBe(false);
    expect(verifyWebhookSignature(null as any, good, secret)).toBe(false);
    expect(verifyWebhookSignature({} as any, good, secret)).toBe(false);
    expect(verifyWebhookSignature(body, 42 as any, secret)).toBe(false);
    expect(verifyWebhookSignature(body, good, undefined as any)).toBe(false);
  });
});

describe('address classification (ipaddr.js)', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.31.255.255',
    '192.168.0.1',
    '100.64.0.1',
    '100.127.255.254',
    '169.254.169.254',
    '0.0.0.0',
    '::1',
    'fc00::1',
    'fdff::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:192.168.1.1',
    '224.0.0.1',
    '255.255.255.255',
  ])('refuses %s', (address) => {
    expect(refusedAddressReason(address)).toBeDefined();
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2a00:1450:4001::1'])('accepts the public address %s', (address) => {
    expect(refusedAddressReason(address)).toBeUndefined();
  });

  it('parses the URL and applies the scheme rule', () => {
    expect(() => checkUrlShape('http://example.com/', false)).toThrow('must be an https:// URL');
    expect(checkUrlShape('http://127.0.0.1:1/', true).port).toBe('1');
    expect(() => checkUrlShape('https://u:p@example.com/', false)).toThrow('must not carry credentials');
  });
});

describe('the event body', () => {
  it('carries requestedAmount right after amount when the stored event has it (issue 42); older events are sent without it', () => {
    const stored = {
      data: { status: 'CAPTURED', requestedAmount: '40.00', amount: '25.00' },
      eventType: 'PAYMENT_CAPTURED',
      eventId: 'evt_2',
      merchantExternalId: 'm',
      timestamp: 't',
    };
    const sent = JSON.parse(serializeEventBody(stored).toString('utf8'));
    expect(Object.keys(sent.data).slice(0, 5)).toEqual(['pspReference', 'merchantReference', 'amount', 'requestedAmount', 'currency']);
    expect(sent.data).toMatchObject({ amount: '25.00', requestedAmount: '40.00' });
  });

  it('carries tipAmount and totalAmount right after requestedAmount when the stored event has them (docs/tips.md)', () => {
    const stored = {
      data: { totalAmount: '46.00', status: 'CAPTURED', tipAmount: '6.00', requestedAmount: '40.00', amount: '40.00' },
      eventType: 'PAYMENT_CAPTURED',
      eventId: 'evt_3',
      merchantExternalId: 'm',
      timestamp: 't',
    };
    const sent = JSON.parse(serializeEventBody(stored).toString('utf8'));
    expect(Object.keys(sent.data).slice(0, 7)).toEqual([
      'pspReference',
      'merchantReference',
      'amount',
      'requestedAmount',
      'tipAmount',
      'totalAmount',
      'currency',
    ]);
    expect(sent.data).toMatchObject({ amount: '40.00', tipAmount: '6.00', totalAmount: '46.00' });
  });

  it('is rebuilt in the documented field order whatever order the stored JSON has', () => {
    const stored = {
      data: { status: 'CAPTURED', amount: '1.00', cardBrand: null },
      timestamp: 't',
      eventType: 'TEST',
      eventId: 'evt_1',
      merchantExternalId: 'm',
    };
    const sent = JSON.parse(serializeEventBody(stored).toString('utf8'));
    expect(Object.keys(sent)).toEqual(['eventId', 'eventType', 'merchantExternalId', 'timestamp', 'data']);
    expect(sent.data).toEqual({
      pspReference: null,
      merchantReference: null,
      amount: '1.00',
      currency: null,
      status: 'CAPTURED',
      cardSummary: null,
      cardBrand: null,
      paymentMethod: null,
    });
  });
});
