import Decimal from 'decimal.js';
import { createLogger } from '../../src/logger';
import { resumePendingRefunds } from '../../src/refunds/recovery';
import { refundReferenceOf } from '../../core/payment/messages';
import { call } from '../support/http';
import { type TestStack, startTestStack } from '../support/stack';
import { eventually, history, sim, workflowHandle } from '../payments/helpers';
import { captured, till, type Till, refundAs } from './helpers';
import { orphanRefund } from './orphanRefund';

/**
 * Recovery of a refund left PENDING with no run deciding it (docs/refunds.md, "Recovery"): the run
 * that took it was terminated, or the row was left by a run that lost it. The sweep's refund step
 * hands it to the payment's workflow (a new run from the row, or the running one), which
 * re-submits it with its stable reference: the acquirer pays it once.
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ REFUND_CONFIRM_TIMEOUT_SECONDS: '1', VOID_WINDOW_MINUTES: '60' });
});
afterAll(async () => {
  await stack?.stop();
});

const sweepRefunds = (paymentId: string) =>
  resumePendingRefunds(
    { config: stack.config, db: stack.db, temporal: stack.client, logger: createLogger('silent') },
    { paymentIds: [paymentId], minAgeMs: 0 },
  );
const refundRow = (id: string) => stack.db.refund.findUniqueOrThrow({ where: { id } });
const decided = (id: string, timeoutMs = 60_000) =>
  eventually(async () => ((await refundRow(id)).status !== 'PENDING' ? refundRow(id) : undefined), timeoutMs, 200);
const atAcquirer = (t: Till, refundId: string) =>
  call(stack.sandboxUrl, 'GET', `/acquirer/v1/devices/${t.shop.deviceId}/refunds/${refundReferenceOf(refundId)}`);

/** The run is terminated while the refund is PENDING; the sweep must find it. */
async function terminateRun(paymentId: string): Promise<void> {
  await workflowHandle(stack, paymentId).terminate('test: the run that follows the refund is lost');
}

it('a refund the acquirer never received (unreachable), its run terminated: the sweep starts a run that submits it once', async () => {
  const t = await till(stack);
  const id = await captured(stack, t, 12);
  await sim(stack).configure(t.shop.deviceId, { reachable: false });
  const res = await refundAs(stack, t, id, 5);
  expect(res.status).toBe(201);
  expect(res.body.status).toBe('PENDING');
  await terminateRun(id);
  await sim(stack).configure(t.shop.deviceId, { reachable: true });
  // nothing follows it any more: it stays PENDING
  expect((await refundRow(res.body.id)).status).toBe('PENDING');
  expect((await atAcquirer(t, res.body.id)).status).toBe(404);

  expect(await sweepRefunds(id)).toMatchObject({ considered: 1, resumed: 1, failed: 0 });
  expect((await decided(res.body.id)).status).toBe('SUCCEEDED');
  expect((await call(stack.apiUrl, 'GET', `/api/transactions/${id}`, { key: t.shop.key })).body).toMatchObject({
    status: 'PARTIALLY_REFUNDED',
    refundedAmount: 5,
  });
  // once at the acquirer, once in the history
  expect((await atAcquirer(t, res.body.id)).body).toMatchObject({ state: 'SUCCEEDED', amount: '5' });
  expect((await sim(stack).device(t.shop.deviceId)).body.lastBill.refundedAmount).toBe('5');
  expect((await history(stack, id)).filter((h) => h.actionReference === refundReferenceOf(res.body.id))).toHaveLength(1);
  // a second sweep finds nothing to do
  expect(await sweepRefunds(id)).toMatchObject({ considered: 0, resumed: 0 });
}, 120_000);

it('a refund the acquirer has but has not decided, its run terminated: the new run re-submits the same reference and it is paid once', async () => {
  const t = await till(stack, { refundConfirmDelayMs: 6000 });
  const id = await captured(stack, t, 20);
  const res = await refundAs(stack, t, id, 7.5);
  expect(res.body.status).toBe('PENDING');
  expect((await atAcquirer(t, res.body.id)).body.state).toBe('PENDING');
  await terminateRun(id);

  expect(await sweepRefunds(id)).toMatchObject({ resumed: 1, failed: 0 });
  // the new run follows it: still allowed to refund only what is left (20 - 7.5 pending)
  expect((await refundAs(stack, t, id, 12.51)).status).toBe(409);
  expect((await decided(res.body.id)).status).toBe('SUCCEEDED');
  expect((await call(stack.apiUrl, 'GET', `/api/transactions/${id}`, { key: t.shop.key })).body).toMatchObject({
    status: 'PARTIALLY_REFUNDED',
    refundedAmount: 7.5,
  });
  expect((await atAcquirer(t, res.body.id)).body).toMatchObject({ state: 'SUCCEEDED' });
  expect(new Decimal((await sim(stack).device(t.shop.deviceId)).body.lastBill.refundedAmount).toFixed()).toBe('7.5');
  expect((await history(stack, id)).filter((h) => h.actionReference === refundReferenceOf(res.body.id))).toHaveLength(1);
  const events = await eventually(async () => {
    const rows = await stack.db.webhookEvent.findMany({ where: { paymentId: id, eventType: 'PAYMENT_REFUNDED' } });
    return rows.length > 0 ? rows : undefined;
  });
  expect(events).toHaveLength(1);
}, 120_000);

it('PENDING rows the running run does not follow (a lost task) are handed to it: one that fits is paid, one that no longer fits fails unsent', async () => {
  const t = await till(stack);
  const id = await captured(stack, t, 10);
  const payment = await stack.db.payment.findUniqueOrThrow({ where: { id } });
  // rows as a workflow task that never completed leaves them: written, never taken by the run
  const orphan = (amount: string) => orphanRefund(stack.db, payment, amount);
  const fits = await orphan('6');
  const tooMuch = await orphan('5'); // with the first, more than was captured
  expect((await workflowHandle(stack, id).describe()).status.name).toBe('RUNNING');

  expect(await sweepRefunds(id)).toMatchObject({ considered: 2, resumed: 2, failed: 0 });
  expect((await decided(fits.id)).status).toBe('SUCCEEDED');
  const refused = await decided(tooMuch.id);
  expect(refused).toMatchObject({ status: 'FAILED', failureReason: expect.stringContaining('never sent') });
  expect((await atAcquirer(t, tooMuch.id)).status).toBe(404);
  expect((await call(stack.apiUrl, 'GET', `/api/transactions/${id}`, { key: t.shop.key })).body).toMatchObject({
    status: 'PARTIALLY_REFUNDED',
    refundedAmount: 6,
  });
  expect((await sim(stack).device(t.shop.deviceId)).body.lastBill.refundedAmount).toBe('6');
  // asked again: nothing is left to do
  expect(await sweepRefunds(id)).toMatchObject({ considered: 0, resumed: 0 });
}, 120_000);
