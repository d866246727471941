import crypto from 'node:crypto';
import { HttpAcquirer } from '../../src/acquirer/httpAdapter';
import { startTestStack, type TestStack } from '../support/stack';
import { call, expectErrorShape } from '../support/http';
import { openShop, paymentAction, sim, type Shop } from '../payments/helpers';
import { capturedPayment, closeBatch, settlementsApi, userOf } from './helpers';

/** Settlement (docs/settlement.md) on the real stack: close, reconcile, settle, totals, lines, list and read, roles. */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.stop();
});

const settledEvents = (paymentId: string) => stack.db.webhookEvent.findMany({ where: { paymentId, eventType: 'PAYMENT_SETTLED' } });

describe('closing a batch', () => {
  let shop: Shop;
  let finance: string;
  beforeAll(async () => {
    shop = await openShop(stack);
    finance = await userOf(stack, shop, ['FINANCE']);
  });

  it('reconciles with the report: settled, missing, offline; totals exact; one PAYMENT_SETTLED each', async () => {
    const card = await capturedPayment(stack, shop, 100, 'CARD');
    const qr = await capturedPayment(stack, shop, 50, 'QR_CODE');
    const omitted = await capturedPayment(stack, shop, 20, 'CARD');
    expect((await sim(stack).configure(shop.deviceId, { omitFromReport: [omitted.acquirerRef] })).status).toBe(200);
    const offline = await call(stack.sandboxUrl, 'POST', `/sim/devices/${shop.deviceId}/offline-payments`, {
      body: { amount: 30, currency: 'EUR', last4: '1111' },
    });
    expect(offline.status).toBe(201);

    const res = await closeBatch(stack, finance, shop.storeExternalId);
    expect(res.status).toBe(201);
    const batch = res.body;
    expect(batch).toMatchObject({ storeExternalId: shop.storeExternalId, timezone: 'Europe/Berlin', status: 'DISCREPANCY', closedBy: expect.any(String) });
    expect(batch.date).toMatch(/^\d{4}-\d\d-\d\d$/);
    // 100 CARD (1.50) + 50 QR (0.45) + 30 offline CARD (0.52); the omitted 20 is not settled
    expect(batch.totals).toEqual([
      {
        currency: 'EUR',
        paymentCount: 3,
        grossAmount: 180,
        refundCount: 0,
        refundAmount: 0,
        feeAmount: 2.47,
        chargebackAmount: 0,
        expectedFeeAmount: 2.47,
        tipAmount: 0,
        netAmount: 177.53,
      },
    ]);
    const byType = Object.fromEntries(batch.discrepancies.map((d: any) => [d.type, d]));
    expect(byType.MISSING_FROM_REPORT).toMatchObject({
      paymentId: omitted.id,
      acquirerRef: omitted.acquirerRef,
      currency: 'EUR',
      expectedAmount: 20,
      reportedAmount: null,
    });
    expect(byType.NOT_IN_PLATFORM).toMatchObject({ acquirerRef: offline.body.acquirerRef, currency: 'EUR', expectedAmount: null, reportedAmount: 30 });
    expect(batch.discrepancies).toHaveLength(2);

    for (const p of [card, qr]) {
      const row = await stack.db.payment.findUniqueOrThrow({ where: { id: p.id } });
      expect(row.status).toBe('SETTLED');
      expect(row.settledAt).toBeInstanceOf(Date);
      const events = await settledEvents(p.id);
      expect(events).toHaveLength(1);
      const fee = p.id === card.id ? '1.50' : '0.45';
      expect((events[0]!.payload as any).data.settlement).toEqual({
        batchId: batch.id,
        date: batch.date,
        feeAmount: fee,
        netAmount: p.id === card.id ? '98.50' : '49.55',
      });
      // a settled payment cannot be voided
      expect((await paymentAction(stack, shop, p.id, 'void')).status).toBe(409);
    }
    expect((await stack.db.payment.findUniqueOrThrow({ where: { id: omitted.id } })).status).toBe('CAPTURED');

    // the offline payment: recorded settled from the report, test mode, not voidable
    const reportOnly = await stack.db.payment.findUniqueOrThrow({ where: { id: byType.NOT_IN_PLATFORM.paymentId } });
    expect(reportOnly).toMatchObject({
      origin: 'SETTLEMENT_REPORT',
      status: 'SETTLED',
      mode: 'test',
      terminalId: shop.terminalId,
      acquirerRef: offline.body.acquirerRef,
      last4: '1111',
      paymentMethod: 'CARD',
    });
    expect(reportOnly.amount.toFixed()).toBe('30');
    expect(await settledEvents(reportOnly.id)).toHaveLength(1);

    // lines: paged, and the same as CSV
    const api = settlementsApi(stack, finance);
    const page0 = await api.lines(batch.id, '?size=2');
    expect(page0.status).toBe(200);
    expect(page0.body).toMatchObject({ totalElements: 3, totalPages: 2, page: 0, size: 2 });
    const page1 = await api.lines(batch.id, '?size=2&page=1');
    const lines = [...page0.body.content, ...page1.body.content];
    expect(lines).toEqual(
      expect.arrayContaining([
        {
          type: 'PAYMENT',
          paymentId: card.id,
          pspReference: card.pspReference,
          reference: card.reference,
          amount: 100,
          feeAmount: 1.5,
          netAmount: 98.5,
          currency: 'EUR',
          occurredAt: expect.stringMatching(/Z$/),
          acquirerAccountId: null, // the installation default (docs/acquirers.md)
          expectedFeeAmount: null, // no cost contract (docs/payouts-and-fees.md)
          tipAmount: 0,
          disputeId: null,
          acquirerDisputeId: null,
        },
        expect.objectContaining({ paymentId: qr.id, amount: 50, feeAmount: 0.45, netAmount: 49.55 }),
        expect.objectContaining({ paymentId: reportOnly.id, amount: 30, feeAmount: 0.52, netAmount: 29.48 }),
      ]),
    );
    const csv = await api.csv(batch.id);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const rows = (csv.body as string).trim().split('\r\n');
    expect(rows[0]).toBe(
      'type,paymentId,pspReference,reference,amount,feeAmount,netAmount,currency,occurredAt,acquirerAccountId,expectedFeeAmount,disputeId,acquirerDisputeId,tipAmount',
    );
    expect(rows).toHaveLength(4);
    expect(rows.find((r) => r.includes(card.id))).toMatch(/^PAYMENT,[^,]+,PSP\w+,[^,]*,100,1\.5,98\.5,EUR,\d{4}-/);

    // the next close carries the payment the report left out, and settles it
    const next = await closeBatch(stack, finance, shop.storeExternalId);
    expect(next.status).toBe(201);
    expect(next.body).toMatchObject({
      status: 'SETTLED',
      discrepancies: [],
      totals: [{ currency: 'EUR', paymentCount: 1, grossAmount: 20, feeAmount: 0.38, netAmount: 19.62 }],
    });
    expect((await stack.db.payment.findUniqueOrThrow({ where: { id: omitted.id } })).status).toBe('SETTLED');
    expect(await settledEvents(omitted.id)).toHaveLength(1);

    // nothing left: 409
    expectErrorShape(await closeBatch(stack, finance, shop.storeExternalId), 409);

    // list (newest first) and read
    const list = await api.list(`?storeExternalId=${shop.storeExternalId}`);
    expect(list.status).toBe(200);
    expect(list.body.content.map((b: any) => b.id)).toEqual([next.body.id, batch.id]);
    expect((await api.read(batch.id)).body).toEqual(batch);
    const date = batch.date as string;
    expect((await api.list(`?storeExternalId=${shop.storeExternalId}&from=${date}&to=${date}`)).body.totalElements).toBe(0);
    expect((await api.list(`?storeExternalId=${shop.storeExternalId}&from=${date}`)).body.totalElements).toBe(2);
  });

  it('an unknown store is 404; a bad body is 400 naming the field', async () => {
    expectErrorShape(await closeBatch(stack, finance, 'no-such-store'), 404);
    const res = await call(stack.apiUrl, 'POST', '/api/dashboard/settlements', { token: finance, body: { storeExternalId: 5 } });
    expect(expectErrorShape(res, 400)).toContain('storeExternalId');
    const bad = await call(stack.apiUrl, 'GET', '/api/dashboard/settlements?from=yesterday', { token: finance });
    expect(expectErrorShape(bad, 400)).toContain('from');
  });
});

