import { withInFlightRetry } from '../../src/payments/workflowCalls';
import { syncStatusUpdate } from '../../core/payment/messages';
import { expectErrorShape } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';
import { createPayment, eventually, history, openShop, paymentAction, sim, statusBecomes, workflowHandle } from './helpers';

/**
 * Every row of the transition table (docs/payments.md, "States and transitions") after creation, on the real stack. `stack` hears the
 * sandbox's notifications (outcomes arrive within about a second without polling); `quiet` does
 * not (its notification URL goes nowhere), so outcomes there are only noticed by sync-status,
 * cancel, or the workflow's own expiry.
 */
const TIMING = {
  TERMINAL_TIMEOUT_MIN_MINUTES: '0.02',
  EXPIRY_GRACE_SECONDS: '1',
  VOID_WINDOW_MINUTES: '0.05',
  PAYMENT_PLACEMENT_WAIT_SECONDS: '3',
  // The sweep would race the workflow's own expiry (and record its reads as SWEEP); it has its own tests.
  SWEEP_INTERVAL_SECONDS: '3600',
};
let stack: TestStack;
let quiet: TestStack;
beforeAll(async () => {
  [stack, quiet] = await Promise.all([startTestStack(TIMING), startTestStack({ ...TIMING, SANDBOX_NOTIFY_URL: 'http://127.0.0.1:9/nowhere' })]);
});
afterAll(async () => {
  await Promise.all([stack?.stop(), quiet?.stop()]);
});

const events = (s: TestStack, paymentId: string) => s.db.webhookEvent.findMany({ where: { paymentId }, orderBy: { createdAt: 'asc' } });
const eventTypes = async (s: TestStack, paymentId: string) => (await events(s, paymentId)).map((e) => e.eventType);

