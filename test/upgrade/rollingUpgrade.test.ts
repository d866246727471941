import path from 'node:path';
import { ChildWorkers } from '../support/childWorkers';
import { call } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';
import { createPayment, history, openShop, paymentAction, sim, statusBecomes, workflowHandle } from '../payments/helpers';
import { captured, refundAs, till } from '../refunds/helpers';
import { NEXT_RELEASE_PATCH, nextReleaseBundle } from './nextRelease';

/**
 * A rolling upgrade with payments open (issue 30, docs/operations.md "Upgrading with payments
 * open"): payments waiting at the terminal, authorised, captured inside the void window, and with
 * a refund pending run on a worker of this release; that worker stops, a worker of the next
 * release (a patch added the documented way: test/upgrade/nextRelease.ts) takes over the task
 * queue, and every payment finishes correctly: no workflow task fails on the changed code, each
 * replays its old history and takes the new branch for what happens after the upgrade.
 */
let stack: TestStack;
const workers = new ChildWorkers('upgrade', () => stack);
let nextBundle: string;

beforeAll(async () => {
  stack = await startTestStack({ SERVICES: 'api,sandbox', TEMPORAL_TASK_QUEUE: workers.queue });
  nextBundle = await nextReleaseBundle(path.join(process.env.TEST_ROOT!, workers.queue));
}, 120_000);
afterAll(async () => {
  await workers.stopAll();
  await stack?.stop();
});

const capture = (key: string, id: string) => call(stack.apiUrl, 'POST', `/api/in-store/payments/${id}/capture`, { key });

/** The payment's workflow history: the patches it recorded and whether any workflow task failed (non-determinism shows there). */
async function runOf(paymentId: string) {
  const handle = workflowHandle(stack, paymentId);
  const events = (await handle.fetchHistory()).events ?? [];
  const markerTexts = events.flatMap((e) =>
    Object.values(e.markerRecordedEventAttributes?.details ?? {}).flatMap((p) => (p.payloads ?? []).map((x) => Buffer.from(x.data ?? []).toString('utf8'))),
  );
  return {
    workflowTaskFailures: events.filter((e) => e.workflowTaskFailedEventAttributes).length,
    nextReleaseMarker: markerTexts.some((t) => t.includes(NEXT_RELEASE_PATCH)),
    memo: (await handle.describe()).memo ?? {},
  };
}

it('payments open on the old worker finish on the next release; new ones take its branch', async () => {
  await workers.start();

  // Open on the old code: one waiting at the terminal, one authorised, one captured (inside its void window), one with a refund pending.
  const waitingShop = await openShop(stack);
  const waiting = (await createPayment(stack, waitingShop, { amount: 11 })).body.id as string;
  await statusBecomes(stack, waiting, 'AWAITING_TERMINAL');

  const twoStepShop = await openShop(stack, { twoStep: true, device: { twoStep: true } });
  const authorized = (await createPayment(stack, twoStepShop, { amount: 22 })).body.id as string;
  await sim(stack).customer(twoStepShop.deviceId, { action: 'pay' });
  await statusBecomes(stack, authorized, 'AUTHORIZED');

  const voidTill = await till(stack);
  const toVoid = await captured(stack, voidTill, 33);

  const refundTill = await till(stack, { refundConfirmDelayMs: 20_000 });
  const refunded = await captured(stack, refundTill, 44);
  const refund = await refundAs(stack, refundTill, refunded, 4);
  expect(refund.status).toBe(201);
  expect(refund.body.status).toBe('PENDING');

  // The upgrade: the old worker stops (in order), the next release's worker takes the queue.
  await workers.current!.stop();
  await workers.start({ WORKFLOW_BUNDLE: nextBundle });

  await sim(stack).customer(waitingShop.deviceId, { action: 'pay' });
  expect((await statusBecomes(stack, waiting, 'CAPTURED', 30_000)).status).toBe('CAPTURED');
  const completed = await capture(twoStepShop.key, authorized);
  expect(completed.status).toBe(200);
  expect(completed.body).toMatchObject({ status: 'CAPTURED', capturedAmount: 22 });
  const voided = await paymentAction(stack, voidTill.shop, toVoid, 'void');
  expect(voided.status).toBe(200);
  expect((await statusBecomes(stack, toVoid, 'CANCELLED', 30_000)).status).toBe('CANCELLED');
  const afterRefund = await statusBecomes(stack, refunded, 'PARTIALLY_REFUNDED', 60_000);
  expect(afterRefund).toMatchObject({ refundedAmount: expect.anything() });
  expect((await stack.db.refund.findUniqueOrThrow({ where: { id: refund.body.id } })).status).toBe('SUCCEEDED');

  // A payment begun after the upgrade runs on the next release from its first event.
  const fresh = (await createPayment(stack, waitingShop, { amount: 55 })).body.id as string;
  await sim(stack).customer(waitingShop.deviceId, { action: 'pay' });
  await statusBecomes(stack, fresh, 'CAPTURED', 30_000);

  for (const id of [waiting, authorized, toVoid, refunded, fresh]) {
    const run = await runOf(id);
    expect({ id, failures: run.workflowTaskFailures }).toEqual({ id, failures: 0 });
    // Each applied an event after the upgrade: the new branch ran, recorded its marker and stamped the memo.
    expect({ id, marker: run.nextReleaseMarker, memo: run.memo }).toEqual({ id, marker: true, memo: { codeVersion: 2 } });
  }
  // Each status once in the books, as without an upgrade.
  expect((await history(stack, waiting)).map((h) => h.status)).toEqual(['AWAITING_TERMINAL', 'CAPTURED']);
  expect((await history(stack, authorized)).map((h) => h.status)).toEqual(['AWAITING_TERMINAL', 'AUTHORIZED', 'CAPTURED']);
}, 180_000);
