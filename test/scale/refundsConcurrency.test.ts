import Decimal from 'decimal.js';
import { call, type HttpResult } from '../support/http';
import { type TestStack } from '../support/stack';
import { openShop, type Shop } from '../payments/helpers';
import { signedInUser } from '../users/helpers';
import { eventually as eventuallyWithin, startScaleStack, type ScaleStack } from './scaleStack';
import { replayPaymentRuns } from './replayRuns';

/**
 * Concurrent refunds (docs/refunds.md, "Rules") never add up to more than capturedAmount, across any number of
 * API processes. Many refunds of one captured payment, mixed amounts and each with its own
 * Idempotency-Key, fired at once through two API processes (two workers behind them) on one
 * database and one Temporal. While they run, the refunds that are not FAILED never add up to more
 * than the captured amount; each request is answered 201 or refused with 409 naming `amount`; at
 * the end the payment's refundedAmount is the sum of the succeeded refunds, its status follows,
 * and the sandbox acquirer paid exactly those refunds, each once.
 */
const CAPTURED = 100;
const REQUESTS = 40;
// Mixed amounts (some with cents), and two requests for "all that is left".
const amountOf = (i: number): number | undefined => (i === 7 || i === 29 ? undefined : [1, 2.5, 5, 7.25, 10, 0.99][i % 6]);

let stack: ScaleStack;
let shop: Shop;
let finance: string;

beforeAll(async () => {
  stack = await startScaleStack({ REFUND_CONFIRM_TIMEOUT_SECONDS: '5' });
  // openShop needs only the database and the sandbox of a stack
  shop = await openShop({ db: stack.db, sandboxUrl: stack.sandboxUrl } as unknown as TestStack, { device: { refundConfirmDelayMs: 150 } });
  const merchant = await stack.db.merchant.findUniqueOrThrow({ where: { id: shop.merchantId } });
  finance = (await signedInUser(stack.db, stack.apiUrls[0], merchant, ['FINANCE'])).token;
}, 120_000);

afterAll(async () => {
  await stack?.stop();
}, 30_000);

/** Refunds through a scaled-out stack may take long: two minutes unless told. */
const eventually = <T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 120_000): Promise<T> => eventuallyWithin(check, what, timeoutMs);

/** A refund request as a careful client sends it: a 503 is sent again, with the same Idempotency-Key, after a moment. */
async function refund(apiUrl: string, paymentId: string, amount: number | undefined, idempotencyKey: string): Promise<{ res: HttpResult; retried: number }> {
  for (let attempt = 0; ; attempt++) {
    const res = await call(apiUrl, 'POST', `/api/dashboard/payments/${paymentId}/refunds`, {
      token: finance,
      headers: { 'Idempotency-Key': idempotencyKey },
      body: amount === undefined ? { reason: 'concurrency test' } : { amount, reason: 'concurrency test' },
    });
    if (res.status !== 503 || attempt >= 5) return { res, retried: attempt };
    await new Promise((r) => setTimeout(r, 1000));
  }
}

