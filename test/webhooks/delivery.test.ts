import crypto from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import { verifyWebhookSignature } from '../../src';
import { handOverStalledDeliveries, stalledAfterMs } from '../../src/webhooks/dispatch';
import { publishEvent } from '../../src/webhooks/publish';
import { storedBody, testEventBody } from '../../src/webhooks/payload';
import { webhookDeliveryWorkflowId } from '../../core/webhooks/delivery';
import { createMerchantWithKey } from '../support/fixtures';
import { call, expectErrorShape } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';
import { activitiesOf, createPayment, recordStatus } from './payments';
import { eventually, TestReceiver } from './receiver';

/**
 * Signed delivery with retries (docs/webhooks.md) to real HTTP receivers on loopback. Payment
 * events are raised through the publishPaymentEvent activity the payment workflow calls after each
 * status event, over a payment written as the projection writes it.
 */
let stack: TestStack;
const receivers: TestReceiver[] = [];
beforeAll(async () => {
  stack = await startTestStack({ WEBHOOK_RETRY_INITIAL_SECONDS: '0.2', WEBHOOK_RETRY_MAX_INTERVAL_SECONDS: '1' });
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.stop()));
  await stack?.stop();
});

const CONFIGS = '/api/webhooks/configs';
const dispatchDeps = () => ({ db: stack.db, temporal: stack.client, config: stack.config });

async function receiver(): Promise<TestReceiver> {
  const r = await new TestReceiver().start();
  receivers.push(r);
  return r;
}

async function destination(key: string, url: string, eventTypes?: string[]): Promise<{ id: string; secret: string }> {
  const res = await call(stack.apiUrl, 'POST', CONFIGS, { key, body: { url, ...(eventTypes ? { eventTypes } : {}) } });
  expect(res.status).toBe(201);
  return res.body;
}

async function historyOf(key: string, configId: string) {
  const res = await call(stack.apiUrl, 'GET', `${CONFIGS}/${configId}/events`, { key });
  expect(res.status).toBe(200);
  return res.body;
}

async function attemptsOf(key: string, eventId: string) {
  const res = await call(stack.apiUrl, 'GET', `/api/webhooks/events/${eventId}/attempts`, { key });
  expect(res.status).toBe(200);
  return res.body as any[];
}

async function statusOf(key: string, configId: string, eventId: string): Promise<string | undefined> {
  const page = await historyOf(key, configId);
  return page.content.find((e: any) => e.eventId === eventId)?.status;
}

