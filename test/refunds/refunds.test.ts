import type { Db } from '../../src/db/client';
import type { Payment } from '../../src/generated/prisma/client';
import { createLogger } from '../../src/logger';
import type { OperationDeps } from '../../src/payments/operations';
import { createRefund } from '../../src/refunds/refunds';
import { call } from '../support/http';
import { type TestStack, startTestStack } from '../support/stack';
import { createPayment, eventually, history, paymentAction, sim, workflowHandle } from '../payments/helpers';
import { signedInUser } from '../users/helpers';
import { captured, till, type Till } from './helpers';

/**
 * Refunds by signed-in dashboard users (docs/refunds.md) on the real stack: amounts, statuses, history,
 * events, idempotency, roles, a refund the acquirer decides late, a failed one, and the audit log.
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ REFUND_CONFIRM_TIMEOUT_SECONDS: '1' });
});
afterAll(async () => {
  await stack?.stop();
});

const refund = (token: string, paymentId: string, body?: unknown, headers: Record<string, string> = {}) =>
  call(stack.apiUrl, 'POST', `/api/dashboard/payments/${paymentId}/refunds`, { token, headers, ...(body === undefined ? {} : { body }) });
const payment = (t: Till, id: string) => call(stack.apiUrl, 'GET', `/api/transactions/${id}`, { key: t.shop.key });

it('refunds part, then the rest: PARTIALLY_REFUNDED then REFUNDED, visible at once, with REFUND- history and events', async () => {
  const t = await till(stack);
  const id = await captured(stack, t, 30);
  const started = Date.now();
  const first = await refund(t.finance, id, { amount: 10.5, reason: 'returned one item' });
  const latencyMs = Date.now() - started;
  expect(first.status).toBe(201);
  expect(first.body).toMatchObject({
    paymentId: id,
    amount: 10.5,
    currency: 'EUR',
    status: 'SUCCEEDED',
    reason: 'returned one item',
    failureReason: null,
    createdBy: expect.any(String),
  });
  console.log(`refund latency (request to SUCCEEDED): ${latencyMs} ms`);
  // the answer says SUCCEEDED: the payment already shows it
  expect((await payment(t, id)).body).toMatchObject({ status: 'PARTIALLY_REFUNDED', refundedAmount: 10.5, capturedAmount: 30 });
  const rest = await refund(t.finance, id); // default: all that is left
  expect(rest.status).toBe(201);
  expect(rest.body).toMatchObject({ amount: 19.5, status: 'SUCCEEDED' });
  expect((await payment(t, id)).body).toMatchObject({ status: 'REFUNDED', refundedAmount: 30 });
  const entries = await history(stack, id);
  expect(entries.slice(-2)).toMatchObject([
    { status: 'PARTIALLY_REFUNDED', previousStatus: 'CAPTURED', actionReference: `REFUND-${first.body.id}` },
    { status: 'REFUNDED', previousStatus: 'PARTIALLY_REFUNDED', actionReference: `REFUND-${rest.body.id}` },
  ]);
  // nothing is left: 409 naming amount; a refunded payment cannot be voided
  const more = await refund(t.finance, id, { amount: 1 });
  expect(more.status).toBe(409);
  expect((await paymentAction(stack, t.shop, id, 'void')).status).toBe(409);
  // lists: newest first, for dashboard users and for API keys alike
  const listed = await call(stack.apiUrl, 'GET', `/api/dashboard/payments/${id}/refunds`, { token: t.finance });
  expect(listed.body.map((r: { id: string }) => r.id)).toEqual([rest.body.id, first.body.id]);
  const byKey = await call(stack.apiUrl, 'GET', `/api/transactions/${id}/refunds`, { key: t.shop.key });
  expect(byKey.body).toEqual(listed.body);
  // events: PAYMENT_REFUNDED with data.refund and data.sequence
  const events = await eventually(async () => {
    const rows = await stack.db.webhookEvent.findMany({ where: { paymentId: id, eventType: 'PAYMENT_REFUNDED' } });
    return rows.length === 2 ? rows : undefined;
  });
  const bodies = events.map((e) => JSON.parse(e.body!)).sort((a, b) => a.data.sequence - b.data.sequence);
  expect(bodies[0].data).toMatchObject({
    amount: '30.00',
    status: 'PARTIALLY_REFUNDED',
    sequence: entries.at(-2)!.sequence,
    refund: { id: first.body.id, amount: '10.50', status: 'SUCCEEDED', reason: 'returned one item' },
  });
  expect(bodies[1].data).toMatchObject({ status: 'REFUNDED', refund: { id: rest.body.id, amount: '19.50' } });
  // every refund request is in the audit log with the user, the payment and the amount
  const audit = await stack.db.auditLog.findMany({ where: { merchantId: t.merchant.id, targetId: id }, orderBy: { id: 'asc' } });
  expect(audit.map((a) => a.action)).toEqual(['REFUND_REQUESTED', 'REFUND_REQUESTED', 'REFUND_REFUSED']);
  expect(audit[0]).toMatchObject({ actorType: 'USER', details: expect.objectContaining({ amount: '10.5', paymentId: id, refundId: first.body.id }) });
});

it('every payment event carries data.sequence', async () => {
  const t = await till(stack);
  const id = await captured(stack, t);
  const event = await eventually(() =>
    stack.db.webhookEvent.findFirst({ where: { paymentId: id, eventType: 'PAYMENT_CAPTURED' } }).then((e) => e ?? undefined),
  );
  const captureEntry = (await history(stack, id)).find((h) => h.status === 'CAPTURED')!;
  expect(JSON.parse(event.body!).data.sequence).toBe(captureEntry.sequence);
});

it('the same Idempotency-Key answers 200 with the same refund; with another body 409', async () => {
  const t = await till(stack);
  const id = await captured(stack, t);
  const key = { 'Idempotency-Key': `k-${id}` };
  const first = await refund(t.finance, id, { amount: 5 }, key);
  expect(first.status).toBe(201);
  const again = await refund(t.finance, id, { amount: 5 }, key);
  expect(again.status).toBe(200);
  expect(again.body).toEqual(first.body);
  expect((await refund(t.finance, id, { amount: 6 }, key)).status).toBe(409);
  expect((await refund(t.finance, id, { amount: 5 }, { 'Idempotency-Key': 'x'.repeat(256) })).status).toBe(400);
  expect((await payment(t, id)).body.refundedAmount).toBe(5);
});

/**
 * The database as a retry of a refund request read it while the first attempt (same Idempotency-Key)
 * was still under way in another API process, its client having given up on it: the look-up of the
 * key found nothing yet, and, when given, the payment read was the row from before that refund.
 * Every later read is the real one.
 */
