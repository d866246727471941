import type { KeyMode } from '../../src/auth/apiKeys';
import type { Prisma } from '../../src/generated/prisma/client';
import { newPspReference } from '../../src/payments/pspReference';
import { paymentWorkflowId } from '../../core/payment/messages';
import { createMerchantWithKey, uniqueId } from '../support/fixtures';
import { call, type HttpResult } from '../support/http';
import type { TestStack } from '../support/stack';

/** Shared by the payment tests: a business with a store and a linked terminal, and the sandbox's control endpoints. */
export interface Shop {
  merchantId: string;
  merchantExternalId: string;
  key: string;
  storeExternalId: string;
  terminalExternalId: string;
  deviceId: string;
  storeId: string;
  terminalId: string;
}

export async function openShop(
  stack: TestStack,
  opts: { mode?: KeyMode; device?: Record<string, unknown>; twoStep?: boolean; voidSupported?: boolean } = {},
): Promise<Shop> {
  const { merchant, key } = await createMerchantWithKey(stack.db, { mode: opts.mode });
  const shop = await storeWithTerminal(stack, { merchantId: merchant.id, merchantExternalId: merchant.externalId, key }, opts);
  if (opts.device) await sim(stack).configure(shop.deviceId, opts.device);
  return shop;
}

/** A store of `mode` with one linked terminal, in an existing business reached with `key`. */
export async function storeWithTerminal(
  stack: TestStack,
  owner: { merchantId: string; merchantExternalId: string; key: string },
  opts: { mode?: KeyMode; twoStep?: boolean; voidSupported?: boolean } = {},
): Promise<Shop> {
  const store = await stack.db.store.create({
    data: {
      merchantId: owner.merchantId,
      mode: opts.mode ?? 'live',
      externalId: uniqueId('store'),
      name: 'Main street',
      country: 'DE',
      timezone: 'Europe/Berlin',
    },
  });
  const deviceId = uniqueId('dev');
  const terminal = await stack.db.terminal.create({
    data: {
      merchantId: owner.merchantId,
      storeId: store.id,
      externalId: uniqueId('term'),
      label: 'Till 1',
      deviceId,
      twoStep: opts.twoStep ?? false,
      voidSupported: opts.voidSupported ?? true,
      linkedAt: new Date(),
    },
  });
  return {
    ...owner,
    storeExternalId: store.externalId,
    terminalExternalId: terminal.externalId,
    deviceId,
    storeId: store.id,
    terminalId: terminal.id,
  };
}

/** A second terminal in the shop's store. */
export async function addTerminal(stack: TestStack, shop: Shop, opts: { twoStep?: boolean } = {}): Promise<Shop> {
  const deviceId = uniqueId('dev');
  const terminal = await stack.db.terminal.create({
    data: {
      merchantId: shop.merchantId,
      storeId: shop.storeId,
      externalId: uniqueId('term'),
      label: 'Till 2',
      deviceId,
      twoStep: opts.twoStep ?? false,
      linkedAt: new Date(),
    },
  });
  if (opts.twoStep) await sim(stack).configure(deviceId, { twoStep: true });
  return { ...shop, terminalExternalId: terminal.externalId, terminalId: terminal.id, deviceId };
}

export function sim(stack: TestStack) {
  const at = (method: string, path: string, body?: unknown) => call(stack.sandboxUrl, method, path, { body });
  return {
    device: (id: string) => at('GET', `/sim/devices/${id}`),
    configure: (id: string, body: Record<string, unknown>) => at('PUT', `/sim/devices/${id}`, body),
    customer: (id: string, body: Record<string, unknown>) => at('POST', `/sim/devices/${id}/customer`, body),
    voidStatus: (deviceId: string, voidReference: string) => at('GET', `/acquirer/v1/devices/${deviceId}/voids/${voidReference}`),
  };
}

export function paymentBody(shop: Shop, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    merchantExternalId: shop.merchantExternalId,
    storeExternalId: shop.storeExternalId,
    terminalExternalId: shop.terminalExternalId,
    amount: 12.5,
    currency: 'EUR',
    reference: uniqueId('bill'),
    ...over,
  };
}

export const createPayment = (stack: TestStack, shop: Shop, over: Record<string, unknown> = {}): Promise<HttpResult> =>
  call(stack.apiUrl, 'POST', '/api/in-store/payments', { key: shop.key, body: paymentBody(shop, over) });

export const paymentAction = (stack: TestStack, shop: Shop, id: string, action: 'sync-status' | 'cancel' | 'void'): Promise<HttpResult> =>
  call(stack.apiUrl, 'POST', `/api/in-store/payments/${id}/${action}`, { key: shop.key });

/** Polls until check() returns a value (not undefined) or the time is up. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 15_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Waits until the payment's row has the status (the projection the workflow writes). */
export async function statusBecomes(stack: TestStack, id: string, status: string, timeoutMs = 15_000) {
  return eventually(async () => {
    const p = await stack.db.payment.findUnique({ where: { id } });
    return p?.status === status ? p : undefined;
  }, timeoutMs);
}

export const history = (stack: TestStack, id: string) => stack.db.paymentHistory.findMany({ where: { paymentId: id }, orderBy: { sequence: 'asc' } });

export const workflowHandle = (stack: TestStack, id: string) => stack.client.workflow.getHandle(paymentWorkflowId(id));

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A payment row of the shop's terminal written straight to the projection, as the API writes it
 * before the workflow starts (or as a settlement report would). Defaults: CREATED, 20 EUR, card,
 * created now and due after a 5-minute timeout.
 */
export async function insertPaymentRow(stack: TestStack, shop: Shop, fields: Partial<Prisma.PaymentUncheckedCreateInput> = {}) {
  const id = fields.id ?? crypto.randomUUID();
  const createdAt = fields.createdAt ? new Date(fields.createdAt) : new Date();
  return stack.db.payment.create({
    data: {
      id,
      merchantId: shop.merchantId,
      storeId: shop.storeId,
      terminalId: shop.terminalId,
      storeExternalId: shop.storeExternalId,
      terminalExternalId: shop.terminalExternalId,
      deviceId: shop.deviceId,
      mode: 'live',
      pspReference: newPspReference(),
      status: 'CREATED',
      amount: '20',
      currency: 'EUR',
      paymentMethod: 'CARD',
      acquirerName: 'sandbox',
      terminalTimeoutMinutes: '5',
      workflowId: paymentWorkflowId(id),
      expiresAt: new Date(createdAt.getTime() + 5 * 60_000 + 1000),
      ...fields,
      createdAt,
    },
  });
}
