import crypto from 'node:crypto';
import { expectErrorShape } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';
import { paymentStateQuery } from '../../core/payment/messages';
import { createPayment, eventually, history, insertPaymentRow, openShop, paymentAction, type Shop, sim, statusBecomes, workflowHandle } from './helpers';

/**
 * POST /void (docs/payments.md, "Void"): the acquirer confirming in time or later, each retry another
 * reversal, and every precondition (409, or 404 where the store or terminal is gone).
 */
let stack: TestStack;
let shortWindow: TestStack;
beforeAll(async () => {
  [stack, shortWindow] = await Promise.all([
    startTestStack({ VOID_WINDOW_MINUTES: '0.5', VOID_CONFIRM_TIMEOUT_SECONDS: '1' }),
    startTestStack({ VOID_WINDOW_MINUTES: '0.03', VOID_CONFIRM_TIMEOUT_SECONDS: '1' }),
  ]);
});
afterAll(async () => {
  await Promise.all([stack?.stop(), shortWindow?.stop()]);
});

async function captured(s: TestStack, shop: Shop) {
  const { body } = await createPayment(s, shop);
  await sim(s).customer(shop.deviceId, { action: 'pay' });
  await statusBecomes(s, body.id, 'CAPTURED');
  return body.id as string;
}
const voids = async (s: TestStack, id: string) => (await history(s, id)).filter((h) => h.actionReference.startsWith('VOID-'));

describe('void', () => {
  it('confirmed in time -> 200 CANCELLED, previousStatus CAPTURED, a VOID- history entry and PAYMENT_CANCELLED; a second void is 409', async () => {
    const shop = await openShop(stack);
    const id = await captured(stack, shop);
    const res = await paymentAction(stack, shop, id, 'void');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, status: 'CANCELLED', previousStatus: 'CAPTURED', cardBrand: 'VISA' });
    const entries = await history(stack, id);
    expect(entries.map((h) => h.status)).toEqual(['AWAITING_TERMINAL', 'CAPTURED', 'CANCELLED']);
    expect(entries[2]).toMatchObject({ previousStatus: 'CAPTURED', source: 'API', actionReference: expect.stringMatching(/^VOID-/) });
    const bill = await stack.db.payment.findUniqueOrThrow({ where: { id } });
    expect((await sim(stack).device(shop.deviceId)).body.lastBill).toMatchObject({ acquirerRef: bill.acquirerRef, voided: true });
    await eventually(async () => ((await stack.db.webhookEvent.count({ where: { paymentId: id, eventType: 'PAYMENT_CANCELLED' } })) === 1 ? true : undefined));

    expect(expectErrorShape(await paymentAction(stack, shop, id, 'void'), 409)).toMatch(/already voided/);
    expect(await voids(stack, id)).toHaveLength(1);
  });

  it('accepted but not confirmed in time -> 200 CAPTURED, then CANCELLED once the acquirer confirms', async () => {
    const shop = await openShop(stack, { device: { voidConfirmDelayMs: 2500 } });
    const id = await captured(stack, shop);
    const res = await paymentAction(stack, shop, id, 'void');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'CAPTURED', previousStatus: null });
    const voided = await statusBecomes(stack, id, 'CANCELLED', 15_000);
    expect(voided.previousStatus).toBe('CAPTURED');
    expect(await voids(stack, id)).toMatchObject([{ status: 'CANCELLED', previousStatus: 'CAPTURED' }]);
  });

  it('each retry submits another reversal', async () => {
    const shop = await openShop(stack, { device: { voidConfirmDelayMs: 600_000 } });
    const id = await captured(stack, shop);
    const first = await paymentAction(stack, shop, id, 'void');
    const second = await paymentAction(stack, shop, id, 'void');
    expect([first.body.status, second.body.status]).toEqual(['CAPTURED', 'CAPTURED']);
    const { pendingVoids } = await workflowHandle(stack, id).query(paymentStateQuery);
    expect(pendingVoids).toHaveLength(2);
    expect(new Set(pendingVoids).size).toBe(2);
    for (const ref of pendingVoids) {
      expect(ref).toMatch(/^VOID-/);
      expect((await sim(stack).voidStatus(shop.deviceId, ref)).body).toMatchObject({ voidReference: ref, state: 'PENDING' });
    }
  });
});

