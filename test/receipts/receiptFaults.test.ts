import { call } from '../support/http';
import { ChildWorkers } from '../support/childWorkers';
import { type TestStack, startTestStack } from '../support/stack';
import { createPayment, eventually, openShop, sim, sleep, statusBecomes, type Shop } from '../payments/helpers';
import { signedInUser } from '../users/helpers';
import { mailbox, mailsFor } from './helpers';

/**
 * Receipt emails when things go wrong (docs/receipts.md, "When the mail server is down"): the
 * mailbox refuses mail (SMTP 421) while payments are captured and refunded, and the worker is
 * killed (kill -9) while it retries; once the mailbox accepts again and a worker runs, each receipt
 * arrives exactly once. The API and the sandbox (with its mailbox) run in this process, the worker
 * in a child process on the same task queue, as in a split deployment.
 */
let stack: TestStack;
const workers = new ChildWorkers('receipts', () => stack);
const WORKER_ENV = { RECEIPT_RETRY_MAX_INTERVAL_SECONDS: '1', RECEIPT_ATTEMPT_TIMEOUT_SECONDS: '5', REFUND_CONFIRM_TIMEOUT_SECONDS: '2' };

beforeAll(async () => {
  stack = await startTestStack({ SERVICES: 'api,sandbox', TEMPORAL_TASK_QUEUE: workers.queue, ...WORKER_ENV });
});
afterAll(async () => {
  await mailbox(stack).accepting(true);
  await workers.stopAll();
  await stack?.stop();
});

async function captured(shop: Shop, customerEmail: string): Promise<{ id: string; pspReference: string }> {
  const created = await createPayment(stack, shop, { customerEmail });
  await sim(stack).customer(shop.deviceId, { action: 'pay', last4: '4242' });
  await statusBecomes(stack, created.body.id, 'CAPTURED', 30_000);
  return { id: created.body.id, pspReference: created.body.pspReference };
}

it('delays receipts while the mailbox refuses and across a killed worker, then delivers each exactly once', async () => {
  await workers.start({ SMTP_URL: stack.mailUrl!, ...WORKER_ENV });
  const shop = await openShop(stack);
  const merchant = await stack.db.merchant.findUniqueOrThrow({ where: { id: shop.merchantId } });
  const { token } = await signedInUser(stack.db, stack.apiUrl, merchant, ['FINANCE']);
  const to = `down.${Date.now()}@example.com`;

  const closed = await mailbox(stack).accepting(false);
  expect(closed.accepting).toBe(false);
  const a = await captured(shop, to);
  const b = await captured(shop, to);
  const refund = await call(stack.apiUrl, 'POST', `/api/dashboard/payments/${a.id}/refunds`, { token, body: { amount: 2.5 } });
  expect(refund.status).toBe(201);
  // The mailbox really refused the attempts (each receipt at least once).
  await eventually(async () => ((await mailbox(stack).accepting(false)).refused >= closed.refused + 3 ? true : undefined), 20_000, 200);
  expect((await mailbox(stack).read()).filter((m) => m.to === to)).toEqual([]);

  // The worker dies while it retries; the mail server comes back before a new worker does.
  await workers.killHard();
  await mailbox(stack).accepting(true);
  await sleep(500);
  expect((await mailbox(stack).read()).filter((m) => m.to === to)).toEqual([]);
  await workers.start({ SMTP_URL: stack.mailUrl!, ...WORKER_ENV });

  const ofA = await mailsFor(stack, to, a.pspReference, 2, 30_000);
  const ofB = await mailsFor(stack, to, b.pspReference, 1, 30_000);
  // Past the attempt timeout and a few retry intervals: nothing more comes.
  await sleep(6000);
  const all = (await mailbox(stack).read()).filter((m) => m.to === to);
  expect(all).toHaveLength(3);
  expect(ofA.map((m) => m.subject.split(' from ')[0]).sort()).toEqual(['Refund receipt', 'Your receipt']);
  expect(ofB.map((m) => m.subject.split(' from ')[0])).toEqual(['Your receipt']);
  expect(new Set(all.map((m) => m.messageId)).size).toBe(3);
  // One RECEIPT_SENT each, none FAILED. (A run the killed worker held comes back after its sticky queue's timeout, some 10 s.)
  const events = await eventually(
    async () => {
      const found = await stack.db.webhookEvent.findMany({ where: { paymentId: { in: [a.id, b.id] }, eventType: { startsWith: 'RECEIPT_' } } });
      return found.length >= 3 ? found : undefined;
    },
    30_000,
    250,
  );
  await sleep(500);
  expect(
    (await stack.db.webhookEvent.findMany({ where: { paymentId: { in: [a.id, b.id] }, eventType: { startsWith: 'RECEIPT_' } } })).map((e) => e.eventType),
  ).toEqual(['RECEIPT_SENT', 'RECEIPT_SENT', 'RECEIPT_SENT']);
  expect(events).toHaveLength(3);
}, 120_000);

it('gives up after RECEIPT_RETRY_MAX_AGE_HOURS while the mailbox refuses: RECEIPT_FAILED with the address masked, no email later', async () => {
  // A worker whose schedule lasts 4 seconds.
  await workers.killHard();
  await workers.start({ SMTP_URL: stack.mailUrl!, ...WORKER_ENV, RECEIPT_RETRY_MAX_AGE_HOURS: '0.0011' });
  const shop = await openShop(stack);
  const to = `gone.${Date.now()}@example.com`;
  await mailbox(stack).accepting(false);
  const p = await captured(shop, to);
  const failed = await eventually(
    async () => (await stack.db.webhookEvent.findMany({ where: { paymentId: p.id, eventType: { startsWith: 'RECEIPT_' } } }))[0],
    30_000,
    200,
  );
  expect(failed.eventType).toBe('RECEIPT_FAILED');
  expect(JSON.parse(failed.body!).data).toEqual({ receipt: { paymentId: p.id, to: 'g***@example.com', event: 'CAPTURED' } });
  await mailbox(stack).accepting(true);
  await sleep(3000);
  expect((await mailbox(stack).read()).filter((m) => m.to === to)).toEqual([]);
}, 90_000);
