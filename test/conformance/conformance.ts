import { call, expectErrorShape } from '../support/http';
import type { TestStack } from '../support/stack';
import { createPayment, paymentAction, statusBecomes, type Shop } from '../payments/helpers';
import { closeBatch, settlementsApi } from '../settlement/helpers';

/**
 * One behaviour for every acquirer (issue 25): the same payment, two-step, refund and settlement
 * cases, through the real API, worker and workflows, run for each adapter against its acquirer
 * (the sandbox over HTTP, Adyen's stand-in). An acquirer joins by giving an AcquirerUnderTest.
 */
export type CustomerAction = 'pay' | 'decline' | 'cancel';

export interface AcquirerUnderTest {
  stack: TestStack;
  /** A signed-in FINANCE user of the business, to refund and close batches. */
  finance: string;
  /** A store of its own with one terminal on a fresh device, whose payments go to the acquirer under test. */
  till(opts?: { twoStep?: boolean }): Promise<Shop>;
  /** The customer at the device acts on the bill waiting there. */
  customer(shop: Shop, action: CustomerAction): Promise<void>;
  /** The device (and the acquirer's cloud for it) answers nothing while on. */
  unreachable(shop: Shop, on: boolean): Promise<void>;
  /** What the acquirer holds for a payment: its approved captures and the amounts it sent back. */
  moneyAt(shop: Shop, paymentId: string): Promise<{ captures: number; reversed: number[] }>;
  /** How long after a booking the acquirer's report can carry it (Adyen's reports book by the whole second). */
  reportDelayMs?: number;
}

/** The acquirer under test's stack: AUTHORIZATION_WINDOW_MINUTES as the expiry case below expects. */
export const CONFORMANCE_ENV = { AUTHORIZATION_WINDOW_MINUTES: '0.2' };
const WINDOW_MS = 12_000;

