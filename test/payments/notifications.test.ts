import { createHmac } from 'node:crypto';
import { signSandboxBody } from '../../src/acquirer/sandbox/notify';
import { call, expectErrorShape } from '../support/http';
import { signedInUser } from '../users/helpers';
import { startTestStack, type TestStack } from '../support/stack';
import { createPayment, history, openShop, sim, sleep, statusBecomes, workflowHandle } from './helpers';

/**
 * POST /internal/acquirer/notifications: verified over the time and the raw body, refused outside
 * the tolerance, and only ever a nudge to re-read the acquirer, passed to the payment's workflow
 * only when there is news. A forged, replayed, stale or flooded notification changes nothing.
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ REFUND_CONFIRM_TIMEOUT_SECONDS: '1' });
});
afterAll(async () => {
  await stack?.stop();
});

const PATH = '/internal/acquirer/notifications';
const notify = (rawBody: string, signature?: string, apiUrl = stack.apiUrl) =>
  call(apiUrl, 'POST', PATH, { rawBody, headers: { 'Content-Type': 'application/json', ...(signature ? { 'X-Sandbox-Signature': signature } : {}) } });

// The stack configures none: `npm start`'s secret generated into its DATA_DIR (src/secrets/installation.ts).
const secret = (): string => stack.config.SANDBOX_NOTIFY_SECRET!;
const eventCount = async (id: string): Promise<number> => (await workflowHandle(stack, id).fetchHistory()).events!.length;
/** How many acquirer notifications reached the payment's workflow (its history's signal events). */
const notifiedSignals = async (id: string): Promise<number> =>
  (await workflowHandle(stack, id).fetchHistory()).events!.filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'acquirerNotified').length;

/** The history's length once it has stopped growing for a second. */
async function settledEventCount(id: string): Promise<number> {
  let last = await eventCount(id);
  for (let quiet = 0; quiet < 5;) {
    await sleep(200);
    const now = await eventCount(id);
    quiet = now === last ? quiet + 1 : 0;
    last = now;
  }
  return last;
}

/** n genuine, freshly signed notifications about one bill, all at once; every one is answered 202. */
async function flood(
  row: { deviceId: string | null; acquirerRef: string | null },
  n: number,
  apiUrl = stack.apiUrl,
  about: Record<string, string> = { event: 'CAPTURED' },
): Promise<void> {
  const body = JSON.stringify({ deviceId: row.deviceId, acquirerRef: row.acquirerRef, ...about });
  const answers = await Promise.all(Array.from({ length: n }, () => notify(body, signSandboxBody(body, secret()), apiUrl)));
  expect(answers.map((a) => a.status)).toEqual(Array(n).fill(202));
}

async function waitingPayment() {
  const shop = await openShop(stack);
  const { body } = await createPayment(stack, shop);
  const row = await stack.db.payment.findUniqueOrThrow({ where: { id: body.id } });
  return { shop, row };
}

