import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AdyenAcquirer } from '../../../src/acquirer/adyen/adapter';
import { AcquirerRejectedError, AcquirerUnreachableError, type SendBillRequest } from '../../../src/acquirer/port';

/**
 * The adapter's plumbing through the library and ADYEN_API_BASE, against a few canned answers on
 * a loopback port: Adyen's paths, the API key header, the read before a send, errors. The full
 * behaviour runs against the project's Adyen stand-in (test/support/adyenStandIn).
 */
interface Seen {
  method: string;
  url: string;
  apiKey: string | undefined;
  idempotencyKey: string | undefined;
  body: { SaleToPOIRequest?: { MessageHeader: { ServiceID: string; SaleID: string; MessageCategory: string } } } | null;
}
let server: http.Server;
let base: string;
const seen: Seen[] = [];
let answer: (s: Seen) => { status: number; body: string } = () => ({ status: 500, body: '' });

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const s: Seen = {
        method: req.method!,
        url: req.url!,
        apiKey: req.headers['x-api-key'] as string | undefined,
        idempotencyKey: req.headers['idempotency-key'] as string | undefined,
        body: raw ? JSON.parse(raw) : null,
      };
      seen.push(s);
      const a = answer(s);
      res.writeHead(a.status, { 'Content-Type': 'application/json' }).end(a.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));
beforeEach(() => (seen.length = 0));

const KEY = 'AQEtestKEYvalue9876';
const adyen = () => new AdyenAcquirer({ apiKey: KEY, environment: 'TEST', merchantAccountId: 'ShopMID', apiBase: base, timeoutMs: 2000 });
const bill: SendBillRequest = {
  deviceId: 'V400m-1',
  paymentId: 'pay_1',
  pspReference: 'PSP1',
  amount: '1.00',
  currency: 'EUR',
  modes: ['CARD'],
  timeoutSeconds: 60,
};

/** The TransactionStatusResponse "NotFound" to the read the adapter just sent. */
const notFound = (s: Seen) =>
  JSON.stringify({
    SaleToPOIResponse: {
      MessageHeader: { ...s.body!.SaleToPOIRequest!.MessageHeader, MessageType: 'Response' },
      TransactionStatusResponse: { Response: { Result: 'Failure', ErrorCondition: 'NotFound' } },
    },
  });

