import { verifyWebhookSignature } from '../../src';
import { createLogger } from '../../src/logger';
import { sweepOverduePayments } from '../../src/payments/sweep';
import { acquirerNotifiedSignal, paymentWorkflowId, sweepNudgeSignal } from '../../core/payment/messages';
import { call } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';
import { createPayment, openShop, paymentAction, sim, type Shop } from '../payments/helpers';
import { eventually, TestReceiver, type Received } from './receiver';

/**
 * End to end through the real payment flow: a payment created over the API, the customer acting on
 * the sandbox device, and the payment workflow publishing each status event to the merchant's
 * receiver on loopback. One status event is one webhook event, however many paths race to notice it.
 */
let stack: TestStack;
let receiver: TestReceiver;
beforeAll(async () => {
  [stack, receiver] = await Promise.all([
    startTestStack({ WEBHOOK_RETRY_INITIAL_SECONDS: '0.2', WEBHOOK_RETRY_MAX_INTERVAL_SECONDS: '1', PAYMENT_PLACEMENT_WAIT_SECONDS: '2' }),
    new TestReceiver().start(),
  ]);
});
afterAll(async () => {
  await receiver?.stop();
  await stack?.stop();
});

interface Destination {
  id: string;
  secret: string;
}

async function shopWithDestination(opts: Parameters<typeof openShop>[1] = {}): Promise<{ shop: Shop; destination: Destination }> {
  const shop = await openShop(stack, opts);
  const res = await call(stack.apiUrl, 'POST', '/api/webhooks/configs', { key: shop.key, body: { url: receiver.url } });
  expect(res.status).toBe(201);
  return { shop, destination: res.body };
}

const eventsFor = (pspReference: string): Received[] => receiver.received.filter((r) => r.body?.data?.pspReference === pspReference);

async function onlyEvent(pspReference: string, eventType: string, destination: Destination): Promise<Received> {
  const [got] = await eventually(() => {
    const found = eventsFor(pspReference).filter((r) => r.body.eventType === eventType);
    return found.length > 0 && found;
  }, `${eventType} for ${pspReference}`);
  expect(verifyWebhookSignature(got!.rawBody, got!.headers['x-webhook-signature'] as string, destination.secret)).toBe(true);
  expect(got!.headers['x-webhook-event-type']).toBe(eventType);
  expect(got!.headers['x-webhook-event-id']).toBe(got!.body.eventId);
  return got!;
}

/** The webhook events recorded for a payment, by type: the service's own count, independent of the receiver. */
async function eventTypesOf(paymentId: string): Promise<string[]> {
  return (await stack.db.webhookEvent.findMany({ where: { paymentId }, orderBy: { createdAt: 'asc' } })).map((e) => e.eventType);
}

async function placed(shop: Shop, over: Record<string, unknown> = {}) {
  const res = await createPayment(stack, shop, over);
  expect(res.status).toBe(201);
  expect(res.body.status).toBe('AWAITING_TERMINAL');
  return res.body as { id: string; pspReference: string; reference: string };
}

async function finalStatus(paymentId: string, status: string) {
  return eventually(async () => {
    const p = await stack.db.payment.findUnique({ where: { id: paymentId } });
    return p?.status === status && p;
  }, `payment ${status}`);
}

describe('PAYMENT_CAPTURED', () => {
  it('arrives exactly once while sync-status, the sweep and the acquirer notification race on the payment', async () => {
    const { shop, destination } = await shopWithDestination();
    const payment = await placed(shop, { amount: 42.1 });

    const paid = await sim(stack).customer(shop.deviceId, { action: 'pay', mode: 'CARD', cardBrand: 'VISA', last4: '4242' });
    expect(paid.status).toBe(200);
    // The sandbox has posted its notification already; pile every other path on top of it at once.
    const handle = stack.client.workflow.getHandle(paymentWorkflowId(payment.id));
    const sweepDeps = { config: stack.config, db: stack.db, temporal: stack.client, logger: createLogger('silent') };
    const results = await Promise.all([
      ...Array.from({ length: 5 }, () => paymentAction(stack, shop, payment.id, 'sync-status')),
      sweepOverduePayments(sweepDeps, { now: new Date(Date.now() + 24 * 3600_000), paymentIds: [payment.id] }),
      handle.signal(sweepNudgeSignal),
      handle.signal(acquirerNotifiedSignal, { event: 'BILL_UPDATED' }),
      handle.signal(acquirerNotifiedSignal, { event: 'BILL_UPDATED' }),
    ]);
    for (const r of results.slice(0, 5) as { status: number; body: any }[]) {
      expect({ status: r.status, body: r.body }).toMatchObject({ status: 200, body: { status: 'CAPTURED' } });
    }

    const got = await onlyEvent(payment.pspReference, 'PAYMENT_CAPTURED', destination);
    expect(got.body).toEqual({
      eventId: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      eventType: 'PAYMENT_CAPTURED',
      merchantExternalId: shop.merchantExternalId,
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      data: {
        pspReference: payment.pspReference,
        merchantReference: payment.reference,
        amount: '42.10',
        requestedAmount: '42.10',
        tipAmount: '0.00',
        totalAmount: '42.10',
        currency: 'EUR',
        status: 'CAPTURED',
        cardSummary: 'VISA **** 4242',
        cardBrand: 'VISA',
        paymentMethod: 'CARD',
        // The CAPTURED entry follows AWAITING_TERMINAL in the payment's history.
        sequence: 2,
      },
    });

    // Once more after everything settled: a later sync-status of a final payment changes nothing.
    expect((await paymentAction(stack, shop, payment.id, 'sync-status')).body.status).toBe('CAPTURED');
    const history = await stack.db.paymentHistory.findMany({ where: { paymentId: payment.id, status: 'CAPTURED' } });
    expect(history).toHaveLength(1);
    expect(await eventTypesOf(payment.id)).toEqual(['PAYMENT_CAPTURED']);
    const deliveries = await stack.db.webhookDelivery.findMany({ where: { eventId: got.body.eventId } });
    expect(deliveries).toHaveLength(1);
    await eventually(async () => (await stack.db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveries[0]!.id } })).status === 'DELIVERED', 'DELIVERED');
    expect(eventsFor(payment.pspReference)).toHaveLength(1);
  });
});