function readBeforeTheFirstAttempt(db: Db, paymentBefore?: Payment): Db {
  const bound = (target: object, prop: string | symbol) => {
    const value = Reflect.get(target, prop);
    return typeof value === 'function' ? value.bind(target) : value;
  };
  let keyLookups = 0;
  const refund = new Proxy(db.refund, {
    get: (target, prop) =>
      prop === 'findFirst'
        ? (args: Parameters<Db['refund']['findFirst']>[0]) => (++keyLookups === 1 ? Promise.resolve(null) : target.findFirst(args))
        : bound(target, prop),
  });
  const payment = new Proxy(db.payment, {
    get: (target, prop) => (prop === 'findFirst' && paymentBefore ? () => Promise.resolve(paymentBefore) : bound(target, prop)),
  });
  return new Proxy(db, { get: (target, prop) => (prop === 'refund' ? refund : prop === 'payment' ? payment : bound(target, prop)) });
}

/** The retry, in this process, through the API's own createRefund (as the route calls it). */
const retryWith = (t: Till, db: Db, paymentId: string, body: { amount: number; reason: string }, key: string) =>
  createRefund(
    { config: stack.config, db, temporal: stack.client, logger: createLogger('silent') } as Omit<OperationDeps, 'acquirers'> as OperationDeps,
    { merchantId: t.merchant.id, merchantExternalId: t.shop.merchantExternalId, username: 'finance', userId: null },
    paymentId,
    body,
    key,
  );