describe('a payment event', () => {
  it('arrives once, with the documented headers and body, signed over the exact bytes', async () => {
    const { key, merchant } = await createMerchantWithKey(stack.db);
    const r = await receiver();
    const config = await destination(key, r.url);
    const payment = await createPayment(stack, merchant, { amount: '12.5', currency: 'EUR', cardBrand: 'VISA', last4: '4242' });
    const { sequence, occurredAt } = await recordStatus(stack, payment.id, 'CAPTURED');
    const publish = activitiesOf(stack).publishPaymentEvent;
    const eventId = await publish({ paymentId: payment.id, sequence });
    expect(eventId).toMatch(/^evt_[0-9a-f]{32}$/);

    const [got] = await eventually(() => r.forEvent(eventId!).length === 1 && r.forEvent(eventId!), 'the event at the receiver');
    expect(got!.headers['content-type']).toBe('application/json');
    expect(got!.headers['x-webhook-event-type']).toBe('PAYMENT_CAPTURED');
    expect(got!.headers['x-webhook-event-id']).toBe(eventId);
    const signature = got!.headers['x-webhook-signature'] as string;
    expect(signature).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(verifyWebhookSignature(got!.rawBody, signature, config.secret)).toBe(true);
    expect(verifyWebhookSignature(got!.rawBody.toString('utf8'), signature, config.secret)).toBe(true);
    expect(verifyWebhookSignature(got!.rawBody, signature, 'whsec_wrong')).toBe(false);
    expect(verifyWebhookSignature(Buffer.concat([got!.rawBody, Buffer.from(' ')]), signature, config.secret)).toBe(false);

    expect(got!.body).toEqual({
      eventId,
      eventType: 'PAYMENT_CAPTURED',
      merchantExternalId: merchant.externalId,
      timestamp: occurredAt.toISOString(),
      data: {
        pspReference: payment.pspReference,
        merchantReference: payment.reference,
        amount: '12.50',
        requestedAmount: '12.50',
        tipAmount: '0.00',
        totalAmount: '12.50',
        currency: 'EUR',
        status: 'CAPTURED',
        cardSummary: 'VISA **** 4242',
        cardBrand: 'VISA',
        paymentMethod: 'CARD',
        sequence,
      },
    });
    // Field order as docs/webhooks.md shows it (requestedAmount after amount), then the payment's history sequence (issue 10).
    expect(Object.keys(got!.body)).toEqual(['eventId', 'eventType', 'merchantExternalId', 'timestamp', 'data']);
    expect(Object.keys(got!.body.data)).toEqual([
      'pspReference',
      'merchantReference',
      'amount',
      'requestedAmount',
      'tipAmount',
      'totalAmount',
      'currency',
      'status',
      'cardSummary',
      'cardBrand',
      'paymentMethod',
      'sequence',
    ]);

    await eventually(async () => (await statusOf(key, config.id, eventId!)) === 'DELIVERED', 'DELIVERED in the history');
    const history = await historyOf(key, config.id);
    expect(history).toEqual({
      content: [{ eventId, eventType: 'PAYMENT_CAPTURED', status: 'DELIVERED', attempts: 1, createdAt: expect.stringMatching(/Z$/) }],
      totalElements: 1,
      totalPages: 1,
      page: 0,
      size: 20,
    });
    expect(await attemptsOf(key, eventId!)).toEqual([
      {
        configId: config.id,
        attemptNumber: 1,
        requestedAt: expect.stringMatching(/Z$/),
        responseStatus: 200,
        durationMs: expect.any(Number),
        error: null,
        responseBody: 'ok',
      },
    ]);

    // Delivered at the first attempt, made by the publishing step itself: no delivery workflow ran.
    const handle = stack.client.workflow.getHandle(webhookDeliveryWorkflowId(eventId!, config.id));
    await expect(handle.describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
    // The activity retried (or the status event published again) never mints a second event, attempt or run.
    expect(await publish({ paymentId: payment.id, sequence })).toBe(eventId);
    await expect(handle.describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
    expect(await stack.db.webhookEvent.count({ where: { paymentId: payment.id } })).toBe(1);
    expect(await stack.db.webhookDelivery.count({ where: { eventId: eventId! } })).toBe(1);
    expect(r.forEvent(eventId!)).toHaveLength(1);
  });

  it.each([
    ['AUTHORIZED', 'PAYMENT_AUTHORIZED'],
    ['REFUSED', 'PAYMENT_REFUSED'],
    ['CANCELLED', 'PAYMENT_CANCELLED'],
    ['ERROR', 'PAYMENT_ERROR'],
    ['FAILED', 'PAYMENT_ERROR'],
  ])('status %s raises %s', async (status, eventType) => {
    const { key, merchant } = await createMerchantWithKey(stack.db);
    const r = await receiver();
    const config = await destination(key, r.url);
    const payment = await createPayment(stack, merchant, { currency: 'JPY', amount: '1200', reference: null, paymentMethod: null });
    const { sequence } = await recordStatus(stack, payment.id, status);
    const eventId = await activitiesOf(stack).publishPaymentEvent({ paymentId: payment.id, sequence });
    const [got] = await eventually(() => r.forEvent(eventId!).length > 0 && r.forEvent(eventId!), `${eventType} at the receiver`);
    expect(got!.headers['x-webhook-event-type']).toBe(eventType);
    expect(verifyWebhookSignature(got!.rawBody, got!.headers['x-webhook-signature'] as string, config.secret)).toBe(true);
    expect(got!.body).toMatchObject({
      eventType,
      data: { status, amount: '1200', requestedAmount: '1200', currency: 'JPY', merchantReference: null, cardSummary: null, paymentMethod: null },
    });
  });

  it('is not raised for statuses without an event type (EXPIRED, AWAITING_TERMINAL)', async () => {
    const { key, merchant } = await createMerchantWithKey(stack.db);
    const config = await destination(key, 'http://127.0.0.1:9/never');
    const payment = await createPayment(stack, merchant);
    const { sequence } = await recordStatus(stack, payment.id, 'EXPIRED');
    expect(await activitiesOf(stack).publishPaymentEvent({ paymentId: payment.id, sequence })).toBeNull();
    expect(await activitiesOf(stack).publishPaymentEvent({ paymentId: payment.id, sequence: 1 })).toBeNull();
    expect((await historyOf(key, config.id)).content).toEqual([]);
  });

  it('goes only to destinations that select its type, of the same business and mode', async () => {
    const { key, merchant } = await createMerchantWithKey(stack.db);
    const other = await createMerchantWithKey(stack.db);
    const [refusedOnly, capturedOnly, everything, othersReceiver] = await Promise.all([receiver(), receiver(), receiver(), receiver()]);
    const a = await destination(key, refusedOnly.url, ['PAYMENT_REFUSED']);
    const b = await destination(key, capturedOnly.url, ['PAYMENT_CAPTURED', 'TEST']);
    const c = await destination(key, everything.url);
    await destination(other.key, othersReceiver.url);

    const payment = await createPayment(stack, merchant);
    const { sequence } = await recordStatus(stack, payment.id, 'CAPTURED');
    const eventId = await activitiesOf(stack).publishPaymentEvent({ paymentId: payment.id, sequence });
    // The fan-out is decided when the event is published: no delivery exists for the others.
    const deliveries = await stack.db.webhookDelivery.findMany({ where: { eventId: eventId! } });
    expect(deliveries.map((d) => d.configId).sort()).toEqual([b.id, c.id].sort());

    await eventually(() => capturedOnly.forEvent(eventId!).length === 1 && everything.forEvent(eventId!).length === 1, 'both selected destinations');
    expect((await historyOf(key, a.id)).content).toEqual([]);
    expect(refusedOnly.received).toEqual([]);
    expect(othersReceiver.received).toEqual([]);

    // A test-mode payment never reaches a live destination.
    const testPayment = await createPayment(stack, merchant, { mode: 'test' });
    const testStatus = await recordStatus(stack, testPayment.id, 'CAPTURED');
    const testEventId = await activitiesOf(stack).publishPaymentEvent({ paymentId: testPayment.id, sequence: testStatus.sequence });
    expect(await stack.db.webhookDelivery.count({ where: { eventId: testEventId! } })).toBe(0);
  });
});

describe('the TEST event', () => {
  it('is sent now to that destination only, whatever its event selection', async () => {
    const { key, merchant } = await createMerchantWithKey(stack.db);
    const [r, bystander] = await Promise.all([receiver(), receiver()]);
    const config = await destination(key, r.url, ['PAYMENT_CAPTURED']);
    await destination(key, bystander.url);
    const res = await call(stack.apiUrl, 'POST', `${CONFIGS}/${config.id}/test`, { key });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      eventId: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      eventType: 'TEST',
      deliveries: [{ configId: config.id, status: 'PENDING', attempts: 0 }],
    });
    const [got] = await eventually(() => r.forEvent(res.body.eventId).length === 1 && r.forEvent(res.body.eventId), 'the TEST event');
    expect(got!.headers['x-webhook-event-type']).toBe('TEST');
    expect(verifyWebhookSignature(got!.rawBody, got!.headers['x-webhook-signature'] as string, config.secret)).toBe(true);
    expect(got!.body).toMatchObject({
      eventId: res.body.eventId,
      eventType: 'TEST',
      merchantExternalId: merchant.externalId,
      data: { amount: '1.00', status: 'CAPTURED' },
    });
    await eventually(async () => (await statusOf(key, config.id, res.body.eventId)) === 'DELIVERED', 'DELIVERED');
    expect(bystander.received).toEqual([]);
  });
});