describe('refunds in batches', () => {
  it('a succeeded refund is settled in the next batch: refundAmount, no fee, a negative net line; never twice', async () => {
    const shop = await openShop(stack);
    const finance = await userOf(stack, shop, ['FINANCE']);
    const sale = await capturedPayment(stack, shop, 40);
    expect((await closeBatch(stack, finance, shop.storeExternalId)).status).toBe(201);
    // a refund the service made, as the refund workflow records it, and the acquirer paid it
    const refundReference = `REFUND-${sale.pspReference}-1`;
    const acquirer = new HttpAcquirer(stack.sandboxUrl);
    expect((await acquirer.refund(shop.deviceId, sale.acquirerRef!, { refundReference, amount: '15', currency: 'EUR' })).state).toBe('SUCCEEDED');
    await stack.db.refund.create({
      data: {
        id: crypto.randomUUID(),
        merchantId: shop.merchantId,
        paymentId: sale.id,
        mode: sale.mode,
        refundReference,
        amount: '15',
        currency: 'EUR',
        status: 'SUCCEEDED',
        createdBy: 'finance',
        decidedAt: new Date(),
      },
    });
    const res = await closeBatch(stack, finance, shop.storeExternalId);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'SETTLED',
      totals: [{ currency: 'EUR', paymentCount: 0, grossAmount: 0, refundCount: 1, refundAmount: 15, feeAmount: 0, netAmount: -15 }],
    });
    const lines = await settlementsApi(stack, finance).lines(res.body.id);
    expect(lines.body.content).toEqual([
      expect.objectContaining({ type: 'REFUND', paymentId: sale.id, pspReference: sale.pspReference, amount: 15, feeAmount: 0, netAmount: -15 }),
    ]);
    expect((await closeBatch(stack, finance, shop.storeExternalId)).status).toBe(409);
    // the payment was settled once, by the first batch
    expect(await settledEvents(sale.id)).toHaveLength(1);
  });
});

