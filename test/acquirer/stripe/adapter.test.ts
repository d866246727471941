import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AcquirerRejectedError, AcquirerUnreachableError } from '../../../src/acquirer/port';
import { StripeAcquirer } from '../../../src/acquirer/stripe/adapter';
import { type RecordedStripeRequest, type StripeRecorder, withStripeAdapter } from '../../support/stripeMock';

/**
 * The Stripe adapter against stripe-mock, which answers from Stripe's OpenAPI description and
 * refuses (400) any request that description does not allow, and any other API version than the
 * library's (-strict-version-check). It keeps no state: each answer is Stripe's example object, so
 * these tests check that every request we send is one Stripe accepts, and that Stripe's answers
 * are read; the state mapping is tested in mapping.unit.test.ts.
 */
const stripeMock = withStripeAdapter();
let recorder: StripeRecorder;
let stripe: StripeAcquirer;
const READER = 'tmr_FDOt2wlRZEdpd7';
const PI = 'pi_3MtwBwLkdIwHu7ix28a3tqPa';
const bill = { deviceId: READER, paymentId: 'pay-1', pspReference: 'PSP-1', amount: '12.34', currency: 'EUR', reference: 'ORDER-1', timeoutSeconds: 300 };

beforeAll(() => void ({ recorder, stripe } = stripeMock));

const { asked } = stripeMock;
const posted = (path: string) => recorder.requests.filter((r) => r.method === 'POST' && r.path === path).map((r) => r.body);
/** stripe-mock keeps no state: these show Stripe's answers in the state a step needs, after it accepted the request. */
const paymentIntentIn =
  (status: string, extra: object = {}) =>
  (req: RecordedStripeRequest, body: any) =>
    req.method === 'GET' && req.path.startsWith('/v1/payment_intents/') ? { ...body, status, last_payment_error: null, ...extra } : body;

