import { refundReferenceOf, resumeRefundsSignal } from '../../core/payment/messages';
import { call, expectErrorShape } from '../support/http';
import { type TestStack, startTestStack } from '../support/stack';
import { eventually, paymentAction, sim, sleep, statusBecomes, workflowHandle } from '../payments/helpers';
import { captured, till, type Till, refundAs } from './helpers';
import { orphanRefund } from './orphanRefund';

/**
 * Money goes back once (issue 22): a refund is refused while a reversal of the payment is under
 * way, and a payment's workflow pays only refunds that exist as accepted rows, whoever signals it.
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ REFUND_CONFIRM_TIMEOUT_SECONDS: '1', VOID_CONFIRM_TIMEOUT_SECONDS: '1' });
});
afterAll(async () => {
  await stack?.stop();
});

const payment = async (t: Till, id: string) => (await call(stack.apiUrl, 'GET', `/api/transactions/${id}`, { key: t.shop.key })).body;
/** What the acquirer paid back on the device's last bill (the sandbox's own books). */
const refundedAtAcquirer = async (t: Till): Promise<number> => Number((await sim(stack).device(t.shop.deviceId)).body.lastBill?.refundedAmount ?? 0);
const atAcquirer = (t: Till, refundId: string) =>
  call(stack.sandboxUrl, 'GET', `/acquirer/v1/devices/${t.shop.deviceId}/refunds/${refundReferenceOf(refundId)}`);

it('a refund while a void is pending: 409 naming the void, nothing paid back; the void then confirms and the books show it', async () => {
  const t = await till(stack, { voidConfirmDelayMs: 4000 });
  const id = await captured(stack, t, 10);
  const voided = await paymentAction(stack, t.shop, id, 'void');
  expect(voided.status).toBe(200);
  expect(voided.body.status).toBe('CAPTURED'); // reversal accepted, not confirmed yet

  const res = await refundAs(stack, t, id, 10);
  expect(expectErrorShape(res, 409)).toMatch(/void of this payment is under way/);
  expect(await stack.db.refund.count({ where: { paymentId: id } })).toBe(0);

  await statusBecomes(stack, id, 'CANCELLED', 20_000);
  expect(await payment(t, id)).toMatchObject({ status: 'CANCELLED', refundedAmount: 0 });
  expect(await refundedAtAcquirer(t)).toBe(0);
  // voided: nothing to refund any more
  expect((await refundAs(stack, t, id, 10)).status).toBe(409);
}, 60_000);

it('a void and a refund sent together: only one of them moves money', async () => {
  const t = await till(stack, { latencyMs: 400, voidConfirmDelayMs: 0 });
  const id = await captured(stack, t, 8);
  const [voided, refunded] = await Promise.all([paymentAction(stack, t.shop, id, 'void'), refundAs(stack, t, id, 8)]);
  const after = await eventually(async () => {
    const p = await payment(t, id);
    return p.status === 'CANCELLED' || p.status === 'REFUNDED' ? p : undefined;
  }, 20_000);
  if (after.status === 'CANCELLED') {
    expect(voided.status).toBe(200);
    expect(refunded.status).toBe(409);
    expect(await refundedAtAcquirer(t)).toBe(0);
  } else {
    expect(refunded.status).toBe(201);
    expect(voided.status).toBe(409);
    expect(await refundedAtAcquirer(t)).toBe(8);
  }
}, 60_000);

it('a resumeRefunds signal carrying a made-up refund (as the Temporal UI could send) pays nothing; a real row is paid at its own amount', async () => {
  const t = await till(stack);
  const id = await captured(stack, t, 10);
  const handle = workflowHandle(stack, id);
  const madeUp = '00000000-0000-4000-8000-000000000001';
  await handle.signal(resumeRefundsSignal, [
    { id: madeUp, amount: '10', reason: null, createdBy: 'nobody', createdByUserId: null, idempotencyKey: null, requestFingerprint: null },
  ]);
  // a real PENDING row the run does not follow, handed over with a forged amount: paid as the row says
  const row = await orphanRefund(stack.db, await stack.db.payment.findUniqueOrThrow({ where: { id } }), '4');
  await handle.signal(resumeRefundsSignal, [
    { id: row.id, amount: '10', reason: null, createdBy: 'nobody', createdByUserId: null, idempotencyKey: null, requestFingerprint: null },
  ]);
  await eventually(async () => ((await stack.db.refund.findUniqueOrThrow({ where: { id: row.id } })).status === 'SUCCEEDED' ? true : undefined), 20_000);
  await sleep(500);
  expect((await atAcquirer(t, madeUp)).status).toBe(404);
  expect(await refundedAtAcquirer(t)).toBe(4);
  expect(await payment(t, id)).toMatchObject({ status: 'PARTIALLY_REFUNDED', refundedAmount: 4 });
  expect(await stack.db.refund.count({ where: { id: madeUp } })).toBe(0);
  // nothing left to publish for a refund that never was: the run ends (refunded: no void window left)
  await eventually(async () => ((await handle.describe()).status.name === 'COMPLETED' ? true : undefined), 20_000);
}, 60_000);