describe('outcomes at the terminal, noticed through the acquirer notification', () => {
  it('customer pays -> CAPTURED with card details and one PAYMENT_CAPTURED event; sync-status then answers from the database', async () => {
    const shop = await openShop(stack);
    const { body: created } = await createPayment(stack, shop);
    await sim(stack).customer(shop.deviceId, { action: 'pay', cardBrand: 'MASTERCARD', last4: '5454' });
    const paid = await statusBecomes(stack, created.id, 'CAPTURED');
    expect(paid).toMatchObject({ cardBrand: 'MASTERCARD', last4: '5454', paymentMethod: 'CARD' });
    expect(paid.capturedAt).toBeInstanceOf(Date);
    expect(await history(stack, created.id)).toMatchObject([
      { sequence: 1, status: 'AWAITING_TERMINAL' },
      { sequence: 2, status: 'CAPTURED', previousStatus: 'AWAITING_TERMINAL', source: 'TERMINAL' },
    ]);
    await eventually(async () => ((await eventTypes(stack, created.id)).length === 1 ? true : undefined));
    expect(await eventTypes(stack, created.id)).toEqual(['PAYMENT_CAPTURED']);

    // Final states never change, and polling them touches neither workflow nor acquirer.
    await sim(stack).configure(shop.deviceId, { reachable: false });
    // Measured once the event's publishing activity (scheduled by the capture's task: docs/webhooks.md,
    // "Only what the payment decided") has completed and its completion was handled: the history at rest.
    const length = await eventually(async () => {
      const seen = (await workflowHandle(stack, created.id).fetchHistory()).events!;
      const published = seen.some((e) => e.activityTaskCompletedEventAttributes);
      return published && seen.at(-1)?.workflowTaskCompletedEventAttributes ? seen.length : undefined;
    });
    for (let i = 0; i < 3; i++) {
      const synced = await paymentAction(stack, shop, created.id, 'sync-status');
      expect(synced.status).toBe(200);
      expect(synced.body).toMatchObject({ status: 'CAPTURED', cardBrand: 'MASTERCARD', last4: '5454', updatedAt: paid.updatedAt.toISOString() });
    }
    expect(await history(stack, created.id)).toHaveLength(2);
    expect((await workflowHandle(stack, created.id).fetchHistory()).events!.length).toBe(length);
  });

  it('pay on a two-step terminal -> AUTHORIZED with PAYMENT_AUTHORIZED; the device is free for the next bill while the hold stands', async () => {
    const shop = await openShop(stack, { device: { twoStep: true }, twoStep: true });
    const { body: created } = await createPayment(stack, shop);
    await sim(stack).customer(shop.deviceId, { action: 'pay' });
    const authorized = await statusBecomes(stack, created.id, 'AUTHORIZED');
    expect(authorized).toMatchObject({ cardBrand: 'VISA', last4: '4242' });
    await eventually(async () => ((await eventTypes(stack, created.id)).includes('PAYMENT_AUTHORIZED') ? true : undefined));
    expect((await paymentAction(stack, shop, created.id, 'sync-status')).body.status).toBe('AUTHORIZED');
    expect((await createPayment(stack, shop)).body.status).toBe('AWAITING_TERMINAL');
  });

  it('customer declines -> REFUSED with PAYMENT_REFUSED', async () => {
    const shop = await openShop(stack);
    const { body: created } = await createPayment(stack, shop);
    await sim(stack).customer(shop.deviceId, { action: 'decline' });
    expect(await statusBecomes(stack, created.id, 'REFUSED')).toMatchObject({ refusalReason: 'declined at the terminal' });
    await eventually(async () => ((await eventTypes(stack, created.id)).includes('PAYMENT_REFUSED') ? true : undefined));
  });

  it('cancelled on the device -> CANCELLED with reason CANCELLED_AT_TERMINAL and PAYMENT_CANCELLED', async () => {
    const shop = await openShop(stack);
    const { body: created } = await createPayment(stack, shop);
    await sim(stack).customer(shop.deviceId, { action: 'cancel' });
    expect(await statusBecomes(stack, created.id, 'CANCELLED')).toMatchObject({ reason: 'CANCELLED_AT_TERMINAL' });
    await eventually(async () => ((await eventTypes(stack, created.id)).includes('PAYMENT_CANCELLED') ? true : undefined));
  });

  it('the terminal reports a problem -> ERROR with PAYMENT_ERROR; a retry with the same reference starts a fresh payment', async () => {
    const shop = await openShop(stack);
    const { body: created } = await createPayment(stack, shop, { reference: 'err-1' });
    await sim(stack).customer(shop.deviceId, { action: 'error' });
    expect(await statusBecomes(stack, created.id, 'ERROR')).toMatchObject({ reason: 'TERMINAL_ERROR' });
    await eventually(async () => ((await eventTypes(stack, created.id)).includes('PAYMENT_ERROR') ? true : undefined));
    const retry = await createPayment(stack, shop, { reference: 'err-1' });
    expect(retry.body.status).toBe('AWAITING_TERMINAL');
    expect(retry.body.id).not.toBe(created.id);
  });
});