it("a retry (same Idempotency-Key) that missed the first attempt's refund, which a new run of the payment then counts, is answered with that refund, never refused", async () => {
  const t = await till(stack);
  const id = await captured(stack, t, 30);
  const before = await stack.db.payment.findUniqueOrThrow({ where: { id } });
  const key = `lost-answer-${id}`;
  const body = { amount: 20, reason: 'the first attempt got no answer' };
  // The first attempt makes the refund; its client never gets the answer.
  const first = await refund(t.finance, id, body, { 'Idempotency-Key': key });
  expect(first.status).toBe(201);
  // The run that made it ends (a partially refunded payment has no void window left): the retry's update
  // starts a new run from the row, which never knew the key and finds 10 left of 30.
  await eventually(async () => ((await workflowHandle(stack, id).describe()).status.name === 'COMPLETED' ? true : undefined), 20_000);
  const retry = await retryWith(t, readBeforeTheFirstAttempt(stack.db, before), id, body, key);
  expect(retry).toMatchObject({ replayed: true, refund: { id: first.body.id, status: 'SUCCEEDED' } });
  expect(await stack.db.refund.count({ where: { paymentId: id } })).toBe(1);
  expect((await payment(t, id)).body).toMatchObject({ status: 'PARTIALLY_REFUNDED', refundedAmount: 20 });
  expect((await sim(stack).device(t.shop.deviceId)).body.lastBill.refundedAmount).toBe('20');
});

it("a retry (same Idempotency-Key) that missed the first attempt's refund, written PENDING just after its look-up, is answered with that refund, never refused", async () => {
  const t = await till(stack, { refundConfirmDelayMs: 3000 });
  const id = await captured(stack, t, 30);
  const key = `lost-answer-${id}`;
  const body = { amount: 20, reason: 'the first attempt got no answer' };
  const first = await refund(t.finance, id, body, { 'Idempotency-Key': key });
  expect(first.body.status).toBe('PENDING');
  // The retry's look-up of the key came just before the row was written; its next read counts the
  // PENDING refund against the payment (10 left of 30).
  const retry = await retryWith(t, readBeforeTheFirstAttempt(stack.db), id, body, key);
  expect(retry).toMatchObject({ replayed: true, refund: { id: first.body.id } });
  // Another body under the key is still refused.
  await expect(retryWith(t, readBeforeTheFirstAttempt(stack.db), id, { ...body, amount: 21 }, key)).rejects.toMatchObject({
    kind: 'conflict',
    message: expect.stringContaining('Idempotency-Key'),
  });
  await eventually(async () => ((await stack.db.refund.findUnique({ where: { id: first.body.id } }))?.status === 'SUCCEEDED' ? true : undefined), 30_000);
  expect(await stack.db.refund.count({ where: { paymentId: id } })).toBe(1);
  expect((await payment(t, id)).body).toMatchObject({ status: 'PARTIALLY_REFUNDED', refundedAmount: 20 });
});

it('refuses what is not a refund: roles, API keys, statuses, amounts', async () => {
  const t = await till(stack);
  const id = await captured(stack, t, 20);
  const { token: ops } = await signedInUser(stack.db, stack.apiUrl, t.merchant, ['OPERATIONS']);
  expect((await refund(ops, id, { amount: 1 })).status).toBe(403);
  expect((await call(stack.apiUrl, 'POST', `/api/dashboard/payments/${id}/refunds`, { key: t.shop.key, body: { amount: 1 } })).status).toBe(401);
  // OPERATIONS still reads the list (it sees payments)
  expect((await call(stack.apiUrl, 'GET', `/api/dashboard/payments/${id}/refunds`, { token: ops })).status).toBe(200);
  const { token: admin } = await signedInUser(stack.db, stack.apiUrl, t.merchant, ['ADMIN']);
  const tooMany = await refund(admin, id, { amount: 20.01 });
  expect(tooMany.status).toBe(409);
  expect(tooMany.body.message).toContain('amount');
  const decimals = await refund(admin, id, { amount: 1.001 });
  expect(decimals.status).toBe(400);
  expect(decimals.body.message).toContain('amount');
  expect((await refund(admin, id, { amount: 0 })).status).toBe(400);
  expect((await refund(admin, id, { reason: 'x'.repeat(501) })).status).toBe(400);
  expect((await refund(admin, crypto.randomUUID(), { amount: 1 })).status).toBe(404);
  // a payment still waiting, and a voided one: 409
  const waiting = await createPayment(stack, t.shop);
  expect((await refund(admin, waiting.body.id, { amount: 1 })).status).toBe(409);
  await paymentAction(stack, t.shop, waiting.body.id, 'cancel');
  const voided = await captured(stack, t);
  await paymentAction(stack, t.shop, voided, 'void');
  expect((await refund(admin, voided, { amount: 1 })).status).toBe(409);
  expect((await payment(t, id)).body).toMatchObject({ status: 'CAPTURED', refundedAmount: 0 });
});