describe('acquirer notifications', () => {
  it('a missing or forged signature -> 401, and the payment is untouched', async () => {
    const { row } = await waitingPayment();
    const length = (await workflowHandle(stack, row.id).fetchHistory()).events!.length;
    const body = JSON.stringify({ deviceId: row.deviceId, acquirerRef: row.acquirerRef, event: 'CAPTURED' });
    expectErrorShape(await notify(body), 401);
    expectErrorShape(await notify(body, signSandboxBody(body, 'not-the-shared-secret-at-all')), 401);
    // Signed over a different body than the one sent.
    expectErrorShape(await notify(body.replace('CAPTURED', 'DECLINED'), signSandboxBody(body, secret())), 401);
    await sleep(300);
    expect((await stack.db.payment.findUniqueOrThrow({ where: { id: row.id } })).status).toBe('AWAITING_TERMINAL');
    expect((await workflowHandle(stack, row.id).fetchHistory()).events!.length).toBe(length);
  });

  it('a genuine signature outside the tolerance (a replay, or a clock far off) -> 401, and the payment is untouched', async () => {
    const { row } = await waitingPayment();
    const length = await eventCount(row.id);
    const body = JSON.stringify({ deviceId: row.deviceId, acquirerRef: row.acquirerRef, event: 'CAPTURED' });
    const now = Math.floor(Date.now() / 1000);
    const tolerance = stack.config.SANDBOX_NOTIFY_TOLERANCE_SECONDS;
    expect(tolerance).toBe(300);
    for (const t of [now - tolerance - 5, now + tolerance + 5]) {
      expect(expectErrorShape(await notify(body, signSandboxBody(body, secret(), t)), 401)).toMatch(/timestamp is more than 300 seconds from now/);
    }
    // The old scheme (a bare HMAC of the body, no time) is refused too.
    expectErrorShape(await notify(body, createHmac('sha256', secret()).update(body).digest('base64')), 401);
    expect((await notify(body, signSandboxBody(body, secret(), now - 10))).status).toBe(202);
    await sleep(300);
    expect((await stack.db.payment.findUniqueOrThrow({ where: { id: row.id } })).status).toBe('AWAITING_TERMINAL');
    expect(await eventCount(row.id)).toBe(length);
  });

  it('200 notifications for one payment cost a bounded number of workflow events, and a real change still arrives at once', async () => {
    // A payment captured with no flood: what its capture costs in events.
    const reference = await waitingPayment();
    const referenceWaiting = await settledEventCount(reference.row.id);
    await sim(stack).customer(reference.row.deviceId!, { action: 'pay' });
    await statusBecomes(stack, reference.row.id, 'CAPTURED');
    const captureCost = (await settledEventCount(reference.row.id)) - referenceWaiting;

    const { row } = await waitingPayment();
    const waiting = await settledEventCount(row.id);
    // The acquirer still says WAITING, as the payment knows: nothing to tell its workflow.
    await flood(row, 200);
    const afterFlood = await settledEventCount(row.id);
    expect(afterFlood - waiting).toBeLessThanOrEqual(8);
    expect((await stack.db.payment.findUniqueOrThrow({ where: { id: row.id } })).status).toBe('AWAITING_TERMINAL');

    // The customer pays in the middle of another flood, sent to two API processes: the news is
    // passed on once (claimed across processes), promptly.
    const other = await startTestStack({ SERVICES: 'api', SANDBOX_NOTIFY_SECRET: secret(), SANDBOX_URL: stack.sandboxUrl });
    try {
      const paidAt = Date.now();
      await Promise.all([flood(row, 100), flood(row, 100, other.apiUrl), sim(stack).customer(row.deviceId!, { action: 'pay' }), flood(row, 100, other.apiUrl)]);
      await statusBecomes(stack, row.id, 'CAPTURED');
      expect(Date.now() - paidAt).toBeLessThan(15_000);
      await Promise.all([flood(row, 100), flood(row, 100, other.apiUrl)]);
    } finally {
      await other.stop();
    }
    const captured = await settledEventCount(row.id);
    expect(captured - afterFlood).toBeLessThanOrEqual(captureCost + 8);
    expect((await history(stack, row.id)).map((h) => h.status)).toEqual(['AWAITING_TERMINAL', 'CAPTURED']);
  }, 120_000);

  it.each([
    ['placed by this API process (its acquirer known: the payment read and the news claimed in one statement)', false],
    ['placed by another API process (nothing known where the notification arrives: the payment read first)', true],
  ])(
    'the customer pays for a bill %s -> CAPTURED, the news claimed once',
    async (_, elsewhere) => {
      // The sandbox notifies this stack's API: a payment created through a second API process is unknown to it.
      const other = elsewhere
        ? await startTestStack({
            SERVICES: 'api',
            SANDBOX_NOTIFY_SECRET: secret(),
            SANDBOX_URL: stack.sandboxUrl,
            TEMPORAL_TASK_QUEUE: stack.config.TEMPORAL_TASK_QUEUE,
          })
        : null;
      try {
        const shop = await openShop(stack);
        const { body } = await createPayment(other ?? stack, shop);
        const row = await stack.db.payment.findUniqueOrThrow({ where: { id: body.id } });
        await sim(stack).customer(row.deviceId!, { action: 'pay' });
        await statusBecomes(stack, row.id, 'CAPTURED');
        expect((await history(stack, row.id)).map((h) => h.status)).toEqual(['AWAITING_TERMINAL', 'CAPTURED']);
        const nudges = await stack.db.paymentNudge.findMany({ where: { paymentId: row.id } });
        expect(nudges.map((n) => n.news)).toEqual(['bill:CAPTURED']);
        // The same notification again, at both processes: the payment knows its bill's state now, so nothing more is claimed or signalled.
        const signals = await notifiedSignals(row.id);
        await flood(row, 5);
        if (other) await flood(row, 5, other.apiUrl);
        await sleep(300);
        expect(await stack.db.paymentNudge.count({ where: { paymentId: row.id } })).toBe(1);
        expect(await notifiedSignals(row.id)).toBe(signals);
      } finally {
        await other?.stop();
      }
    },
    60_000,
  );

  it('news that stays news (a refund the acquirer has not decided) is signalled once across API processes, however often it is notified', async () => {
    const shop = await openShop(stack, { device: { refundConfirmDelayMs: 120_000 } });
    const { body } = await createPayment(stack, shop);
    await sim(stack).customer(shop.deviceId, { action: 'pay' });
    await statusBecomes(stack, body.id, 'CAPTURED');
    const merchant = await stack.db.merchant.findUniqueOrThrow({ where: { id: shop.merchantId } });
    const { token } = await signedInUser(stack.db, stack.apiUrl, merchant, ['FINANCE']);
    const refund = await call(stack.apiUrl, 'POST', `/api/dashboard/payments/${body.id}/refunds`, { token, body: { amount: 1 } });
    expect(refund.body.status).toBe('PENDING');
    const row = await stack.db.payment.findUniqueOrThrow({ where: { id: body.id } });
    const { refundReference } = await stack.db.refund.findUniqueOrThrow({ where: { id: refund.body.id } });
    const before = await notifiedSignals(row.id);
    const started = Date.now();
    const other = await startTestStack({ SERVICES: 'api', SANDBOX_NOTIFY_SECRET: secret(), SANDBOX_URL: stack.sandboxUrl });
    try {
      // Wave after wave at both processes: each finds the refund still PENDING, i.e. news.
      const about = { event: 'REFUND_SUCCEEDED', refundReference };
      for (let wave = 0; wave < 4; wave++) await Promise.all([flood(row, 25, stack.apiUrl, about), flood(row, 25, other.apiUrl, about)]);
    } finally {
      await other.stop();
    }
    // One signal: the workflow asked the acquirer once (it still says PENDING); the same news is
    // signalled again 30 s later at the earliest (a slow machine may take that long over the waves).
    const elapsed = Date.now() - started;
    await sleep(1000);
    const signals = (await notifiedSignals(row.id)) - before;
    expect(signals).toBeGreaterThanOrEqual(1);
    expect(signals).toBeLessThanOrEqual(1 + Math.floor(elapsed / 30_000));
    expect((await stack.db.refund.findUniqueOrThrow({ where: { id: refund.body.id } })).status).toBe('PENDING');
  }, 120_000);

  it('a genuine but stale notification is only a nudge: the workflow re-reads the acquirer and nothing changes', async () => {
    const { row } = await waitingPayment();
    const body = JSON.stringify({ deviceId: row.deviceId, acquirerRef: row.acquirerRef, event: 'CAPTURED' });
    const res = await notify(body, signSandboxBody(body, secret()));
    expect(res.status).toBe(202);
    await sleep(500);
    expect((await stack.db.payment.findUniqueOrThrow({ where: { id: row.id } })).status).toBe('AWAITING_TERMINAL');
    expect(await history(stack, row.id)).toHaveLength(1);
  });

  it('a notification for a bill the service does not know -> 202 and nothing happens', async () => {
    const body = JSON.stringify({ deviceId: 'dev-unknown', acquirerRef: 'sbx_unknown', event: 'CAPTURED' });
    expect((await notify(body, signSandboxBody(body, secret()))).status).toBe(202);
  });
});