it(`${REQUESTS} refunds at once through two API processes never exceed capturedAmount`, async () => {
  const created = await call(stack.apiUrls[0], 'POST', '/api/in-store/payments', {
    key: shop.key,
    body: {
      merchantExternalId: shop.merchantExternalId,
      storeExternalId: shop.storeExternalId,
      terminalExternalId: shop.terminalExternalId,
      amount: CAPTURED,
      currency: 'EUR',
    },
  });
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  expect((await call(stack.sandboxUrl, 'POST', `/sim/devices/${shop.deviceId}/customer`, { body: { action: 'pay' } })).status).toBe(200);
  await eventually(async () => ((await stack.db.payment.findUnique({ where: { id } }))?.status === 'CAPTURED' ? true : undefined), 'CAPTURED');

  // Watches the refund rows the whole time: what is not FAILED never exceeds the captured amount.
  let watching = true;
  let highest = new Decimal(0);
  const watcher = (async () => {
    while (watching) {
      const rows = await stack.db.refund.findMany({ where: { paymentId: id, status: { in: ['PENDING', 'SUCCEEDED'] } }, select: { amount: true } });
      const sum = rows.reduce((s, r) => s.plus(r.amount.toFixed()), new Decimal(0));
      if (sum.gt(highest)) highest = sum;
      await new Promise((r) => setTimeout(r, 50));
    }
  })();

  const answers = await Promise.all(
    Array.from({ length: REQUESTS }, (_, i) => refund(stack.apiUrls[i % 2], id, amountOf(i), `concurrent-${id}-${i}`).then((r) => ({ i, ...r }))),
  );
  try {
    // Every refund accepted is followed to its decision.
    await eventually(
      async () => ((await stack.db.refund.count({ where: { paymentId: id, status: 'PENDING' } })) === 0 ? true : undefined),
      'no refund PENDING',
    );
  } finally {
    watching = false;
    await watcher;
  }

  // 201; or 200 when a request answered 503 was sent again and met the refund it had created
  for (const a of answers) if (a.res.status === 200) expect(a.retried).toBeGreaterThan(0);
  const accepted = answers.filter((a) => a.res.status === 201 || a.res.status === 200);
  const refused = answers.filter((a) => !accepted.includes(a));
  const finalStatus = (await stack.db.payment.findUniqueOrThrow({ where: { id } })).status;
  for (const { res } of refused) {
    // the documented refusals, in the API's error shape: 409 naming amount, or 409 once the payment is REFUNDED (final)
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ status: 409, error: expect.any(String), message: expect.any(String) });
    if (!res.body.message.includes('amount')) {
      expect(finalStatus).toBe('REFUNDED');
      expect(res.body.message).toContain('the payment is REFUNDED');
    }
  }
  expect(accepted.length).toBeGreaterThan(0);
  expect(refused.length).toBeGreaterThan(0); // the amounts asked add up to far more than was captured
  const acceptedSum = accepted.reduce((s, a) => s.plus(a.res.body.amount), new Decimal(0));
  if (acceptedSum.gt(CAPTURED)) {
    const rows = await stack.db.refund.findMany({ where: { paymentId: id } });
    console.log(
      JSON.stringify({
        answers: answers.map((a) => ({
          i: a.i,
          status: a.res.status,
          retried: a.retried,
          id: a.res.body.id,
          amount: a.res.body.amount,
          st: a.res.body.status,
        })),
        rows: rows.map((r) => [r.id, r.amount.toFixed(), r.status, r.idempotencyKey]),
      }),
    );
  }
  expect(acceptedSum.lte(CAPTURED)).toBe(true);
  expect(highest.lte(CAPTURED)).toBe(true);

  // Rows: one per accepted request, none for a refused one; all SUCCEEDED (the acquirer refuses none that fit).
  const rows = await stack.db.refund.findMany({ where: { paymentId: id } });
  expect(rows.map((r) => r.id).sort()).toEqual(accepted.map((a) => a.res.body.id as string).sort());
  expect(rows.every((r) => r.status === 'SUCCEEDED')).toBe(true);
  const succeeded = rows.reduce((s, r) => s.plus(r.amount.toFixed()), new Decimal(0));
  expect(succeeded.toFixed()).toBe(acceptedSum.toFixed());

  // The payment: refundedAmount is the sum of succeeded refunds, status follows it.
  const payment = (await call(stack.apiUrls[1], 'GET', `/api/transactions/${id}`, { key: shop.key })).body;
  expect(new Decimal(payment.refundedAmount).toFixed()).toBe(succeeded.toFixed());
  expect(payment.capturedAmount).toBe(CAPTURED);
  expect(payment.status).toBe(succeeded.eq(CAPTURED) ? 'REFUNDED' : 'PARTIALLY_REFUNDED');
  // A refused request was refused because too little was left: the smallest amount asked no longer fits.
  const left = new Decimal(CAPTURED).minus(succeeded);
  expect(left.lt(0.99) || refused.every((a) => amountOf(a.i) !== undefined && left.lt(amountOf(a.i)!))).toBe(true);

  // The acquirer paid each refund once, by its reference, and no more than that in total.
  const device = await call(stack.sandboxUrl, 'GET', `/sim/devices/${shop.deviceId}`);
  expect(new Decimal(device.body.lastBill.refundedAmount).toFixed()).toBe(succeeded.toFixed());
  for (const r of rows) {
    const atAcquirer = await call(stack.sandboxUrl, 'GET', `/acquirer/v1/devices/${shop.deviceId}/refunds/${r.refundReference}`);
    expect(atAcquirer.body).toMatchObject({ refundReference: `REFUND-${r.id}`, state: 'SUCCEEDED' });
    expect(new Decimal(atAcquirer.body.amount).toFixed()).toBe(r.amount.toFixed());
  }
  // Every run of the payment replays: concurrent refund handlers issue their commands in the
  // same order on a worker that replays the history as on the worker that first ran it.
  const replay = await replayPaymentRuns(id);
  expect(replay.failures).toEqual([]);
  expect(replay.runs).toBeGreaterThan(0);

  const retried = answers.filter((a) => a.retried > 0).length;
  console.log(
    `concurrent refunds: ${accepted.length} accepted (${acceptedSum.toFixed()} of ${CAPTURED}), ${refused.length} refused with 409, ${retried} sent again after a 503`,
  );
}, 300_000);