describe('the Stripe adapter against stripe-mock', () => {
  it('a payment: the reader read, a card_present PaymentIntent created and processed on it', async () => {
    expect(await stripe.getDevice(READER)).toMatchObject({ modes: ['CARD'], voidSupported: true });
    recorder.requests.length = 0;
    const placed = await stripe.sendBill({ ...bill, modes: ['CARD', 'QR_CODE'] });
    expect(placed).toEqual({ outcome: 'ON_DEVICE', acquirerRef: expect.stringMatching(/^pi_/) });
    expect(asked()).toEqual([`GET /v1/terminal/readers/${READER}`, 'POST /v1/payment_intents', `POST /v1/terminal/readers/${READER}/process_payment_intent`]);
    expect(posted('/v1/payment_intents')[0]).toMatchObject({
      amount: '1234',
      currency: 'eur',
      'payment_method_types[0]': 'card_present',
      capture_method: 'automatic',
      'metadata[isp_payment_id]': 'pay-1',
    });
    expect(posted(`/v1/terminal/readers/${READER}/process_payment_intent`)[0]).toMatchObject({
      payment_intent: expect.stringMatching(/^pi_/),
      'process_config[enable_customer_cancellation]': 'true',
    });
    // The read: the PaymentIntent (with its charge) and the reader's action. Stripe's example
    // PaymentIntent carries an API error from its last attempt, which reads as ERROR.
    const status = await stripe.getBillStatus(READER, PI);
    expect(status).toEqual({ acquirerRef: expect.stringMatching(/^pi_/), state: 'ERROR' });
  });

  it('partial authorisation: asked on the PaymentIntent (card_present request_partial_authorization), and the approved amount read from its charge', async () => {
    recorder.requests.length = 0;
    await stripe.sendBill({ ...bill, paymentId: 'pay-partial', amount: '40.00', modes: ['CARD'], allowPartialAuthorisation: true });
    await stripe.sendBill({ ...bill, paymentId: 'pay-whole', modes: ['CARD'] });
    const [partial, whole] = posted('/v1/payment_intents');
    expect(partial).toMatchObject({ amount: '4000', 'payment_method_options[card_present][request_partial_authorization]': 'if_available' });
    expect(Object.keys(whole).filter((k) => k.startsWith('payment_method_options'))).toEqual([]);
    // stripe-mock answers its fixed example, never a partial approval: the charge is shaped as Stripe documents one (amount_authorized below the amount).
    const charge = {
      id: 'ch_partial',
      object: 'charge',
      created: 1_700_000_000,
      currency: 'eur',
      amount: 4000,
      payment_method_details: { type: 'card_present', card_present: { brand: 'visa', last4: '4242', amount_authorized: 2500 } },
    };
    recorder.answer = paymentIntentIn('succeeded', { amount: 4000, amount_received: 2500, latest_charge: charge });
    expect(await stripe.getBillStatus(READER, PI)).toMatchObject({ state: 'CAPTURED', authorizedAmount: '25.00', cardBrand: 'VISA', last4: '4242' });
    recorder.answer = null;
  });

  it("tips: asked, the reader's tipping screen on the amount (process_config.tipping.amount_eligible); else skipped; a known tip inside the amount (docs/tips.md)", async () => {
    recorder.requests.length = 0;
    await stripe.sendBill({ ...bill, paymentId: 'pay-ask', amount: '40.00', modes: ['CARD'], askTip: { percentages: [10, 15, 20], allowCustom: true } });
    await stripe.sendBill({ ...bill, paymentId: 'pay-known', amount: '40.00', modes: ['CARD'], tipAmount: '6' });
    const [ask, known] = posted(`/v1/terminal/readers/${READER}/process_payment_intent`);
    expect(ask).toMatchObject({ 'process_config[tipping][amount_eligible]': '4000' });
    expect(ask).not.toHaveProperty('process_config[skip_tipping]');
    expect(known).toMatchObject({ 'process_config[skip_tipping]': 'true' });
    const [, knownPi] = posted('/v1/payment_intents');
    expect(knownPi).toMatchObject({ amount: '4600', 'metadata[isp_tip_amount]': '6' });
  });

  it("two-step follows the terminal's configuration, not the reader's metadata", async () => {
    // A reader marked two-step in its Stripe metadata: the terminal (one-step) decides.
    recorder.answer = (req, body) => (req.path === `/v1/terminal/readers/${READER}` ? { ...body, metadata: { isp_two_step: 'true' } } : body);
    await stripe.sendBill({ ...bill, paymentId: 'pay-one-step', modes: ['CARD'], twoStep: false });
    await stripe.sendBill({ ...bill, paymentId: 'pay-two-step', modes: ['CARD'], twoStep: true });
    recorder.answer = null;
    await stripe.sendBill({ ...bill, paymentId: 'pay-two-step-2', modes: ['CARD'], twoStep: true });
    expect(posted('/v1/payment_intents').map((b) => b.capture_method)).toEqual(['automatic', 'manual', 'manual']);
  });

  it('a two-step completion: the authorised PaymentIntent captured (all or part) at stripe-mock; a release cancels it', async () => {
    recorder.answer = paymentIntentIn('requires_capture');
    await stripe.completeAuthorization(READER, PI, { amount: '5.00', captureReference: 'CAPTURE-1' });
    expect(posted(`/v1/payment_intents/${PI}/capture`)).toEqual([{ amount_to_capture: '500' }]);
    recorder.requests.length = 0;
    await stripe.releaseAuthorization(READER, PI);
    expect(posted(`/v1/payment_intents/${PI}/cancel`)).toEqual([{ cancellation_reason: 'requested_by_customer' }]);
    // What Stripe answers after the capture: succeeded, with the captured amount.
    recorder.answer = paymentIntentIn('succeeded', { amount_received: 500, currency: 'eur' });
    expect(await stripe.completeAuthorization(READER, PI, { amount: '5.00', captureReference: 'CAPTURE-1' })).toMatchObject({
      state: 'CAPTURED',
      capturedAmount: '5.00',
    });
    // Not authorised (Stripe's example as it is): read, nothing sent.
    recorder.answer = null;
    recorder.requests.length = 0;
    expect(await stripe.completeAuthorization(READER, PI, { amount: '5.00', captureReference: 'CAPTURE-2' })).toMatchObject({ state: 'ERROR' });
    expect(asked().filter((r) => r.startsWith('POST'))).toEqual([]);
  });

  it("a cancel: the reader's action cancelled, then the PaymentIntent, at stripe-mock", async () => {
    recorder.answer = (req, body) => {
      if (req.method === 'GET' && req.path === `/v1/terminal/readers/${READER}`)
        return { ...body, action: { type: 'process_payment_intent', status: 'in_progress', process_payment_intent: { payment_intent: PI } } };
      return paymentIntentIn('requires_payment_method')(req, body);
    };
    expect(await stripe.withdrawBill(READER, PI)).toMatchObject({ acquirerRef: PI });
    expect(asked().filter((r) => r.startsWith('POST'))).toEqual([`POST /v1/terminal/readers/${READER}/cancel_action`, `POST /v1/payment_intents/${PI}/cancel`]);
    expect(posted(`/v1/payment_intents/${PI}/cancel`)).toEqual([{ cancellation_reason: 'abandoned' }]);
    // A bill decided already (Stripe's example: failed) is only read.
    recorder.answer = null;
    recorder.requests.length = 0;
    expect(await stripe.withdrawBill(READER, PI)).toMatchObject({ state: 'ERROR' });
    expect(asked().filter((r) => r.startsWith('POST'))).toEqual([]);
  });

  it("a void: a full refund, then read back among the payment's refunds", async () => {
    expect(await stripe.submitVoid(READER, PI, 'VOID-PSP-1-1')).toEqual({ voidReference: 'VOID-PSP-1-1', state: 'CONFIRMED' });
    expect(posted('/v1/refunds')).toEqual([
      { payment_intent: PI, reason: 'requested_by_customer', 'metadata[isp_void_reference]': 'VOID-PSP-1-1', 'metadata[isp_device_id]': READER },
    ]);
    // Stripe's example refund carries no reference of ours: to the service, this void never arrived.
    await expect(stripe.getVoidStatus(READER, 'VOID-PSP-1-1', PI)).rejects.toMatchObject({ status: 404 });
    // One that carries it is found.
    recorder.answer = (req, body) =>
      req.method === 'GET' && req.path === '/v1/refunds'
        ? { ...body, data: body.data.map((r: object) => ({ ...r, metadata: { isp_void_reference: 'VOID-PSP-1-1' } })) }
        : body;
    expect(await stripe.getVoidStatus(READER, 'VOID-PSP-1-1', PI)).toEqual({ voidReference: 'VOID-PSP-1-1', state: 'CONFIRMED' });
    expect(recorder.requests.at(-1)).toMatchObject({ method: 'GET', path: '/v1/refunds', query: { payment_intent: PI } });
  });

  it('a refund with a stable reference, and reading it back', async () => {
    const withLookup = new StripeAcquirer({ apiKey: 'sk_test_123', apiBase: recorder.url, refundedBill: async (ref) => (ref === 'REFUND-1' ? PI : null) });
    expect(await withLookup.refund(READER, PI, { refundReference: 'REFUND-1', amount: '2.50', currency: 'EUR' })).toMatchObject({
      refundReference: 'REFUND-1',
      state: 'SUCCEEDED',
    });
    expect(posted('/v1/refunds')).toEqual([
      { payment_intent: PI, amount: '250', reason: 'requested_by_customer', 'metadata[isp_refund_reference]': 'REFUND-1', 'metadata[isp_device_id]': READER },
    ]);
    // Stripe's example refund carries no reference of ours: to the service, it never arrived (404).
    await expect(withLookup.getRefund(READER, 'REFUND-1')).rejects.toMatchObject({ status: 404 });
    await expect(withLookup.getRefund(READER, 'REFUND-unknown')).rejects.toMatchObject({ status: 404 });
  });

  it("a payout of the account's balance: Stripe's payout and every balance transaction it pays, read without a reader", async () => {
    const payout = await stripe.payouts.getPayout(null, 'po_1Balance');
    expect(payout).toEqual({
      pays: 'BALANCE',
      payoutId: expect.stringMatching(/^po_/),
      status: 'IN_TRANSIT', // stripe-mock's example payout is in_transit
      amount: '11.00',
      currency: 'USD',
      arrivalDate: '2009-02-13',
      transactions: [{ type: 'PAYMENT', net: '1.00', currency: 'USD' }],
    });
    expect(recorder.requests.find((r) => r.path === '/v1/balance_transactions' && r.query.payout === 'po_1Balance')?.query).toMatchObject({
      'expand[0]': 'data.source',
    });
  });

  it("a settlement report: balance transactions with fees, a payout's or a reader's batch", async () => {
    const report = await stripe.payoutReport();
    expect(report.payoutId).toMatch(/^po_/);
    expect(report.lines).toEqual([expect.objectContaining({ type: 'PAYMENT', amount: '1.00', feeAmount: '0.00', netAmount: '1.00', currency: 'USD' })]);
    // Stripe's example transaction names no reader: this reader's batch is empty.
    expect(await stripe.closeBatch(READER, 'BATCH-1', '2026-11-23T02:00:00Z', '2026-11-22T02:00:00Z')).toEqual({
      deviceId: READER,
      batchReference: 'BATCH-1',
      closedAt: '2026-11-23T02:00:00.000Z',
      items: [],
    });
    // One taken on this reader (its charge names it) is reported, with its fee.
    recorder.answer = (req, body) =>
      req.path === '/v1/balance_transactions'
        ? {
            ...body,
            data: body.data.map((t: any) => ({
              ...t,
              fee: 12,
              source: {
                id: 'ch_1',
                object: 'charge',
                payment_intent: PI,
                metadata: { isp_payment_id: 'pay-1' },
                payment_method_details: { card_present: { reader: READER } },
              },
            })),
          }
        : body;
    expect((await stripe.closeBatch(READER, 'BATCH-2', '2026-11-24T02:00:00Z', '2026-11-23T02:00:00Z')).items).toEqual([
      expect.objectContaining({ type: 'PAYMENT', acquirerRef: PI, paymentId: 'pay-1', amount: '1.00', feeAmount: '0.12', currency: 'USD' }),
    ]);
  });

  it("a dispute's debit and credit in a close: the disputed charge read for its reader, CHARGEBACK and CHARGEBACK_REVERSAL lines with Stripe's dispute fee", async () => {
    // stripe-mock keeps no state: the period's transactions shown as the dispute's two adjustments, its charge as taken on this reader.
    const adjustment = (t: any, amount: number, fee: number, reporting_category: string) => ({
      ...t,
      type: 'adjustment',
      reporting_category,
      amount,
      fee,
      net: amount - fee,
      source: { id: 'dp_1', object: 'dispute', charge: 'ch_disputed', payment_intent: PI, amount: 100, currency: 'usd' },
    });
    recorder.answer = (req, body) =>
      req.path === '/v1/balance_transactions'
        ? { ...body, data: [adjustment(body.data[0], -100, 1500, 'dispute'), adjustment(body.data[0], 100, 0, 'dispute_reversal')] }
        : req.path === '/v1/charges/ch_disputed'
          ? { ...body, id: 'ch_disputed', payment_intent: PI, payment_method_details: { type: 'card_present', card_present: { reader: READER } } }
          : body;
    const report = await stripe.closeBatch(READER, 'BATCH-3', '2026-11-25T02:00:00Z', '2026-11-24T02:00:00Z');
    // One read of the charge both adjustments name, and nothing Stripe would refuse.
    expect(asked()).toEqual(['GET /v1/balance_transactions', 'GET /v1/charges/ch_disputed']);
    expect(report.items).toEqual([
      expect.objectContaining({ type: 'CHARGEBACK', acquirerRef: PI, disputeId: 'dp_1', amount: '1.00', feeAmount: '15.00', currency: 'USD' }),
      expect.objectContaining({ type: 'CHARGEBACK_REVERSAL', acquirerRef: PI, disputeId: 'dp_1', amount: '1.00', feeAmount: '0.00', currency: 'USD' }),
    ]);
    // Another reader's close does not report them.
    expect((await stripe.closeBatch('tmr_other', 'BATCH-4', '2026-11-25T02:00:00Z', '2026-11-24T02:00:00Z')).items).toEqual([]);
  });

  it('a close reports exactly since the previous close: consecutive periods meet, none is read twice', async () => {
    await stripe.closeBatch(READER, 'BATCH-1', '2026-11-23T02:00:00.900Z', '2026-11-22T02:00:00.900Z');
    await stripe.closeBatch(READER, 'BATCH-2', '2026-11-24T02:00:00.100Z', '2026-11-23T02:00:00.900Z');
    const lists = recorder.requests.filter((r) => r.path === '/v1/balance_transactions').map((r) => r.query);
    const at = (iso: string) => String(Math.floor(Date.parse(iso) / 1000));
    expect(lists).toEqual([
      expect.objectContaining({ 'created[gt]': at('2026-11-22T02:00:00Z'), 'created[lte]': at('2026-11-23T02:00:00Z') }),
      expect.objectContaining({ 'created[gt]': at('2026-11-23T02:00:00Z'), 'created[lte]': at('2026-11-24T02:00:00Z') }),
    ]);
    // The same period asked again (a retried close) is the same request.
    recorder.requests.length = 0;
    await stripe.closeBatch(READER, 'BATCH-2', '2026-11-24T02:00:00.100Z', '2026-11-23T02:00:00.900Z');
    expect(recorder.requests.map((r) => r.query)).toEqual([lists[1]]);
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