it('a huge refund amount is 400 naming amount, not 409, and changes nothing', async () => {
  const t = await till(stack);
  const id = await captured(stack, t, 20);
  const huge = (rawBody: string) => call(stack.apiUrl, 'POST', `/api/dashboard/payments/${id}/refunds`, { token: t.finance, rawBody });
  // 1e308, a 309-digit number (past a double's range), and the first amount past the bound every amount shares
  for (const amount of ['1e308', `1${'0'.repeat(308)}`, '1000000000000']) {
    const res = await huge(`{"amount":${amount}}`);
    expect({ amount, status: res.status }).toEqual({ amount, status: 400 });
    expect(res.body.message).toMatch(/^amount: /);
  }
  expect((await call(stack.apiUrl, 'GET', `/api/dashboard/payments/${id}/refunds`, { token: t.finance })).body).toEqual([]);
  expect((await payment(t, id)).body).toMatchObject({ status: 'CAPTURED', refundedAmount: 0 });
});

it('a refund the acquirer decides late is PENDING, then SUCCEEDED; a failed one is FAILED with PAYMENT_REFUND_FAILED', async () => {
  const t = await till(stack, { refundConfirmDelayMs: 3000 });
  const id = await captured(stack, t, 20);
  const pending = await refund(t.finance, id, { amount: 4 });
  expect(pending.status).toBe(201);
  expect(pending.body.status).toBe('PENDING');
  // a pending refund counts against what is refundable
  expect((await refund(t.finance, id, { amount: 16.01 })).status).toBe(409);
  await eventually(async () => ((await stack.db.refund.findUnique({ where: { id: pending.body.id } }))?.status === 'SUCCEEDED' ? true : undefined), 30_000);
  expect((await payment(t, id)).body).toMatchObject({ status: 'PARTIALLY_REFUNDED', refundedAmount: 4 });

  await sim(stack).configure(t.shop.deviceId, { refundOutcome: 'FAILED', refundConfirmDelayMs: 0 });
  const failed = await refund(t.finance, id, { amount: 2 });
  expect(failed.body).toMatchObject({ status: 'FAILED', failureReason: expect.any(String) });
  expect((await payment(t, id)).body).toMatchObject({ status: 'PARTIALLY_REFUNDED', refundedAmount: 4 });
  const event = await eventually(() =>
    stack.db.webhookEvent.findFirst({ where: { paymentId: id, eventType: 'PAYMENT_REFUND_FAILED' } }).then((e) => e ?? undefined),
  );
  expect(JSON.parse(event.body!).data).toMatchObject({ status: 'PARTIALLY_REFUNDED', refund: { id: failed.body.id, status: 'FAILED', amount: '2.00' } });
});

it('an unreachable acquirer leaves the refund PENDING; it is sent again with the same reference and succeeds once', async () => {
  const t = await till(stack);
  const id = await captured(stack, t, 10);
  await sim(stack).configure(t.shop.deviceId, { reachable: false });
  const asked = Date.now();
  const res = await refund(t.finance, id, { amount: 3 });
  console.log(`unreachable refund answered in ${Date.now() - asked} ms`);
  expect(res.status).toBe(201);
  expect(res.body.status).toBe('PENDING');
  await sim(stack).configure(t.shop.deviceId, { reachable: true });
  await eventually(async () => ((await stack.db.refund.findUnique({ where: { id: res.body.id } }))?.status === 'SUCCEEDED' ? true : undefined), 90_000);
  expect((await payment(t, id)).body).toMatchObject({ status: 'PARTIALLY_REFUNDED', refundedAmount: 3 });
  // the acquirer paid it once
  expect((await sim(stack).device(t.shop.deviceId)).body.lastBill.refundedAmount).toBe('3');
}, 150_000);

it('a refund after the payment workflow has ended starts a new run of it (one writer)', async () => {
  const t = await till(stack);
  const id = await captured(stack, t, 8);
  const handle = stack.client.workflow.getHandle(`payment-${id}`);
  await handle.terminate('test: the void window is over');
  const res = await refund(t.finance, id, { amount: 8 });
  expect(res.body.status).toBe('SUCCEEDED');
  expect((await payment(t, id)).body).toMatchObject({ status: 'REFUNDED', refundedAmount: 8 });
});