describe('cancel (POS)', () => {
  it('withdraws the bill -> 200 CANCELLED with PAYMENT_CANCELLED; a second cancel is 409', async () => {
    const shop = await openShop(stack);
    const { body: created } = await createPayment(stack, shop);
    const cancelled = await paymentAction(stack, shop, created.id, 'cancel');
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id: created.id, status: 'CANCELLED', reason: null });
    expect((await sim(stack).device(shop.deviceId)).body.currentBill).toBeNull();
    const entries = await history(stack, created.id);
    expect(entries[1]).toMatchObject({
      status: 'CANCELLED',
      previousStatus: 'AWAITING_TERMINAL',
      source: 'API',
      actionReference: expect.stringMatching(/^CANCEL-/),
    });
    await eventually(async () => ((await eventTypes(stack, created.id)).includes('PAYMENT_CANCELLED') ? true : undefined));
    expect(expectErrorShape(await paymentAction(stack, shop, created.id, 'cancel'), 409)).toBe('payment already decided: it is CANCELLED');
  });

  it('the customer completed first -> 200 with CAPTURED; the payment stands', async () => {
    const shop = await openShop(quiet);
    const { body: created } = await createPayment(quiet, shop);
    await sim(quiet).customer(shop.deviceId, { action: 'pay' });
    const res = await paymentAction(quiet, shop, created.id, 'cancel');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'CAPTURED', cardBrand: 'VISA' });
    expect((await history(quiet, created.id)).map((h) => h.status)).toEqual(['AWAITING_TERMINAL', 'CAPTURED']);
  });

  it('the acquirer cannot be reached -> 200 AWAITING_TERMINAL, left open, settled later (EXPIRED)', async () => {
    const shop = await openShop(stack);
    const { body: created } = await createPayment(stack, shop, { terminalTimeoutMinutes: 0.05 });
    await sim(stack).configure(shop.deviceId, { reachable: false });
    const res = await paymentAction(stack, shop, created.id, 'cancel');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('AWAITING_TERMINAL');
    expect((await sim(stack).device(shop.deviceId)).body.currentBill).toMatchObject({ status: 'WAITING' });
    await sim(stack).configure(shop.deviceId, { reachable: true });
    expect((await statusBecomes(stack, created.id, 'EXPIRED', 20_000)).status).toBe('EXPIRED');
  });
});

describe('sync-status', () => {
  it('notices an outcome nobody was told about (customer paid) -> CAPTURED, source API', async () => {
    const shop = await openShop(quiet);
    const { body: created } = await createPayment(quiet, shop);
    await sim(quiet).customer(shop.deviceId, { action: 'pay', mode: 'QR_CODE' });
    expect((await quiet.db.payment.findUniqueOrThrow({ where: { id: created.id } })).status).toBe('AWAITING_TERMINAL');
    const synced = await paymentAction(quiet, shop, created.id, 'sync-status');
    expect(synced.body).toMatchObject({ status: 'CAPTURED', paymentMethod: 'QR_CODE' });
    expect((await history(quiet, created.id))[1]).toMatchObject({ status: 'CAPTURED', source: 'API' });
  });

  it('discovers a cancel on the device on the next read -> CANCELLED with reason CANCELLED_AT_TERMINAL', async () => {
    const shop = await openShop(quiet);
    const { body: created } = await createPayment(quiet, shop);
    await sim(quiet).customer(shop.deviceId, { action: 'cancel' });
    expect((await paymentAction(quiet, shop, created.id, 'sync-status')).body).toMatchObject({ status: 'CANCELLED', reason: 'CANCELLED_AT_TERMINAL' });
  });

  it('30 concurrent sync-status calls all succeed, while waiting and when the customer has paid; the capture is recorded once', async () => {
    const shop = await openShop(quiet);
    const { body: created } = await createPayment(quiet, shop);
    const historyLength = (await workflowHandle(quiet, created.id).fetchHistory()).events!.length;
    const waiting = await Promise.all(Array.from({ length: 30 }, () => paymentAction(quiet, shop, created.id, 'sync-status')));
    expect(waiting.map((r) => `${r.status} ${r.body.status}`)).toEqual(Array(30).fill('200 AWAITING_TERMINAL'));
    // Polling a waiting bill reads the acquirer but adds nothing to the workflow's history.
    expect((await workflowHandle(quiet, created.id).fetchHistory()).events!.length).toBe(historyLength);

    await sim(quiet).customer(shop.deviceId, { action: 'pay' });
    const paid = await Promise.all(Array.from({ length: 30 }, () => paymentAction(quiet, shop, created.id, 'sync-status')));
    expect(paid.map((r) => `${r.status} ${r.body.status}`)).toEqual(Array(30).fill('200 CAPTURED'));
    expect((await history(quiet, created.id)).filter((h) => h.status === 'CAPTURED')).toHaveLength(1);
    await eventually(async () => ((await events(quiet, created.id)).length === 1 ? true : undefined));
  });

  it('30 syncStatus updates sent at once straight to the workflow (as from many API processes) all succeed', async () => {
    const shop = await openShop(quiet, { device: { latencyMs: 50 } });
    const { body: created } = await createPayment(quiet, shop);
    const handle = workflowHandle(quiet, created.id);
    const outcomes = await Promise.all(Array.from({ length: 30 }, () => withInFlightRetry((updateId) => handle.executeUpdate(syncStatusUpdate, { updateId }))));
    expect(outcomes.map((o) => o.status)).toEqual(Array(30).fill('AWAITING_TERMINAL'));
    expect(await history(quiet, created.id)).toHaveLength(1);
  });

  it('concurrent sync-status and cancel calls settle the payment once', async () => {
    const shop = await openShop(stack);
    const { body: created } = await createPayment(stack, shop);
    const calls = await Promise.all([
      ...Array.from({ length: 5 }, () => paymentAction(stack, shop, created.id, 'sync-status')),
      paymentAction(stack, shop, created.id, 'cancel'),
      paymentAction(stack, shop, created.id, 'cancel'),
      ...Array.from({ length: 5 }, () => paymentAction(stack, shop, created.id, 'sync-status')),
    ]);
    for (const r of calls) expect([200, 409]).toContain(r.status);
    expect(calls.filter((r) => r.status === 200 && r.body.status === 'CANCELLED').length).toBeGreaterThan(0);
    expect((await history(stack, created.id)).map((h) => h.status)).toEqual(['AWAITING_TERMINAL', 'CANCELLED']);
  });
});