describe('every payment event type, from the real flow', () => {
  it('PAYMENT_AUTHORIZED when the customer pays on a two-step terminal', async () => {
    const { shop, destination } = await shopWithDestination({ twoStep: true, device: { twoStep: true } });
    const payment = await placed(shop);
    await sim(stack).customer(shop.deviceId, { action: 'pay', cardBrand: 'MASTERCARD', last4: '5100' });
    const got = await onlyEvent(payment.pspReference, 'PAYMENT_AUTHORIZED', destination);
    expect(got.body.data).toMatchObject({ status: 'AUTHORIZED', amount: '12.50' });
    await finalStatus(payment.id, 'AUTHORIZED');
    expect(await eventTypesOf(payment.id)).toEqual(['PAYMENT_AUTHORIZED']);
  });

  it('PAYMENT_REFUSED when the customer declines at the terminal', async () => {
    const { shop, destination } = await shopWithDestination();
    const payment = await placed(shop);
    await sim(stack).customer(shop.deviceId, { action: 'decline' });
    const got = await onlyEvent(payment.pspReference, 'PAYMENT_REFUSED', destination);
    expect(got.body.data).toMatchObject({ status: 'REFUSED', cardSummary: null });
    expect(await eventTypesOf(payment.id)).toEqual(['PAYMENT_REFUSED']);
  });

  it('PAYMENT_CANCELLED when the point of sale cancels, and when the customer cancels on the device', async () => {
    const { shop, destination } = await shopWithDestination();
    const byPos = await placed(shop);
    const cancelled = await paymentAction(stack, shop, byPos.id, 'cancel');
    expect(cancelled.body.status).toBe('CANCELLED');
    const first = await onlyEvent(byPos.pspReference, 'PAYMENT_CANCELLED', destination);
    expect(first.body.data.status).toBe('CANCELLED');

    const onDevice = await placed(shop);
    await sim(stack).customer(shop.deviceId, { action: 'cancel' });
    await onlyEvent(onDevice.pspReference, 'PAYMENT_CANCELLED', destination);
    expect(await eventTypesOf(byPos.id)).toEqual(['PAYMENT_CANCELLED']);
    expect(await eventTypesOf(onDevice.id)).toEqual(['PAYMENT_CANCELLED']);
  });

  it('PAYMENT_CANCELLED after a confirmed void of a captured payment', async () => {
    const { shop, destination } = await shopWithDestination();
    const payment = await placed(shop);
    await sim(stack).customer(shop.deviceId, { action: 'pay', cardBrand: 'VISA', last4: '1111' });
    await onlyEvent(payment.pspReference, 'PAYMENT_CAPTURED', destination);
    const voided = await paymentAction(stack, shop, payment.id, 'void');
    expect(voided.status).toBe(200);
    expect(voided.body.status).toBe('CANCELLED');
    const got = await onlyEvent(payment.pspReference, 'PAYMENT_CANCELLED', destination);
    expect(got.body.data).toMatchObject({ status: 'CANCELLED', cardSummary: 'VISA **** 1111' });
    expect(await eventTypesOf(payment.id)).toEqual(['PAYMENT_CAPTURED', 'PAYMENT_CANCELLED']);
  });

  it('PAYMENT_ERROR when the terminal reports a problem', async () => {
    const { shop, destination } = await shopWithDestination();
    const payment = await placed(shop);
    await sim(stack).customer(shop.deviceId, { action: 'error' });
    const got = await onlyEvent(payment.pspReference, 'PAYMENT_ERROR', destination);
    expect(got.body.data.status).toBe('ERROR');
    expect(await eventTypesOf(payment.id)).toEqual(['PAYMENT_ERROR']);
  });

  it('no event for a refusal at creation (answered in the 201 itself)', async () => {
    const { shop } = await shopWithDestination();
    await placed(shop);
    const refused = await createPayment(stack, shop);
    expect(refused.status).toBe(201);
    expect(refused.body.status).toBe('REFUSED');
    expect(await eventTypesOf(refused.body.id)).toEqual([]);
  });
});