describe('AdyenAcquirer through the library', () => {
  it('sendBill: a status read on /sync, the PaymentRequest on /async, then a read for a Busy outcome, on Adyen paths with the key', async () => {
    answer = (s) => (s.url.endsWith('/sync') ? { status: 200, body: notFound(s) } : { status: 200, body: 'ok' });
    await expect(adyen().sendBill(bill)).resolves.toEqual({ outcome: 'ON_DEVICE', acquirerRef: 'pay_1' });
    expect(seen.map((s) => `${s.method} ${s.url} ${s.body?.SaleToPOIRequest?.MessageHeader.MessageCategory}`)).toEqual([
      'POST /v1/merchants/ShopMID/devices/V400m-1/sync TransactionStatus',
      'POST /v1/merchants/ShopMID/devices/V400m-1/async Payment',
      'POST /v1/merchants/ShopMID/devices/V400m-1/sync TransactionStatus',
    ]);
    expect(seen.every((s) => s.apiKey === KEY)).toBe(true);
  });

  it('getDevice: the cloud device API status; an unknown device is a 404 refusal', async () => {
    answer = () => ({ status: 200, body: JSON.stringify({ deviceId: 'V400m-1', status: 'OFFLINE' }) });
    await expect(adyen().getDevice('V400m-1')).resolves.toEqual({ deviceId: 'V400m-1', modes: ['CARD', 'QR_CODE'], twoStep: true, voidSupported: true });
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/v1/merchants/ShopMID/devices/V400m-1/status' });
    answer = () => ({ status: 404, body: JSON.stringify({ status: 404, errorCode: '000', message: 'Device not found', errorType: 'validation' }) });
    const err = await adyen()
      .getDevice('nope')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AcquirerRejectedError);
    expect((err as AcquirerRejectedError).status).toBe(404);
  });

  it('a 5xx or no answer is unreachable; the key is never in the message', async () => {
    answer = () => ({ status: 503, body: `{"status":503,"message":"down ${KEY}"}` });
    const err = await adyen()
      .getBillStatus('V400m-1', 'pay_1')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AcquirerUnreachableError);
    expect((err as Error).message).not.toContain(KEY);
    const gone = new AdyenAcquirer({ apiKey: KEY, environment: 'TEST', merchantAccountId: 'M', apiBase: 'http://127.0.0.1:1', timeoutMs: 1000 });
    await expect(gone.getBillStatus('V400m-1', 'pay_1')).rejects.toBeInstanceOf(AcquirerUnreachableError);
  });

  it('two-step: a read of the pre-authorisation, then the capture or cancel on Checkout paths with our reference as Idempotency-Key', async () => {
    answer = (s) => {
      if (s.url.endsWith('/sync')) return { status: 200, body: approvedRead(s) };
      const body = s.body as unknown as { reference: string; amount?: unknown };
      return {
        status: 201,
        body: JSON.stringify({
          merchantAccount: 'ShopMID',
          paymentPspReference: 'PSPOFTHEPREAUTH1',
          pspReference: 'MODIFICATION0001',
          reference: body.reference,
          status: 'received',
          ...(body.amount ? { amount: body.amount } : {}),
        }),
      };
    };
    const captured = await adyen().completeAuthorization('V400m-1', 'pay_1:preauth', { amount: '7.25', captureReference: 'CAPTURE-PSP1' });
    expect(captured).toMatchObject({ acquirerRef: 'pay_1:preauth', state: 'CAPTURED', capturedAmount: '7.25', cardBrand: 'MC', last4: '3511' });
    expect(seen[1]).toMatchObject({ method: 'POST', url: '/v72/payments/PSPOFTHEPREAUTH1/captures', apiKey: KEY, idempotencyKey: 'CAPTURE-PSP1' });
    expect(seen[1].body).toEqual({ merchantAccount: 'ShopMID', amount: { value: 725, currency: 'EUR' }, reference: 'CAPTURE-PSP1' });
    seen.length = 0;
    await expect(adyen().releaseAuthorization('V400m-1', 'pay_1:preauth')).resolves.toMatchObject({ state: 'RELEASED' });
    expect(seen[1]).toMatchObject({ url: '/v72/payments/PSPOFTHEPREAUTH1/cancels', idempotencyKey: 'RELEASE-pay_1' });
    expect(seen[1].body).toEqual({ merchantAccount: 'ShopMID', reference: 'RELEASE-pay_1' });
  });

  it("two-step: Adyen's 422 is a refusal in Adyen's words, a 500 unreachable; a LIVE account without its URL prefix is refused", async () => {
    const refusal = { status: 422, errorCode: '167', message: 'Original pspReference required for this operation', errorType: 'validation' };
    answer = (s) => (s.url.endsWith('/sync') ? { status: 200, body: approvedRead(s) } : { status: 422, body: JSON.stringify(refusal) });
    const err = await adyen()
      .completeAuthorization('V400m-1', 'pay_1:preauth', { amount: '1.00', captureReference: 'CAPTURE-PSP1' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AcquirerRejectedError);
    expect(err).toMatchObject({ status: 422, code: '167', message: expect.stringContaining('Original pspReference required for this operation') });
    answer = (s) => (s.url.endsWith('/sync') ? { status: 200, body: approvedRead(s) } : { status: 500, body: '{"status":500,"message":"oops"}' });
    await expect(adyen().releaseAuthorization('V400m-1', 'pay_1:preauth')).rejects.toBeInstanceOf(AcquirerUnreachableError);
    answer = (s) => ({ status: 200, body: approvedRead(s) });
    // At Adyen's own hosts (no ADYEN_API_BASE) a LIVE account needs its prefix: refused before any call.
    const live = new AdyenAcquirer({ apiKey: KEY, environment: 'LIVE', merchantAccountId: 'ShopMID', timeoutMs: 2000 });
    await expect(live.releaseAuthorization('V400m-1', 'pay_1:preauth')).rejects.toMatchObject({
      status: 501,
      message: expect.stringContaining('live endpoint URL prefix'),
    });
  });
});

/** The read of an approved pre-authorisation (psp PSPOFTHEPREAUTH1, 10.00 EUR), answering the read the adapter just sent. */
function approvedRead(s: Seen): string {
  const header = s.body!.SaleToPOIRequest!.MessageHeader;
  const read = s.body!.SaleToPOIRequest as unknown as { TransactionStatusRequest: { MessageReference: { SaleID: string; ServiceID: string } } };
  const original = read.TransactionStatusRequest.MessageReference;
  return JSON.stringify({
    SaleToPOIResponse: {
      MessageHeader: { ...header, MessageType: 'Response' },
      TransactionStatusResponse: {
        Response: { Result: 'Success' },
        RepeatedMessageResponse: {
          MessageHeader: { ...header, MessageCategory: 'Payment', MessageType: 'Response', SaleID: original.SaleID, ServiceID: original.ServiceID },
          RepeatedResponseMessageBody: {
            PaymentResponse: {
              POIData: { POITransactionID: { TransactionID: 'v4W5001.PSPOFTHEPREAUTH1', TimeStamp: '2026-11-26T10:00:00Z' } },
              PaymentResult: {
                AmountsResp: { AuthorizedAmount: 10, Currency: 'EUR' },
                PaymentInstrumentData: { PaymentInstrumentType: 'Card', CardData: { PaymentBrand: 'mc', MaskedPan: '541333 **** 3511' } },
              },
              Response: { Result: 'Success', AdditionalResponse: 'pspReference=PSPOFTHEPREAUTH1' },
            },
          },
        },
      },
    },
  });
}
