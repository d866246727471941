import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AcquirerRejectedError, AcquirerUnreachableError } from '../../../src/acquirer/port';
import { StripeAcquirer } from '../../../src/acquirer/stripe/adapter';
import { type StripeMock, startStripeMock } from '../../support/stripeMock';

/**
 * The Stripe adapter against stripe-mock, which answers from Stripe's OpenAPI description and
 * refuses (400) any request that description does not allow, and any other API version than the
 * library's (-strict-version-check). It keeps no state: each answer is Stripe's example object, so
 * these tests check that every request we send is one Stripe accepts, and that Stripe's answers
 * are read; the state mapping is tested in mapping.test.ts.
 */
let mock: StripeMock;
let stripe: StripeAcquirer;
const READER = 'tmr_FDOt2wlRZEdpd7';
const PI = 'pi_3MtwBwLkdIwHu7ix28a3tqPa';
const bill = { deviceId: READER, paymentId: 'pay-1', pspReference: 'PSP-1', amount: '12.34', currency: 'EUR', reference: 'ORDER-1', timeoutSeconds: 300 };

beforeAll(async () => {
  mock = await startStripeMock();
  stripe = new StripeAcquirer({ apiKey: 'sk_test_123', apiBase: mock.url });
}, 900_000); // the first run builds stripe-mock

afterAll(async () => {
  await mock?.stop();
});

describe('the Stripe adapter against stripe-mock', () => {
  it('a payment: the reader read, a card_present PaymentIntent created and processed on it', async () => {
    expect(await stripe.getDevice(READER)).toMatchObject({ modes: ['CARD'], voidSupported: true });
    const placed = await stripe.sendBill({ ...bill, modes: ['CARD', 'QR_CODE'] });
    expect(placed).toEqual({ outcome: 'ON_DEVICE', acquirerRef: expect.stringMatching(/^pi_/) });
    // The read: the PaymentIntent (with its charge) and the reader's action. Stripe's example
    // PaymentIntent carries an API error from its last attempt, which reads as ERROR.
    const status = await stripe.getBillStatus(READER, PI);
    expect(status).toEqual({ acquirerRef: expect.stringMatching(/^pi_/), state: 'ERROR' });
  });

  it('a QR-code bill is refused without calling Stripe', async () => {
    const offline = new StripeAcquirer({ apiKey: 'sk_test_123', apiBase: 'http://127.0.0.1:9' });
    expect(await offline.sendBill({ ...bill, modes: ['QR_CODE'] })).toEqual({ outcome: 'MODE_UNSUPPORTED', supportedModes: ['CARD'] });
  });

  it('a two-step completion and a release: capture (all or part) and cancel are requests Stripe accepts', async () => {
    // Stripe's example PaymentIntent is not authorised, so the adapter reads it and sends nothing more.
    expect(await stripe.completeAuthorization(READER, PI, { amount: '5.00', captureReference: 'CAPTURE-1' })).toMatchObject({
      acquirerRef: expect.stringMatching(/^pi_/),
      state: 'ERROR',
    });
    expect(await stripe.releaseAuthorization(READER, PI)).toMatchObject({ state: 'ERROR' });
    // An authorised one (the fake Stripe below answers requires_capture) is captured and released.
  });

  it('a cancel: withdrawing reads the bill and answers its state', async () => {
    expect(await stripe.withdrawBill(READER, PI)).toMatchObject({ state: 'ERROR' });
  });

  it("a void: a full refund, then read back among the payment's refunds", async () => {
    expect(await stripe.submitVoid(READER, PI, 'VOID-PSP-1-1')).toEqual({ voidReference: 'VOID-PSP-1-1', state: 'CONFIRMED' });
    // Stripe's example refund carries no reference of ours: to the service, this void never arrived.
    await expect(stripe.getVoidStatus(READER, 'VOID-PSP-1-1', PI)).rejects.toMatchObject({ status: 404 });
  });

  it('a refund with a stable reference, and reading it back', async () => {
    const withLookup = new StripeAcquirer({ apiKey: 'sk_test_123', apiBase: mock.url, refundedBill: async (ref) => (ref === 'REFUND-1' ? PI : null) });
    expect(await withLookup.refund(READER, PI, { refundReference: 'REFUND-1', amount: '2.50', currency: 'EUR' })).toMatchObject({
      refundReference: 'REFUND-1',
      state: 'SUCCEEDED',
    });
    // Stripe's example refund carries no reference of ours: to the service, it never arrived (404).
    await expect(withLookup.getRefund(READER, 'REFUND-1')).rejects.toMatchObject({ status: 404 });
    await expect(withLookup.getRefund(READER, 'REFUND-unknown')).rejects.toMatchObject({ status: 404 });
  });

  it("a settlement report: balance transactions with fees, a payout's or a reader's batch", async () => {
    const report = await stripe.payoutReport();
    expect(report.payoutId).toMatch(/^po_/);
    expect(report.lines).toEqual([expect.objectContaining({ type: 'PAYMENT', amount: '1.00', feeAmount: '0.00', netAmount: '1.00', currency: 'USD' })]);
    // Stripe's example transaction names no reader: this reader's batch is empty.
    expect(await stripe.closeBatch(READER, 'BATCH-1', '2026-11-23T02:00:00Z')).toEqual({
      deviceId: READER,
      batchReference: 'BATCH-1',
      closedAt: '2026-11-23T02:00:00.000Z',
      items: [],
    });
  });

  it('a request Stripe would not accept is refused, not retried', async () => {
    // An amount beyond the currency's decimals never leaves the service; a bad id reaches Stripe and is refused.
    await expect(stripe.sendBill({ ...bill, amount: '1.234', modes: ['CARD'] })).rejects.toThrow(/decimals/);
    await expect(stripe.getBillStatus(READER, '')).rejects.toBeInstanceOf(AcquirerRejectedError);
  });
});