describe('expiry', () => {
  it('nobody decides within the terminal timeout plus grace -> EXPIRED, no webhook event, the device free', async () => {
    const shop = await openShop(stack);
    const { body: created } = await createPayment(stack, shop, { terminalTimeoutMinutes: 0.03 });
    const expired = await statusBecomes(stack, created.id, 'EXPIRED', 15_000);
    expect(expired.updatedAt.getTime()).toBeGreaterThanOrEqual(created.createdAt ? Date.parse(created.createdAt) + 1800 : 0);
    expect((await sim(stack).device(shop.deviceId)).body.currentBill).toBeNull();
    expect(await events(stack, created.id)).toEqual([]);
    expect(expectErrorShape(await paymentAction(stack, shop, created.id, 'cancel'), 409)).toMatch(/EXPIRED/);
  });

  it('the expiry reads the acquirer once more: a payment nobody asked about ends CAPTURED, not EXPIRED', async () => {
    const shop = await openShop(quiet);
    const { body: created } = await createPayment(quiet, shop, { terminalTimeoutMinutes: 0.03 });
    await sim(quiet).customer(shop.deviceId, { action: 'pay' });
    const settled = await eventually(async () => {
      const p = await quiet.db.payment.findUniqueOrThrow({ where: { id: created.id } });
      return p.status === 'AWAITING_TERMINAL' ? undefined : p;
    }, 15_000);
    expect(settled.status).toBe('CAPTURED');
    expect((await history(quiet, created.id))[1]).toMatchObject({ status: 'CAPTURED', source: 'WORKFLOW' });
  });
});

describe('workflow hygiene', () => {
  it('a normal life (create, pay, a few syncs, void window) stays within 60 history events and ends when the window closes', async () => {
    const shop = await openShop(stack);
    const { body: created } = await createPayment(stack, shop);
    await paymentAction(stack, shop, created.id, 'sync-status');
    await sim(stack).customer(shop.deviceId, { action: 'pay' });
    await paymentAction(stack, shop, created.id, 'sync-status');
    await statusBecomes(stack, created.id, 'CAPTURED');
    await paymentAction(stack, shop, created.id, 'sync-status');
    const handle = workflowHandle(stack, created.id);
    expect(await handle.result()).toMatchObject({ status: 'CAPTURED' });
    const events = (await handle.fetchHistory()).events!;
    expect(events.length).toBeLessThanOrEqual(60);
    // One timer for the waiting phase and one for the void window: no polling loop.
    const timers = events.filter((e) => e.timerStartedEventAttributes);
    expect(timers.length).toBeLessThanOrEqual(3);
  });
});