describe('who may settle', () => {
  it('ADMIN closes; USER and OPERATIONS 403; an API key 401; another business 404', async () => {
    const shop = await openShop(stack);
    await capturedPayment(stack, shop, 10);
    for (const roles of [['USER'], ['OPERATIONS']] as const) {
      const token = await userOf(stack, shop, [...roles]);
      expectErrorShape(await closeBatch(stack, token, shop.storeExternalId), 403);
      expectErrorShape(await settlementsApi(stack, token).list(), 403);
    }
    expectErrorShape(await call(stack.apiUrl, 'POST', '/api/dashboard/settlements', { key: shop.key, body: { storeExternalId: shop.storeExternalId } }), 401);
    expectErrorShape(await call(stack.apiUrl, 'GET', '/api/dashboard/settlements', { key: shop.key }), 401);

    const other = await openShop(stack);
    const otherAdmin = await userOf(stack, other, ['ADMIN']);
    expectErrorShape(await closeBatch(stack, otherAdmin, shop.storeExternalId), 404);

    const admin = await userOf(stack, shop, ['ADMIN']);
    const closed = await closeBatch(stack, admin, shop.storeExternalId);
    expect(closed.status).toBe(201);
    expect(closed.body.status).toBe('SETTLED');
    const api = settlementsApi(stack, otherAdmin);
    expectErrorShape(await api.read(closed.body.id), 404);
    expectErrorShape(await api.lines(closed.body.id), 404);
    expectErrorShape(await api.csv(closed.body.id), 404);
    expect((await api.list()).body.totalElements).toBe(0);
  });
});