describe('Stripe unreachable or failing', () => {
  let server: http.Server;
  let base: string;
  let answer: { status: number; body: object };
  /** Per path prefix, answers that win over `answer`. */
  let answers: Record<string, { status: number; body: object }> = {};
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const a = Object.entries(answers).find(([prefix]) => req.url!.startsWith(prefix))?.[1] ?? answer;
      res.writeHead(a.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(a.body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('no answer, a 5xx, a 429 or an offline reader are AcquirerUnreachableError (retry); a 4xx refusal is AcquirerRejectedError', async () => {
    const down = new StripeAcquirer({ apiKey: 'sk_test_123', apiBase: 'http://127.0.0.1:9' });
    await expect(down.getDevice(READER)).rejects.toBeInstanceOf(AcquirerUnreachableError);
    const s = new StripeAcquirer({ apiKey: 'sk_test_123', apiBase: base });
    answer = { status: 500, body: { error: { type: 'api_error', message: 'boom' } } };
    await expect(s.getDevice(READER)).rejects.toBeInstanceOf(AcquirerUnreachableError);
    answer = { status: 429, body: { error: { type: 'invalid_request_error', code: 'rate_limit', message: 'slow down' } } };
    await expect(s.getDevice(READER)).rejects.toBeInstanceOf(AcquirerUnreachableError);
    answer = { status: 400, body: { error: { type: 'invalid_request_error', code: 'terminal_reader_offline', message: 'Reader is offline' } } };
    await expect(s.getDevice(READER)).rejects.toBeInstanceOf(AcquirerUnreachableError);
    answer = { status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such reader' } } };
    await expect(s.getDevice(READER)).rejects.toMatchObject({ constructor: AcquirerRejectedError, status: 404, code: 'resource_missing' });
  });

  it('an authorised bill is captured, or released', async () => {
    const s = new StripeAcquirer({ apiKey: 'sk_test_123', apiBase: base });
    const seen: string[] = [];
    server.on('request', (req) => seen.push(`${req.method} ${req.url!.split('?')[0]}`));
    answers = {};
    answer = {
      status: 200,
      body: { id: PI, object: 'payment_intent', status: 'requires_capture', currency: 'eur', amount_received: 0, created: 1, metadata: {} },
    };
    await s.completeAuthorization(READER, PI, { amount: '5.00', captureReference: 'CAPTURE-1' });
    await s.releaseAuthorization(READER, PI);
    expect(seen.filter((r) => r.startsWith('POST'))).toEqual([`POST /v1/payment_intents/${PI}/capture`, `POST /v1/payment_intents/${PI}/cancel`]);
  });

  it('a reader busy with another bill is DEVICE_BUSY; a refused refund is a rejected void', async () => {
    const s = new StripeAcquirer({ apiKey: 'sk_test_123', apiBase: base });
    answers = {
      [`/v1/terminal/readers/${READER}/process_payment_intent`]: {
        status: 400,
        body: { error: { type: 'invalid_request_error', code: 'terminal_reader_busy', message: 'Reader is busy' } },
      },
      [`/v1/terminal/readers/${READER}`]: { status: 200, body: { id: READER, object: 'terminal.reader', action: null, metadata: {} } },
      '/v1/payment_intents': { status: 200, body: { id: PI, object: 'payment_intent', status: 'requires_payment_method', metadata: {} } },
    };
    expect(await s.sendBill({ ...bill, modes: ['CARD'] })).toEqual({ outcome: 'DEVICE_BUSY', currentReference: null });
    answers = {};
    answer = { status: 400, body: { error: { type: 'invalid_request_error', code: 'charge_already_refunded', message: 'Charge has already been refunded.' } } };
    expect(await s.submitVoid(READER, PI, 'VOID-1')).toMatchObject({
      voidReference: 'VOID-1',
      state: 'REJECTED',
      message: expect.stringMatching(/already been refunded/),
    });
  });
});