describe('void preconditions', () => {
  it('the payment must be CAPTURED -> 409 otherwise', async () => {
    const shop = await openShop(stack);
    const { body: waiting } = await createPayment(stack, shop);
    expect(expectErrorShape(await paymentAction(stack, shop, waiting.id, 'void'), 409)).toMatch(/AWAITING_TERMINAL, not CAPTURED/);
    await sim(stack).customer(shop.deviceId, { action: 'decline' });
    await statusBecomes(stack, waiting.id, 'REFUSED');
    expect(expectErrorShape(await paymentAction(stack, shop, waiting.id, 'void'), 409)).toMatch(/REFUSED, not CAPTURED/);
  });

  it('the capture must be inside the void window, from capturedAt in UTC -> 409 otherwise', async () => {
    const shop = await openShop(stack);
    const id = await captured(stack, shop);
    await stack.db.payment.update({ where: { id }, data: { capturedAt: new Date(Date.now() - 31_000) } });
    expect(expectErrorShape(await paymentAction(stack, shop, id, 'void'), 409)).toMatch(/void window/);
    expect(await voids(stack, id)).toEqual([]);
  });

  it('the window closes for real: the workflow ends and a void is 409', async () => {
    const shop = await openShop(shortWindow);
    const id = await captured(shortWindow, shop);
    await workflowHandle(shortWindow, id).result();
    expect(expectErrorShape(await paymentAction(shortWindow, shop, id, 'void'), 409)).toMatch(/void window/);
    expect((await shortWindow.db.payment.findUniqueOrThrow({ where: { id } })).status).toBe('CAPTURED');
  });

  it('the terminal or the acquirer must support voids -> 409', async () => {
    const noVoidTerminal = await openShop(stack, { voidSupported: false });
    const a = await captured(stack, noVoidTerminal);
    expect(expectErrorShape(await paymentAction(stack, noVoidTerminal, a, 'void'), 409)).toMatch(/does not support voids/);

    const noVoidDevice = await openShop(stack, { device: { voidSupported: false } });
    const b = await captured(stack, noVoidDevice);
    expect(expectErrorShape(await paymentAction(stack, noVoidDevice, b, 'void'), 409)).toMatch(/acquirer does not support voids/);
    expect([...(await voids(stack, a)), ...(await voids(stack, b))]).toEqual([]);
  });

  it('the payment must have been taken through the platform -> 409 for one recorded from a settlement report', async () => {
    const shop = await openShop(stack);
    const id = crypto.randomUUID();
    const now = new Date();
    await insertPaymentRow(stack, shop, {
      id,
      pspReference: `PSPSETTLE${crypto.randomBytes(5).toString('hex').toUpperCase()}`,
      status: 'CAPTURED',
      amount: '10',
      origin: 'SETTLEMENT_REPORT',
      expiresAt: now,
      capturedAt: now,
    });
    expect(expectErrorShape(await paymentAction(stack, shop, id, 'void'), 409)).toMatch(/not taken through the platform/);
  });

  it('the store and terminal must still be fully configured: 404 when gone, 409 when unlinked', async () => {
    const unlinked = await openShop(stack);
    const a = await captured(stack, unlinked);
    await stack.db.terminal.update({ where: { id: unlinked.terminalId }, data: { deviceId: null, linkedAt: null } });
    expect(expectErrorShape(await paymentAction(stack, unlinked, a, 'void'), 409)).toMatch(/no longer linked/);

    const noTerminal = await openShop(stack);
    const b = await captured(stack, noTerminal);
    await stack.db.terminal.delete({ where: { id: noTerminal.terminalId } });
    expect(expectErrorShape(await paymentAction(stack, noTerminal, b, 'void'), 404)).toBe('terminal not found');

    const noStore = await openShop(stack);
    const c = await captured(stack, noStore);
    await stack.db.store.delete({ where: { id: noStore.storeId } });
    expect(expectErrorShape(await paymentAction(stack, noStore, c, 'void'), 404)).toBe('store not found');

    for (const id of [a, b, c]) {
      expect((await stack.db.payment.findUniqueOrThrow({ where: { id } })).status).toBe('CAPTURED');
      expect(await voids(stack, id)).toEqual([]);
    }
  });
});
