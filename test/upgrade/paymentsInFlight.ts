import type { WorkflowHandle } from '@temporalio/client';
import { decodeVersioningBehavior } from '@temporalio/common';
import { call } from '../support/http';
import type { TestStack } from '../support/stack';
import { createPayment, history, openShop, paymentAction, type Shop, sim, statusBecomes, workflowHandle } from '../payments/helpers';
import { captured, refundAs, type Till, till } from '../refunds/helpers';
import { NEXT_RELEASE_PATCH } from './nextRelease';

/**
 * The payments an upgrade test leaves open across the upgrade (test/upgrade/*.test.ts), one of
 * each kind a worker may be in the middle of: waiting at the terminal, authorised (two-step),
 * captured inside its void window, and captured with a refund pending at the acquirer.
 */
export interface PaymentsInFlight {
  waitingShop: Shop;
  waiting: string;
  twoStepShop: Shop;
  authorized: string;
  voidTill: Till;
  toVoid: string;
  refundTill: Till;
  refunded: string;
  refundId: string;
}

export const paymentIds = (p: PaymentsInFlight): string[] => [p.waiting, p.authorized, p.toVoid, p.refunded];

/** Opens one payment of each kind; the refund's acquirer decides it `refundConfirmDelayMs` after the request. */
export async function openPaymentsInFlight(stack: TestStack, refundConfirmDelayMs: number): Promise<PaymentsInFlight> {
  const waitingShop = await openShop(stack);
  const waiting = (await createPayment(stack, waitingShop, { amount: 11 })).body.id as string;
  await statusBecomes(stack, waiting, 'AWAITING_TERMINAL');

  const twoStepShop = await openShop(stack, { twoStep: true, device: { twoStep: true } });
  const authorized = (await createPayment(stack, twoStepShop, { amount: 22 })).body.id as string;
  await sim(stack).customer(twoStepShop.deviceId, { action: 'pay' });
  await statusBecomes(stack, authorized, 'AUTHORIZED');

  const voidTill = await till(stack);
  const toVoid = await captured(stack, voidTill, 33);

  const refundTill = await till(stack, { refundConfirmDelayMs });
  const refunded = await captured(stack, refundTill, 44);
  const refund = await refundAs(stack, refundTill, refunded, 4);
  expect(refund.status).toBe(201);
  expect(refund.body.status).toBe('PENDING');
  return { waitingShop, waiting, twoStepShop, authorized, voidTill, toVoid, refundTill, refunded, refundId: refund.body.id as string };
}

/** After the upgrade: each payment finishes as it would have without one, the books show each status once. */
export async function finishPaymentsInFlight(stack: TestStack, p: PaymentsInFlight): Promise<void> {
  await sim(stack).customer(p.waitingShop.deviceId, { action: 'pay' });
  expect((await statusBecomes(stack, p.waiting, 'CAPTURED', 30_000)).status).toBe('CAPTURED');
  const completed = await call(stack.apiUrl, 'POST', `/api/in-store/payments/${p.authorized}/capture`, { key: p.twoStepShop.key });
  expect(completed.status).toBe(200);
  expect(completed.body).toMatchObject({ status: 'CAPTURED', capturedAmount: 22 });
  const voided = await paymentAction(stack, p.voidTill.shop, p.toVoid, 'void');
  expect(voided.status).toBe(200);
  expect((await statusBecomes(stack, p.toVoid, 'CANCELLED', 30_000)).status).toBe('CANCELLED');
  const afterRefund = await statusBecomes(stack, p.refunded, 'PARTIALLY_REFUNDED', 60_000);
  expect(afterRefund).toMatchObject({ refundedAmount: expect.anything() });
  expect((await stack.db.refund.findUniqueOrThrow({ where: { id: p.refundId } })).status).toBe('SUCCEEDED');

  expect((await history(stack, p.waiting)).map((h) => h.status)).toEqual(['AWAITING_TERMINAL', 'CAPTURED']);
  expect((await history(stack, p.authorized)).map((h) => h.status)).toEqual(['AWAITING_TERMINAL', 'AUTHORIZED', 'CAPTURED']);
}

/** A payment begun now on the shop's device, paid by the customer and CAPTURED; its id. */
export async function freshPayment(stack: TestStack, shop: Shop, amount: number): Promise<string> {
  const id = (await createPayment(stack, shop, { amount })).body.id as string;
  await sim(stack).customer(shop.deviceId, { action: 'pay' });
  await statusBecomes(stack, id, 'CAPTURED', 30_000);
  return id;
}

/**
 * The payment's workflow as Temporal records it: whether any workflow task failed (non-determinism
 * shows there), whether the next release's patch marker is in its history, its memo (the next
 * release stamps `codeVersion: 2`), the builds whose workers completed its tasks (worker
 * versioning; none when unversioned) and its versioning behaviour.
 */
export const runOf = (stack: TestStack, paymentId: string) => recordOf(workflowHandle(stack, paymentId));

/** The same for any workflow (a dispute's, a payout's). */
export async function recordOf(handle: WorkflowHandle) {
  const events = (await handle.fetchHistory()).events ?? [];
  const markerTexts = events.flatMap((e) =>
    Object.values(e.markerRecordedEventAttributes?.details ?? {}).flatMap((p) => (p.payloads ?? []).map((x) => Buffer.from(x.data ?? []).toString('utf8'))),
  );
  const builds = events.map((e) => e.workflowTaskCompletedEventAttributes?.deploymentVersion?.buildId).filter((b): b is string => !!b);
  const description = await handle.describe();
  return {
    workflowTaskFailures: events.filter((e) => e.workflowTaskFailedEventAttributes).length,
    nextReleaseMarker: markerTexts.some((t) => t.includes(NEXT_RELEASE_PATCH)),
    memo: description.memo ?? {},
    builds: [...new Set(builds)],
    behavior: decodeVersioningBehavior(description.raw.workflowExecutionInfo?.versioningInfo?.behavior),
    closed: description.status.name !== 'RUNNING',
  };
}