describe('retries', () => {
  it('retries a failing receiver (500, 500, then 200) until delivered, recording every attempt', async () => {
    const { key } = await createMerchantWithKey(stack.db);
    const r = await receiver();
    r.respond = ({ index }) => (index < 2 ? 500 : 200);
    const config = await destination(key, r.url);
    const eventId = (await call(stack.apiUrl, 'POST', `${CONFIGS}/${config.id}/test`, { key })).body.eventId as string;

    await eventually(async () => (await statusOf(key, config.id, eventId)) === 'DELIVERED', 'DELIVERED after two failures');
    expect(r.forEvent(eventId).map((x) => x.answered)).toEqual([500, 500, 200]);
    const attempts = await attemptsOf(key, eventId);
    expect(attempts).toEqual([
      expect.objectContaining({
        configId: config.id,
        attemptNumber: 1,
        responseStatus: 500,
        error: 'receiver answered 500',
        responseBody: 'failing on purpose with 500',
      }),
      expect.objectContaining({ configId: config.id, attemptNumber: 2, responseStatus: 500, error: 'receiver answered 500' }),
      expect.objectContaining({ configId: config.id, attemptNumber: 3, responseStatus: 200, error: null, responseBody: 'ok' }),
    ]);
    expect(new Date(attempts[0].requestedAt) < new Date(attempts[1].requestedAt)).toBe(true);
    expect((await historyOf(key, config.id)).content[0]).toMatchObject({ eventId, status: 'DELIVERED', attempts: 3 });
    // Every attempt carried the same event id and the same bytes.
    expect(new Set(r.forEvent(eventId).map((x) => x.rawBody.toString('base64'))).size).toBe(1);
  });

  it('hands a payment event whose first attempt failed to the delivery workflow, which keeps the retry schedule', async () => {
    const { key, merchant } = await createMerchantWithKey(stack.db);
    const r = await receiver();
    r.respond = ({ index }) => (index < 2 ? 500 : 200);
    const config = await destination(key, r.url);
    const payment = await createPayment(stack, merchant);
    const { sequence } = await recordStatus(stack, payment.id, 'CAPTURED');
    const eventId = (await activitiesOf(stack).publishPaymentEvent({ paymentId: payment.id, sequence }))!;

    const handle = stack.client.workflow.getHandle(webhookDeliveryWorkflowId(eventId, config.id));
    expect(await eventually(async () => (await handle.result().catch(() => null)) ?? false, 'the delivery run, started by the failed first attempt')).toBe(
      'DELIVERED',
    );
    expect(r.forEvent(eventId).map((x) => x.answered)).toEqual([500, 500, 200]);
    const attempts = await attemptsOf(key, eventId);
    expect(attempts.map((a) => [a.attemptNumber, a.responseStatus])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
    // The retry schedule (docs/webhooks.md, "Retries"; here 0.2 s, doubling): the run's attempts come one and two intervals on.
    const at = attempts.map((a) => Date.parse(a.requestedAt));
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(195);
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(395);
    expect((await historyOf(key, config.id)).content[0]).toMatchObject({ eventId, status: 'DELIVERED', attempts: 3 });
  });

  it('delivers an event stored but never attempted (the process died between the two): the sweep hands it over', async () => {
    const { key, merchant } = await createMerchantWithKey(stack.db);
    const r = await receiver();
    const config = await destination(key, r.url);
    // What a crash right after storing leaves: the event and its delivery, PENDING, no attempt, no run.
    const eventId = `evt_${crypto.randomUUID().replaceAll('-', '')}`;
    const stored = storedBody(testEventBody(eventId, merchant.externalId, new Date()));
    await stack.db.webhookEvent.create({ data: { id: eventId, merchantId: merchant.id, mode: 'live', eventType: 'TEST', ...stored } });
    await stack.db.webhookDelivery.create({ data: { eventId, configId: config.id } });

    // Not yet stalled: left alone (a first attempt may still be on its way).
    expect(await handOverStalledDeliveries(dispatchDeps(), { eventIds: [eventId] })).toBe(0);
    const later = new Date(Date.now() + stalledAfterMs(stack.config) + 1000);
    expect(await handOverStalledDeliveries(dispatchDeps(), { now: later, eventIds: [eventId] })).toBe(1);
    await eventually(async () => (await statusOf(key, config.id, eventId)) === 'DELIVERED', 'DELIVERED by the handed-over run');
    expect(r.forEvent(eventId)).toHaveLength(1);
    // Handed over once: a second sweep starts no second run.
    expect(await handOverStalledDeliveries(dispatchDeps(), { now: later, eventIds: [eventId] })).toBe(0);
  });

  it('a publish retried after a crash attempts the stored delivery at once, with the stored bytes and the current secret', async () => {
    const { key, merchant } = await createMerchantWithKey(stack.db);
    const r = await receiver();
    const config = await destination(key, r.url);
    // The first publish stored the event and its delivery, then died before attempting it.
    const eventId = `evt_${crypto.randomUUID().replaceAll('-', '')}`;
    const first = testEventBody(eventId, merchant.externalId, new Date('2026-01-02T03:04:05.000Z'));
    await stack.db.webhookEvent.create({ data: { id: eventId, merchantId: merchant.id, mode: 'live', eventType: 'TEST', ...storedBody(first) } });
    await stack.db.webhookDelivery.create({ data: { eventId, configId: config.id } });
    const rotated = await call(stack.apiUrl, 'POST', `${CONFIGS}/${config.id}/regenerate-key`, { key });
    expect(rotated.status).toBe(200);

    // The retry's body differs (a later timestamp): the event keeps its first bytes, signed with the secret of now.
    const again = testEventBody(eventId, merchant.externalId, new Date('2026-01-02T03:04:06.000Z'));
    expect(await publishEvent(dispatchDeps(), { id: eventId, merchantId: merchant.id, mode: 'live', paymentId: null, eventType: 'TEST', body: again })).toBe(
      eventId,
    );
    const [got] = await eventually(() => r.forEvent(eventId).length === 1 && r.forEvent(eventId), 'the stored event at the receiver');
    expect(got!.rawBody.toString('utf8')).toBe(storedBody(first).body);
    expect(verifyWebhookSignature(got!.rawBody, got!.headers['x-webhook-signature'] as string, rotated.body.secret)).toBe(true);
    await eventually(async () => (await statusOf(key, config.id, eventId)) === 'DELIVERED', 'DELIVERED at the first attempt');
    expect(await attemptsOf(key, eventId)).toHaveLength(1);
  });

  it('signs the next attempt after regenerate-key with the new secret', async () => {
    const { key } = await createMerchantWithKey(stack.db);
    const r = await receiver();
    const config = await destination(key, r.url);
    let newSecret: string | undefined;
    // Accept only what verifies with the new secret: until the rotation, every attempt fails.
    r.respond = ({ headers, rawBody }) => (newSecret && verifyWebhookSignature(rawBody, headers['x-webhook-signature'] as string, newSecret) ? 200 : 500);
    const eventId = (await call(stack.apiUrl, 'POST', `${CONFIGS}/${config.id}/test`, { key })).body.eventId as string;
    await eventually(() => r.forEvent(eventId).length >= 1, 'a first attempt');
    const receivedBefore = r.forEvent(eventId).length;

    const rotated = await call(stack.apiUrl, 'POST', `${CONFIGS}/${config.id}/regenerate-key`, { key });
    expect(rotated.status).toBe(200);
    newSecret = rotated.body.secret as string;

    await eventually(async () => (await statusOf(key, config.id, eventId)) === 'DELIVERED', 'DELIVERED with the new secret');
    const all = r.forEvent(eventId);
    for (const before of all.slice(0, receivedBefore)) {
      expect(verifyWebhookSignature(before.rawBody, before.headers['x-webhook-signature'] as string, config.secret)).toBe(true);
    }
    const after = all.slice(receivedBefore);
    // At most one attempt was already on its way when the secret changed; every later one is signed with the new secret.
    const oldSigned = after.filter((x) => verifyWebhookSignature(x.rawBody, x.headers['x-webhook-signature'] as string, config.secret));
    expect(oldSigned.length).toBeLessThanOrEqual(1);
    expect(after.at(-1)!.answered).toBe(200);
    expect(verifyWebhookSignature(after.at(-1)!.rawBody, after.at(-1)!.headers['x-webhook-signature'] as string, newSecret)).toBe(true);
  });

  it('delivers everything to a receiver that was down once it comes back', async () => {
    const { key, merchant } = await createMerchantWithKey(stack.db);
    const r = await receiver();
    const config = await destination(key, r.url);
    await r.stop(); // the port is closed now

    const publish = activitiesOf(stack).publishPaymentEvent;
    const eventIds: string[] = [];
    for (const status of ['CAPTURED', 'REFUSED', 'CANCELLED']) {
      const payment = await createPayment(stack, merchant);
      const { sequence } = await recordStatus(stack, payment.id, status);
      eventIds.push((await publish({ paymentId: payment.id, sequence }))!);
    }
    eventIds.push((await call(stack.apiUrl, 'POST', `${CONFIGS}/${config.id}/test`, { key })).body.eventId);

    // Each delivery fails at least twice against the closed port...
    for (const eventId of eventIds) {
      await eventually(async () => (await attemptsOf(key, eventId)).length >= 2, 'two refused attempts');
    }
    const refusedAttempt = (await attemptsOf(key, eventIds[0]!))[0];
    expect(refusedAttempt).toMatchObject({ responseStatus: null, responseBody: null, error: expect.stringMatching(/ECONNREFUSED/) });
    expect(r.received).toEqual([]);

    await r.start(); // back on the same port
    for (const eventId of eventIds) {
      await eventually(async () => (await statusOf(key, config.id, eventId)) === 'DELIVERED', `${eventId} DELIVERED after the receiver came back`);
    }
    // At least once: a receiver dedupes on eventId (an answer lost in transit is sent again).
    expect([...new Set(r.delivered().map((x) => x.headers['x-webhook-event-id']))].sort()).toEqual([...eventIds].sort());
    const types = [...new Set(r.delivered().map((x) => x.body.eventType))].sort();
    expect(types).toEqual(['PAYMENT_CANCELLED', 'PAYMENT_CAPTURED', 'PAYMENT_REFUSED', 'TEST']);
  });
});

describe('deleting a destination', () => {
  it('stops its pending deliveries: the run is cancelled and the delivery FAILED', async () => {
    const { key } = await createMerchantWithKey(stack.db);
    const r = await receiver();
    r.respond = () => 503;
    const config = await destination(key, r.url);
    const eventId = (await call(stack.apiUrl, 'POST', `${CONFIGS}/${config.id}/test`, { key })).body.eventId as string;
    await eventually(() => r.forEvent(eventId).length >= 1, 'a first failed attempt');

    expect((await call(stack.apiUrl, 'DELETE', `${CONFIGS}/${config.id}`, { key })).status).toBe(204);
    const handle = stack.client.workflow.getHandle(webhookDeliveryWorkflowId(eventId, config.id));
    await eventually(async () => (await handle.describe()).status.name === 'CANCELLED', 'the delivery run cancelled');
    const delivery = await stack.db.webhookDelivery.findFirstOrThrow({ where: { eventId, configId: config.id } });
    expect(delivery.status).toBe('FAILED');
    // The attempts made before the removal stay readable by event.
    expect((await attemptsOf(key, eventId)).length).toBe(delivery.attempts);
  });

  it('is honoured by the attempt itself: a run whose destination is gone stops before sending', async () => {
    const { key } = await createMerchantWithKey(stack.db);
    const r = await receiver();
    r.respond = () => 500;
    const config = await destination(key, r.url);
    const eventId = (await call(stack.apiUrl, 'POST', `${CONFIGS}/${config.id}/test`, { key })).body.eventId as string;
    await eventually(() => r.forEvent(eventId).length >= 1, 'a first failed attempt');
    // Removed behind the API's back (no cancellation): the next attempt reads deletedAt and stops.
    await stack.db.webhookConfig.update({ where: { id: config.id }, data: { deletedAt: new Date() } });
    const handle = stack.client.workflow.getHandle(webhookDeliveryWorkflowId(eventId, config.id));
    expect(await handle.result()).toBe('STOPPED');
    const sent = r.forEvent(eventId).length;
    const delivery = await stack.db.webhookDelivery.findFirstOrThrow({ where: { eventId, configId: config.id } });
    expect(delivery.status).toBe('FAILED');
    expect(delivery.attempts).toBe(sent);
  });
});

describe('manual redelivery', () => {
  it('sends a delivered event again, continuing the attempt numbers', async () => {
    const { key, merchant } = await createMerchantWithKey(stack.db);
    const r = await receiver();
    const config = await destination(key, r.url);
    const payment = await createPayment(stack, merchant, { cardBrand: 'MC', last4: '5100' });
    const { sequence } = await recordStatus(stack, payment.id, 'CAPTURED');
    const eventId = (await activitiesOf(stack).publishPaymentEvent({ paymentId: payment.id, sequence }))!;
    await eventually(async () => (await statusOf(key, config.id, eventId)) === 'DELIVERED', 'first delivery');

    const res = await call(stack.apiUrl, 'POST', `/api/webhooks/events/${eventId}/redeliver`, { key });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ eventId, eventType: 'PAYMENT_CAPTURED', deliveries: [{ configId: config.id, status: 'PENDING', attempts: 1 }] });
    await eventually(() => r.forEvent(eventId).length === 2, 'the redelivery');
    await eventually(async () => (await statusOf(key, config.id, eventId)) === 'DELIVERED', 'DELIVERED again');
    const [first, second] = r.forEvent(eventId);
    expect(second!.rawBody.equals(first!.rawBody)).toBe(true);
    expect((await attemptsOf(key, eventId)).map((a) => [a.attemptNumber, a.responseStatus])).toEqual([
      [1, 200],
      [2, 200],
    ]);
  });

  it('targets one named destination, including one added after the event', async () => {
    const { key } = await createMerchantWithKey(stack.db);
    const [first, later] = await Promise.all([receiver(), receiver()]);
    const a = await destination(key, first.url);
    const eventId = (await call(stack.apiUrl, 'POST', `${CONFIGS}/${a.id}/test`, { key })).body.eventId as string;
    await eventually(() => first.forEvent(eventId).length === 1, 'the TEST event');
    const b = await destination(key, later.url);

    expectErrorShape(await call(stack.apiUrl, 'POST', `/api/webhooks/events/${eventId}/redeliver`, { key, body: { configId: 'nope' } }), 404);
    expectErrorShape(await call(stack.apiUrl, 'POST', `/api/webhooks/events/${eventId}/redeliver`, { key, body: { configId: b.id, extra: 1 } }), 400);
    const res = await call(stack.apiUrl, 'POST', `/api/webhooks/events/${eventId}/redeliver`, { key, body: { configId: b.id } });
    expect(res.status).toBe(202);
    expect(res.body.deliveries).toEqual([{ configId: b.id, status: 'PENDING', attempts: 0 }]);
    const [got] = await eventually(() => later.forEvent(eventId).length === 1 && later.forEvent(eventId), 'the event at the later destination');
    expect(verifyWebhookSignature(got!.rawBody, got!.headers['x-webhook-signature'] as string, b.secret)).toBe(true);
    expect(first.forEvent(eventId)).toHaveLength(1);
    const attempts = await attemptsOf(key, eventId);
    expect(attempts.map((x) => x.configId).sort()).toEqual([a.id, b.id].sort());
  });
});