export function conformanceSuite(start: () => Promise<AcquirerUnderTest>, stop: () => Promise<void>): void {
  let a: AcquirerUnderTest;
  beforeAll(async () => {
    a = await start();
  }, 120_000);
  afterAll(stop);

  const open = async (shop: Shop, amount: number, over: Record<string, unknown> = {}) => {
    const created = await createPayment(a.stack, shop, { amount, ...over });
    expect([created.status, created.body.status]).toEqual([201, 'AWAITING_TERMINAL']);
    return created.body.id as string;
  };
  const paid = async (amount: number, opts: { twoStep?: boolean } = {}) => {
    const shop = await a.till(opts);
    const id = await open(shop, amount);
    await a.customer(shop, 'pay');
    await statusBecomes(a.stack, id, opts.twoStep ? 'AUTHORIZED' : 'CAPTURED');
    return { shop, id };
  };
  const refund = (id: string, amount: number) => call(a.stack.apiUrl, 'POST', `/api/dashboard/payments/${id}/refunds`, { token: a.finance, body: { amount } });
  const readPayment = (_a: TestStack, shop: Shop, id: string) => call(a.stack.apiUrl, 'GET', `/api/transactions/${id}`, { key: shop.key });
  const capture = (shop: Shop, id: string, body?: unknown) =>
    call(a.stack.apiUrl, 'POST', `/api/in-store/payments/${id}/capture`, { key: shop.key, ...(body === undefined ? {} : { body }) });

  describe('a sale', () => {
    it('paid at the terminal: CAPTURED with the captured amount, the card and one capture at the acquirer', async () => {
      const { shop, id } = await paid(12.5);
      const read = await readPayment(a.stack, shop, id);
      expect(read.body).toMatchObject({ status: 'CAPTURED', capturedAmount: 12.5, paymentMethod: 'CARD' });
      expect(read.body.last4).toMatch(/^\d{4}$/);
      expect(await a.moneyAt(shop, id)).toEqual({ captures: 1, reversed: [] });
    });

    it('declined by the customer: REFUSED with a reason, nothing taken', async () => {
      const shop = await a.till();
      const id = await open(shop, 8);
      await a.customer(shop, 'decline');
      expect((await statusBecomes(a.stack, id, 'REFUSED')).refusalReason).toEqual(expect.any(String));
      expect((await a.moneyAt(shop, id)).captures).toBe(0);
    });

    it('cancelled by the customer at the terminal: CANCELLED, nothing taken', async () => {
      const shop = await a.till();
      const id = await open(shop, 9);
      await a.customer(shop, 'cancel');
      await statusBecomes(a.stack, id, 'CANCELLED');
      expect((await a.moneyAt(shop, id)).captures).toBe(0);
    });

    it('cancelled from the till while it waits: 200 CANCELLED, and the customer can no longer pay it', async () => {
      const shop = await a.till();
      const id = await open(shop, 7);
      const cancelled = await paymentAction(a.stack, shop, id, 'cancel');
      expect([cancelled.status, cancelled.body.status]).toEqual([200, 'CANCELLED']);
      await a.customer(shop, 'pay').catch(() => undefined);
      expect((await readPayment(a.stack, shop, id)).body.status).toBe('CANCELLED');
      expect((await a.moneyAt(shop, id)).captures).toBe(0);
    });

    it('an unreachable device: 503 naming the retry, then the same reference makes one payment', async () => {
      const shop = await a.till();
      const reference = `conformance-${shop.deviceId}`;
      await a.unreachable(shop, true);
      const first = await createPayment(a.stack, shop, { amount: 4, reference });
      expect(expectErrorShape(first, 503)).toMatch(/retry with the same reference/);
      await a.unreachable(shop, false);
      const retry = await createPayment(a.stack, shop, { amount: 4, reference });
      expect(retry.status).toBe(201);
      await a.customer(shop, 'pay');
      await statusBecomes(a.stack, retry.body.id, 'CAPTURED');
      expect(await a.moneyAt(shop, retry.body.id)).toEqual({ captures: 1, reversed: [] });
    });
  });

  describe('after the sale', () => {
    it('a void: CANCELLED from CAPTURED, the whole amount back once', async () => {
      const { shop, id } = await paid(20);
      expect((await paymentAction(a.stack, shop, id, 'void')).status).toBe(200);
      await statusBecomes(a.stack, id, 'CANCELLED');
      expect((await readPayment(a.stack, shop, id)).body).toMatchObject({ status: 'CANCELLED', previousStatus: 'CAPTURED' });
      expect((await a.moneyAt(shop, id)).reversed).toEqual([20]);
    });

    it('refunds: part, then the rest; PARTIALLY_REFUNDED then REFUNDED; more than is left is 409 and changes nothing', async () => {
      const { shop, id } = await paid(30);
      expect((await refund(id, 12.5)).status).toBe(201);
      expect((await statusBecomes(a.stack, id, 'PARTIALLY_REFUNDED')).refundedAmount.toString()).toBe('12.5');
      expect(expectErrorShape(await refund(id, 17.51), 409)).toMatch(/17.5/);
      expect((await refund(id, 17.5)).status).toBe(201);
      await statusBecomes(a.stack, id, 'REFUNDED');
      expect((await a.moneyAt(shop, id)).reversed).toEqual([12.5, 17.5]);
    });
  });

  describe('two-step', () => {
    it('authorised at the terminal, completed in part: CAPTURED with the captured amount', async () => {
      const { shop, id } = await paid(40, { twoStep: true });
      const done = await capture(shop, id, { amount: 25 });
      expect([done.status, done.body.status, done.body.capturedAmount]).toEqual([200, 'CAPTURED', 25]);
      expect((await capture(shop, id)).status).toBe(409);
    });

    it('a completed authorisation can be refunded', async () => {
      const { shop, id } = await paid(15, { twoStep: true });
      expect((await capture(shop, id)).body.status).toBe('CAPTURED');
      expect((await refund(id, 15)).status).toBe(201);
      await statusBecomes(a.stack, id, 'REFUNDED');
    });

    it('released from the till: CANCELLED, nothing captured', async () => {
      const { shop, id } = await paid(18, { twoStep: true });
      const released = await paymentAction(a.stack, shop, id, 'cancel');
      expect([released.status, released.body.status]).toEqual([200, 'CANCELLED']);
      expect((await capture(shop, id)).status).toBe(409);
    });

    it('nobody completes it: the service releases the hold at the end of the window', async () => {
      const { id } = await paid(11, { twoStep: true });
      expect(await statusBecomes(a.stack, id, 'CANCELLED', WINDOW_MS + 30_000)).toMatchObject({
        reason: 'AUTHORIZATION_EXPIRED',
        previousStatus: 'AUTHORIZED',
      });
    });
  });

  describe('settlement', () => {
    it("a close reports the store's payments and refunds with their fees; the next close reports none of them again", async () => {
      const shop = await a.till();
      const ids: string[] = [];
      for (const amount of [10, 25.5]) {
        const id = await open(shop, amount);
        await a.customer(shop, 'pay');
        await statusBecomes(a.stack, id, 'CAPTURED');
        ids.push(id);
      }
      expect((await refund(ids[1]!, 5.5)).status).toBe(201);
      await statusBecomes(a.stack, ids[1]!, 'PARTIALLY_REFUNDED');
      await new Promise((r) => setTimeout(r, a.reportDelayMs ?? 0));
      const closed = await closeBatch(a.stack, a.finance, shop.storeExternalId);
      expect(closed.status).toBe(201);
      expect(closed.body.discrepancies).toEqual([]);
      expect(closed.body.totals).toEqual([expect.objectContaining({ currency: 'EUR', paymentCount: 2, grossAmount: 35.5, refundCount: 1, refundAmount: 5.5 })]);
      const totals = closed.body.totals[0];
      expect(totals.netAmount).toBeCloseTo(35.5 - 5.5 - totals.feeAmount, 2);
      const lines = (await settlementsApi(a.stack, a.finance).lines(closed.body.id, '?size=50')).body.content as {
        type: string;
        paymentId: string;
        amount: number;
      }[];
      expect(lines.map((l) => `${l.type} ${l.amount}`).sort()).toEqual(['PAYMENT 10', 'PAYMENT 25.5', 'REFUND 5.5']);
      expect(new Set(lines.map((l) => l.paymentId))).toEqual(new Set(ids));
      expect((await closeBatch(a.stack, a.finance, shop.storeExternalId)).status).toBe(409);
    });
  });
}
