import crypto from 'node:crypto';
import { type AdyenStandIn, startAdyenStandIn } from '../support/adyenStandIn';
import { call, type HttpResult } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';
import { addTerminal, createPayment, eventually, openShop, type Shop, statusBecomes } from '../payments/helpers';
import { signedInUser } from '../users/helpers';
import { adminOf } from './helpers';

/**
 * The real service (API, worker, workflows) with a test-mode adyen account of one business whose
 * calls go to the Adyen stand-in (ADYEN_API_BASE), and whose notificationPath the stand-in posts to.
 */
export interface AdyenStack {
  standIn: AdyenStandIn;
  stack: TestStack;
  shop: Shop;
  accountId: string;
  /** A FINANCE user's session, to refund from the dashboard. */
  finance: string;
}

export const ADYEN_MID = 'IspTestShopECOM';

/** `env`: more of the service's configuration (a short AUTHORIZATION_WINDOW_MINUTES, ...); `mode`: the business's key, account and routes (a live one: `environment` LIVE). */
export async function startAdyenStack(env: Record<string, string> = {}, mode: 'live' | 'test' = 'test'): Promise<AdyenStack> {
  const standIn = await startAdyenStandIn();
  // The stand-in writes a day's report on request, so its closes need no lag behind Adyen's file generation.
  const stack = await startTestStack({ ...env, ADYEN_API_BASE: standIn.url, ADYEN_REPORT_LAG_HOURS: '0' });
  const shop = await openShop(stack, { mode });
  const merchant = await stack.db.merchant.findUniqueOrThrow({ where: { id: shop.merchantId } });
  const admin = await adminOf(stack, merchant);
  const created = await admin.createAccount({
    name: 'Adyen NL',
    acquirer: 'adyen',
    mode,
    merchantAccountId: ADYEN_MID,
    credentials: { apiKey: `AQE${crypto.randomBytes(12).toString('hex')}`, hmacKey: standIn.hmacKey, environment: mode === 'live' ? 'LIVE' : 'TEST' },
  });
  if (created.status !== 201) throw new Error(`adyen account not created: ${created.status} ${JSON.stringify(created.body)}`);
  const accountId = created.body.id as string;
  const routed = await admin.saveRoutes({ mode, rules: [], defaultAccountId: accountId });
  if (routed.status !== 200) throw new Error(`routes not saved: ${routed.status} ${JSON.stringify(routed.body)}`);
  standIn.notifyTo(`${stack.apiUrl}${created.body.notificationPath}`);
  const { token: finance } = await signedInUser(stack.db, stack.apiUrl, merchant, ['FINANCE']);
  return { standIn, stack, shop, accountId, finance };
}

export async function stopAdyenStack(s: AdyenStack | undefined): Promise<void> {
  await s?.stack.stop();
  await s?.standIn.close();
}

/**
 * For a test file: the Adyen stack started before its tests (`env`, `mode` as startAdyenStack's),
 * stopped after, and every test failing when the stand-in refused a request against Adyen's
 * schemas. The handle is filled in once the stack is up.
 */
export function withAdyenStack(env: Record<string, string> = {}, mode: 'live' | 'test' = 'test'): AdyenStack {
  const s = {} as AdyenStack;
  let started: AdyenStack | undefined;
  beforeAll(async () => {
    started = Object.assign(s, await startAdyenStack(env, mode));
  }, 120_000);
  afterAll(() => stopAdyenStack(started));
  afterEach(() => expect(s.standIn.invalid).toEqual([]));
  return s;
}

/** A COMPLIANCE user's session in the stack's business, to answer its disputes. */
export async function complianceOf(s: AdyenStack): Promise<string> {
  const merchant = await s.stack.db.merchant.findUniqueOrThrow({ where: { id: s.shop.merchantId } });
  return (await signedInUser(s.stack.db, s.stack.apiUrl, merchant, ['COMPLIANCE'])).token;
}

/**
 * A new till on a terminal of its own (a fresh POIID), so tests never share a device: a new
 * terminal in the shop's store, or `till`'s terminal moved to the POIID; `twoStep`: linked as
 * `terminal:link --two-step` (its bills are pre-authorisations).
 */
/** A dispute as a COMPLIANCE user reads it: by id, the payment's (once recorded), and once it reaches a status. */
export function disputeReads(s: AdyenStack, token: () => string) {
  const read = (id: string) => call(s.stack.apiUrl, 'GET', `/api/dashboard/disputes/${id}`, { token: token() });
  const disputeOfPayment = (paymentId: string) =>
    eventually(async () => {
      const row = await s.stack.db.dispute.findFirst({ where: { paymentId } });
      return row ? (await read(row.id)).body : undefined;
    }, 15_000);
  const becomes = (id: string, status: string) =>
    eventually(async () => {
      const now = (await read(id)).body;
      return now?.status === status ? now : undefined;
    }, 15_000);
  return { read, disputeOfPayment, becomes };
}

export async function adyenTill(s: AdyenStack, opts: { twoStep?: boolean; till?: Shop } = {}): Promise<{ shop: Shop; poiid: string }> {
  const poiid = `V400m-${crypto.randomInt(100_000_000, 999_999_999)}`;
  const shop = opts.till ?? (await addTerminal(s.stack, s.shop));
  await s.stack.db.terminal.update({ where: { id: shop.terminalId }, data: { deviceId: poiid, twoStep: opts.twoStep ?? false } });
  return { shop: { ...shop, deviceId: poiid }, poiid };
}

/** The payment as the dashboard shows it. */
export const readPayment = (s: AdyenStack, id: string): Promise<HttpResult> =>
  call(s.stack.apiUrl, 'GET', `/api/dashboard/payments/${id}`, { token: s.finance });

export const refundAs = (s: AdyenStack, paymentId: string, amount: number): Promise<HttpResult> =>
  call(s.stack.apiUrl, 'POST', `/api/dashboard/payments/${paymentId}/refunds`, { token: s.finance, body: { amount } });

/**
 * A payment of `amount` (and `over`: a cashier, ...) at a fresh terminal, paid by the customer with
 * a VISA ending 4242 and CAPTURED: its id, the terminal's POIID, the stand-in's transaction (Adyen's
 * pspReference) and the store.
 */
export async function paidAtAdyen(s: AdyenStack, amount: number, over: Record<string, unknown> = {}) {
  const { shop, poiid } = await adyenTill(s);
  const created = await createPayment(s.stack, shop, { amount, ...over });
  expect(created.body.status).toBe('AWAITING_TERMINAL');
  const tx = s.standIn.customer(poiid, 'pay', { cardBrand: 'visa', last4: '4242' });
  await statusBecomes(s.stack, created.body.id, 'CAPTURED');
  return { id: created.body.id as string, poiid, tx, storeExternalId: shop.storeExternalId };
}
