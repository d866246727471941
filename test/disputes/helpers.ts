import type { Merchant } from '../../src/generated/prisma/client';
import { call, type HttpResult } from '../support/http';
import type { TestStack } from '../support/stack';
import { createPayment, eventually, openShop, type Shop, sim, statusBecomes } from '../payments/helpers';
import { signedInUser } from '../users/helpers';

/** A shop with a signed-in COMPLIANCE user (answers disputes) and FINANCE user (reads them, refunds). */
export interface Desk {
  shop: Shop;
  merchant: Merchant;
  compliance: string;
  finance: string;
}

export async function desk(stack: TestStack, device: Record<string, unknown> = {}): Promise<Desk> {
  const shop = await openShop(stack, { device });
  // The terminal's serial number, for the assembled evidence.
  await stack.db.terminal.update({ where: { id: shop.terminalId }, data: { serialNumber: `SN-${shop.deviceId}` } });
  const merchant = await stack.db.merchant.findUniqueOrThrow({ where: { id: shop.merchantId } });
  const { token: compliance } = await signedInUser(stack.db, stack.apiUrl, merchant, ['COMPLIANCE']);
  const { token: finance } = await signedInUser(stack.db, stack.apiUrl, merchant, ['FINANCE']);
  return { shop, merchant, compliance, finance };
}

/** A CAPTURED payment of `amount` on the desk's device (cashier C-7); its id and pspReference. */
export async function capturedPayment(stack: TestStack, d: Desk, amount = 40): Promise<{ id: string; pspReference: string }> {
  const created = await createPayment(stack, d.shop, { amount, cashierId: 'C-7' });
  expect(created.status).toBe(201);
  await sim(stack).customer(d.shop.deviceId, { action: 'pay' });
  await statusBecomes(stack, created.body.id, 'CAPTURED');
  return { id: created.body.id, pspReference: created.body.pspReference };
}

/** The sandbox plays the cardholder's bank: opens a dispute on the payment and notifies the service. */
export const openAtSandbox = (stack: TestStack, pspReference: string, body: Record<string, unknown> = {}): Promise<HttpResult> =>
  call(stack.sandboxUrl, 'POST', `/sim/payments/${pspReference}/disputes`, { body });

/** The dispute of a payment as the dashboard lists it, once its workflow has recorded it. */
export async function disputeOf(stack: TestStack, d: Desk, paymentId: string): Promise<Record<string, any>> {
  return eventually(async () => {
    const row = await stack.db.dispute.findFirst({ where: { paymentId }, orderBy: { openedAt: 'desc' } });
    if (!row) return undefined;
    const read = await call(stack.apiUrl, 'GET', `/api/dashboard/disputes/${row.id}`, { token: d.compliance });
    return read.status === 200 ? read.body : undefined;
  });
}

export async function disputeBecomes(stack: TestStack, d: Desk, id: string, status: string, timeoutMs = 15_000): Promise<Record<string, any>> {
  return eventually(
    async () => {
      const read = await call(stack.apiUrl, 'GET', `/api/dashboard/disputes/${id}`, { token: d.compliance });
      return read.body?.status === status ? read.body : undefined;
    },
    timeoutMs,
    50,
  );
}

export const answer = (stack: TestStack, token: string, id: string, what: 'submit' | 'accept') =>
  call(stack.apiUrl, 'POST', `/api/dashboard/disputes/${id}/${what}`, { token });
export const writeStatement = (stack: TestStack, token: string, id: string, body: unknown) =>
  call(stack.apiUrl, 'PUT', `/api/dashboard/disputes/${id}/evidence`, { token, body });
export const refund = (stack: TestStack, token: string, paymentId: string, body: unknown = {}) =>
  call(stack.apiUrl, 'POST', `/api/dashboard/payments/${paymentId}/refunds`, { token, body });

/** The payment's dispute events, oldest first, as recorded bodies. */
export async function disputeEvents(stack: TestStack, paymentId: string): Promise<{ eventType: string; data: Record<string, any> }[]> {
  const rows = await stack.db.webhookEvent.findMany({ where: { paymentId, eventType: { startsWith: 'DISPUTE_' } }, orderBy: { createdAt: 'asc' } });
  return rows.map((r) => JSON.parse(r.body!));
}

/**
 * The dispute's events once the last one expected is written (events are published after the status
 * changes, so a busy machine may be a moment behind), read again a moment later so a duplicate shows.
 */
export async function disputeEventsEndingWith(stack: TestStack, paymentId: string, last: string) {
  await eventually(async () => ((await disputeEvents(stack, paymentId)).some((e) => e.eventType === last) ? true : undefined));
  await new Promise((r) => setTimeout(r, 300));
  return (await disputeEvents(stack, paymentId)).map((e) => e.eventType);
}
