import { createMerchantWithKey, uniqueId } from '../support/fixtures';
import { call, expectErrorShape } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';
import { addTerminal, createPayment, history, openShop, paymentAction, paymentBody, type Shop, sim, statusBecomes, workflowHandle } from './helpers';

/**
 * POST /api/in-store/payments against the real stack (docs/payments.md): the bill on
 * the device, bad input writing nothing, idempotency and one open bill per terminal under
 * concurrency, key modes, and an acquirer that does not answer.
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ PAYMENT_PLACEMENT_WAIT_SECONDS: '2' });
});
afterAll(async () => {
  await stack?.stop();
});

const UUID = expect.stringMatching(/^[0-9a-f-]{36}$/);
const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
const paymentsOf = (shop: Shop) => stack.db.payment.count({ where: { merchantId: shop.merchantId } });
const billOn = async (shop: Shop) => (await sim(stack).device(shop.deviceId)).body.currentBill;

describe('creating a payment', () => {
  it('puts the bill on the device and answers 201 AWAITING_TERMINAL with the payment record', async () => {
    const shop = await openShop(stack);
    const res = await createPayment(stack, shop, { amount: 12.5, reference: 'order-1', sequenceNumber: 2, cashierId: 'c-7', customerEmail: 'a@example.com' });
    expect(res.status).toBe(201);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
    expect(res.body).toEqual({
      id: UUID,
      pspReference: expect.stringMatching(/^PSP[0-9A-Z]{16}$/),
      status: 'AWAITING_TERMINAL',
      amount: 12.5,
      requestedAmount: 12.5,
      allowPartialAuthorisation: false,
      tipAmount: 0,
      totalAmount: 12.5,
      tipAsked: false,
      currency: 'EUR',
      reference: 'order-1',
      sequenceNumber: 2,
      billId: null,
      storeExternalId: shop.storeExternalId,
      terminalExternalId: shop.terminalExternalId,
      paymentMethod: 'CARD',
      cardBrand: null,
      last4: null,
      previousStatus: null,
      reason: null,
      refusalReason: null,
      createdAt: ISO,
      updatedAt: ISO,
      capturedAt: null,
      capturedAmount: null,
      refundedAmount: 0,
      settledAt: null,
      mode: 'live',
      origin: 'PLATFORM',
      cashierId: 'c-7',
      customerMobile: null,
      customerEmail: 'a@example.com',
      acquirerAccountId: null, // no acquirer accounts: the installation default (docs/acquirers.md)
      acquirerName: 'sandbox',
      routeRule: 'installation',
      disputeStatus: null,
      // expectedFee: for the roles that read cost contracts only, never for an API key (issue 37)
    });
    expect(await billOn(shop)).toMatchObject({ amount: '12.5', currency: 'EUR', reference: 'order-1', status: 'WAITING', modes: ['CARD', 'QR_CODE'] });
    // Built from the placement's answer, not read again: exactly the record as the row now stands (updatedAt included).
    expect((await call(stack.apiUrl, 'GET', `/api/transactions/${res.body.id}`, { key: shop.key })).body).toEqual(res.body);
    const entries = await history(stack, res.body.id);
    expect(entries).toMatchObject([{ sequence: 1, status: 'AWAITING_TERMINAL', previousStatus: 'CREATED', source: 'API' }]);
    const row = await stack.db.payment.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row).toMatchObject({ mode: 'live', workflowId: `payment-${res.body.id}`, cashierId: 'c-7', customerEmail: 'a@example.com', origin: 'PLATFORM' });
    // Operators find it in the Web UI by its search attributes.
    const described = await workflowHandle(stack, res.body.id).describe();
    const attrs = Object.fromEntries(described.typedSearchAttributes.getAll().map((p) => [p.key.name, p.value]));
    expect(attrs).toMatchObject({
      MerchantExternalId: shop.merchantExternalId,
      StoreExternalId: shop.storeExternalId,
      TerminalExternalId: shop.terminalExternalId,
      PaymentReference: 'order-1',
      PspReference: res.body.pspReference,
      PaymentStatus: 'AWAITING_TERMINAL',
    });
  });

  it('records a single requested mode as the tender from the start; an open choice starts as CARD and is corrected after payment', async () => {
    const qrShop = await openShop(stack);
    const qr = await createPayment(stack, qrShop, { requestedModes: ['QR_CODE'] });
    expect(qr.body).toMatchObject({ status: 'AWAITING_TERMINAL', paymentMethod: 'QR_CODE' });
    expect(await billOn(qrShop)).toMatchObject({ modes: ['QR_CODE'] });

    const shop = await openShop(stack);
    const open = await createPayment(stack, shop);
    expect(open.body.paymentMethod).toBe('CARD');
    await sim(stack).customer(shop.deviceId, { action: 'pay', mode: 'QR_CODE' });
    const paid = await statusBecomes(stack, open.body.id, 'CAPTURED');
    expect(paid.paymentMethod).toBe('QR_CODE');
  });

  it('accepts the amount with the currency minor digits (JPY whole numbers), a lower-case currency and a decimal timeout', async () => {
    const shop = await openShop(stack);
    const res = await createPayment(stack, shop, { amount: 1500, currency: 'jpy', terminalTimeoutMinutes: 2.5 });
    expect(res.body).toMatchObject({ status: 'AWAITING_TERMINAL', amount: 1500, currency: 'JPY' });
    const row = await stack.db.payment.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row.terminalTimeoutMinutes.toFixed()).toBe('2.5');
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(150_000 + stack.config.EXPIRY_GRACE_SECONDS * 1000);
  });
});

describe('bad input: 4xx naming the field, no bill on the device, nothing written', () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['amount zero', { amount: 0 }, /^amount: must be greater than 0/],
    ['amount negative', { amount: -5 }, /^amount: must be greater than 0/],
    ['amount with too many decimals', { amount: 12.345 }, /^amount: must have at most 2 decimal places for EUR/],
    ['JPY amount with decimals', { amount: 10.5, currency: 'JPY' }, /^amount: must be a whole number for JPY/],
    ['amount as a string', { amount: '12.50' }, /^amount: /],
    ['unknown currency', { currency: 'XXX' }, /^currency: must be one of the supported currencies/],
    ['missing store', { storeExternalId: undefined }, /^storeExternalId: /],
    ['unknown field', { gratuity: 1 }, /gratuity/],
    ['empty requestedModes', { requestedModes: [] }, /^requestedModes: must name at least one mode/],
    ['unknown mode', { requestedModes: ['CASH'] }, /^requestedModes\[0\]: must be CARD or QR_CODE/],
    ['repeated mode', { requestedModes: ['CARD', 'CARD'] }, /^requestedModes: must not name a mode twice/],
    ['timeout below the minimum', { terminalTimeoutMinutes: 0.5 }, /^terminalTimeoutMinutes: must be between 1 and 60 minutes/],
    ['timeout above the maximum', { terminalTimeoutMinutes: 61 }, /^terminalTimeoutMinutes: must be between 1 and 60 minutes/],
    ['timeout zero', { terminalTimeoutMinutes: 0 }, /^terminalTimeoutMinutes: must be greater than 0/],
    ['sequenceNumber zero', { sequenceNumber: 0 }, /^sequenceNumber: must be a positive integer/],
    ['sequenceNumber with decimals', { sequenceNumber: 1.5 }, /^sequenceNumber: must be a positive integer/],
    ['bad customer email', { customerEmail: 'nope' }, /^customerEmail: must be an email address/],
  ];
  let shop: Shop;
  beforeAll(async () => {
    shop = await openShop(stack);
  });

  it.each(cases)('%s -> 400', async (_name, over, message) => {
    const body = paymentBody(shop, over);
    for (const [k, v] of Object.entries(over)) if (v === undefined) delete body[k];
    const res = await call(stack.apiUrl, 'POST', '/api/in-store/payments', { key: shop.key, body });
    expect(expectErrorShape(res, 400)).toMatch(message);
    expect(await billOn(shop)).toBeNull();
    expect(await paymentsOf(shop)).toBe(0);
  });

  it('another business, an unknown or foreign store or terminal -> 404; a terminal of another store -> 404', async () => {
    const other = await openShop(stack);
    const secondStore = await stack.db.store.create({
      data: { merchantId: shop.merchantId, externalId: uniqueId('store'), name: 'Other', country: 'DE', timezone: 'Europe/Berlin' },
    });
    const cases: [Record<string, unknown>, string][] = [
      [{ merchantExternalId: other.merchantExternalId }, 'merchant not found'],
      [{ storeExternalId: 'no-such-store' }, 'store not found'],
      [{ storeExternalId: other.storeExternalId }, 'store not found'],
      [{ terminalExternalId: 'no-such-terminal' }, 'terminal not found'],
      [{ terminalExternalId: other.terminalExternalId }, 'terminal not found'],
      [{ storeExternalId: secondStore.externalId }, 'terminal not found'],
    ];
    for (const [over, message] of cases) {
      const res = await createPayment(stack, shop, over);
      expect(expectErrorShape(res, 404)).toBe(message);
    }
    expect(await paymentsOf(shop)).toBe(0);
    expect(await billOn(shop)).toBeNull();
    expect(await billOn(other)).toBeNull();
  });

  it('a terminal whose device link is not configured -> 409', async () => {
    const unlinked = await openShop(stack);
    await stack.db.terminal.update({ where: { id: unlinked.terminalId }, data: { deviceId: null, linkedAt: null } });
    const res = await createPayment(stack, unlinked);
    expect(expectErrorShape(res, 409)).toMatch(/not ready/);
    expect(await paymentsOf(unlinked)).toBe(0);
  });

  it('a mode the device does not offer -> 400 naming requestedModes and the modes it offers', async () => {
    const cardOnly = await openShop(stack, { device: { modes: ['CARD'] } });
    const res = await createPayment(stack, cardOnly, { requestedModes: ['QR_CODE'] });
    expect(expectErrorShape(res, 400)).toMatch(/^requestedModes: .*does not offer QR_CODE; it offers CARD$/);
    expect(await paymentsOf(cardOnly)).toBe(0);
    expect(await billOn(cardOnly)).toBeNull();
    // Several modes, one of them offered: still refused (no silent fallback to another tender).
    expect((await createPayment(stack, cardOnly, { requestedModes: ['CARD', 'QR_CODE'] })).status).toBe(400);
    expect((await createPayment(stack, cardOnly, { requestedModes: ['CARD'] })).body.status).toBe('AWAITING_TERMINAL');
  });
});

describe('inactive store or terminal', () => {
  it.each(['store', 'terminal'])('an inactive %s -> 201 REFUSED with a refusalReason saying which; nothing sent to the device', async (which) => {
    const shop = await openShop(stack);
    if (which === 'store') await stack.db.store.update({ where: { id: shop.storeId }, data: { status: 'INACTIVE' } });
    else await stack.db.terminal.update({ where: { id: shop.terminalId }, data: { status: 'INACTIVE' } });
    const res = await createPayment(stack, shop);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'REFUSED',
      refusalReason: `${which} ${which === 'store' ? shop.storeExternalId : shop.terminalExternalId} is inactive`,
    });
    expect(await billOn(shop)).toBeNull();
    expect(await history(stack, res.body.id)).toMatchObject([{ sequence: 1, status: 'REFUSED', previousStatus: null, source: 'API' }]);
    // A refused payment is decided: sync answers it as it stands, cancel is 409.
    expect((await paymentAction(stack, shop, res.body.id, 'sync-status')).body.status).toBe('REFUSED');
    expectErrorShape(await paymentAction(stack, shop, res.body.id, 'cancel'), 409);
  });
});

describe('idempotency by reference', () => {
  it('a repeat with the reference of an open payment returns it (201, Idempotent-Replayed); after it is final the reference starts a new bill', async () => {
    const shop = await openShop(stack);
    const first = await createPayment(stack, shop, { reference: 'bill-42' });
    const again = await createPayment(stack, shop, { reference: 'bill-42', amount: 99 });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await paymentsOf(shop)).toBe(1);

    expect((await paymentAction(stack, shop, first.body.id, 'cancel')).body.status).toBe('CANCELLED');
    const fresh = await createPayment(stack, shop, { reference: 'bill-42' });
    expect(fresh.body).toMatchObject({ status: 'AWAITING_TERMINAL', reference: 'bill-42' });
    expect(fresh.body.id).not.toBe(first.body.id);
  });

  it('each reference and sequenceNumber pair has its own guarantee', async () => {
    const shop = await openShop(stack);
    const second = await addTerminal(stack, shop);
    const one = await createPayment(stack, shop, { reference: 'split', sequenceNumber: 1 });
    const two = await createPayment(stack, second, { reference: 'split', sequenceNumber: 2 });
    expect([one.body.status, two.body.status]).toEqual(['AWAITING_TERMINAL', 'AWAITING_TERMINAL']);
    expect(two.body.id).not.toBe(one.body.id);
    expect((await createPayment(stack, second, { reference: 'split', sequenceNumber: 1 })).body.id).toBe(one.body.id);
  });

  it('five identical concurrent creates make one payment', async () => {
    const shop = await openShop(stack);
    const body = { reference: uniqueId('same') };
    const results = await Promise.all(Array.from({ length: 5 }, () => createPayment(stack, shop, body)));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(results.map((r) => r.body.status)).toEqual(Array(5).fill('AWAITING_TERMINAL'));
    expect(results.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(4);
    expect(await paymentsOf(shop)).toBe(1);
    expect(await history(stack, results[0]!.body.id)).toHaveLength(1);
  });

  it('a payment made with a test key is invisible to a live key of the same business, and the reverse', async () => {
    const shop = await openShop(stack, { mode: 'test' });
    const created = await createPayment(stack, shop);
    expect(created.body.status).toBe('AWAITING_TERMINAL');
    expect((await stack.db.payment.findUniqueOrThrow({ where: { id: created.body.id } })).mode).toBe('test');
    const live = await createMerchantWithKey(stack.db);
    await stack.db.apiKey.update({ where: { id: live.apiKey.id }, data: { merchantId: shop.merchantId } });
    for (const action of ['sync-status', 'cancel', 'void'] as const) {
      expectErrorShape(await call(stack.apiUrl, 'POST', `/api/in-store/payments/${created.body.id}/${action}`, { key: live.key }), 404);
    }
  });
});

describe('one open bill per terminal', () => {
  it('a second payment with a different reference while one is open -> 201 REFUSED; the first stays on the device', async () => {
    const shop = await openShop(stack);
    const first = await createPayment(stack, shop, { reference: 'first' });
    const second = await createPayment(stack, shop, { reference: 'second' });
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({ status: 'REFUSED', refusalReason: `another bill (reference first) is open on terminal ${shop.terminalExternalId}` });
    expect(await billOn(shop)).toMatchObject({ reference: 'first' });
    expect((await stack.db.payment.findUniqueOrThrow({ where: { id: first.body.id } })).status).toBe('AWAITING_TERMINAL');
  });

  it('holds under concurrency: of five different bills at once, one reaches the device and four are refused', async () => {
    const shop = await openShop(stack);
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => createPayment(stack, shop, { reference: `race-${i}` })));
    expect(results.map((r) => r.status)).toEqual(Array(5).fill(201));
    const statuses = results.map((r) => r.body.status).sort();
    expect(statuses).toEqual(['AWAITING_TERMINAL', 'REFUSED', 'REFUSED', 'REFUSED', 'REFUSED']);
    const winner = results.find((r) => r.body.status === 'AWAITING_TERMINAL')!;
    expect(await billOn(shop)).toMatchObject({ reference: winner.body.reference });
  });

  it('a bill the service does not know on the device (the acquirer answers DEVICE_BUSY) -> 201 REFUSED', async () => {
    const shop = await openShop(stack);
    const foreign = await call(stack.sandboxUrl, 'POST', `/acquirer/v1/devices/${shop.deviceId}/bills`, {
      body: { paymentId: 'elsewhere', pspReference: 'X1', amount: '1.00', currency: 'EUR', reference: 'not-ours', modes: ['CARD'], timeoutSeconds: 60 },
    });
    expect(foreign.status).toBe(201);
    const res = await createPayment(stack, shop);
    expect(res.body).toMatchObject({ status: 'REFUSED', refusalReason: `another bill (reference not-ours) is on terminal ${shop.terminalExternalId}` });
    expect(await history(stack, res.body.id)).toMatchObject([{ status: 'REFUSED', previousStatus: 'CREATED', source: 'API' }]);
    // The terminal is not wedged: once that bill is gone, the next payment goes through.
    await sim(stack).customer(shop.deviceId, { action: 'cancel' });
    expect((await createPayment(stack, shop)).body.status).toBe('AWAITING_TERMINAL');
  });
});

describe('an acquirer that does not answer at creation', () => {
  it('answers 503 and keeps the payment open; a retry with the same reference returns it once the bill is on the device', async () => {
    const shop = await openShop(stack, { device: { reachable: false } });
    const reference = uniqueId('retry');
    const first = await createPayment(stack, shop, { reference });
    expect(expectErrorShape(first, 503)).toMatch(/retry with the same reference/);
    expect(first.headers.get('retry-after')).toBe('2');
    const open = await stack.db.payment.findFirstOrThrow({ where: { merchantId: shop.merchantId, reference } });
    expect(open.status).toBe('CREATED');

    await sim(stack).configure(shop.deviceId, { reachable: true });
    const retry = await createPayment(stack, shop, { reference });
    expect(retry.status).toBe(201);
    expect(retry.body).toMatchObject({ id: open.id, status: 'AWAITING_TERMINAL' });
    expect(await billOn(shop)).toMatchObject({ reference });
    expect(await paymentsOf(shop)).toBe(1);
  });

  it('with requestedModes, the device check gets no answer: 503 and nothing written', async () => {
    const shop = await openShop(stack, { device: { reachable: false } });
    const res = await createPayment(stack, shop, { requestedModes: ['CARD'] });
    expect(expectErrorShape(res, 503)).toMatch(/nothing was created/);
    expect(await paymentsOf(shop)).toBe(0);
  });
});
