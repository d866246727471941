import { expectRefused, runAdmin } from '../cli/runAdmin';
import { startTestStack, type TestStack } from '../support/stack';
import { createPayment, history, openShop, type Shop, sim } from './helpers';

/** `terminal:clear` (operator CLI, docs/payments.md, "terminal:clear (operator CLI)"): forces the open bill off the device; the payment ends CANCELLED. */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.stop();
});

const clear = (shop: Shop) =>
  runAdmin(['terminal:clear', '--merchant', shop.merchantExternalId, '--store', shop.storeExternalId, '--terminal', shop.terminalExternalId, '--json'], {
    env: { TEMPORAL_TASK_QUEUE: stack.config.TEMPORAL_TASK_QUEUE },
  });

describe('terminal:clear', () => {
  it('withdraws the open bill and prints the payment, CANCELLED with reason CLEARED_BY_OPERATOR', async () => {
    const shop = await openShop(stack);
    const { body: created } = await createPayment(stack, shop);
    const run = await clear(shop);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(run.json).toMatchObject({ id: created.id, status: 'CANCELLED', reason: 'CLEARED_BY_OPERATOR', terminalExternalId: shop.terminalExternalId });
    expect((await sim(stack).device(shop.deviceId)).body.currentBill).toBeNull();
    expect((await history(stack, created.id))[1]).toMatchObject({ status: 'CANCELLED', actionReference: expect.stringMatching(/^CLEAR-/) });
    expect((await createPayment(stack, shop)).body.status).toBe('AWAITING_TERMINAL');
  });

  it('forces the payment CANCELLED even when the device does not answer', async () => {
    const shop = await openShop(stack);
    const { body: created } = await createPayment(stack, shop);
    await sim(stack).configure(shop.deviceId, { reachable: false });
    const run = await clear(shop);
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({ id: created.id, status: 'CANCELLED', reason: 'CLEARED_BY_OPERATOR' });
  });

  it('prints null when no bill is open on the terminal, and refuses an unknown terminal', async () => {
    const shop = await openShop(stack);
    const run = await clear(shop);
    expect({ code: run.code, json: run.json }).toEqual({ code: 0, json: null });
    expect(expectRefused(await clear({ ...shop, terminalExternalId: 'no-such-terminal' }), 1)).toMatch(/terminal 'no-such-terminal' not found/);
  });

  it("refuses, and changes nothing, when the CLI's SECRETS_KEY is not the service's (its message carries no valid grant)", async () => {
    const shop = await openShop(stack);
    const { body: created } = await createPayment(stack, shop);
    const run = await runAdmin(
      ['terminal:clear', '--merchant', shop.merchantExternalId, '--store', shop.storeExternalId, '--terminal', shop.terminalExternalId, '--json'],
      { env: { TEMPORAL_TASK_QUEUE: stack.config.TEMPORAL_TASK_QUEUE, SECRETS_KEY: 'b1'.repeat(32) } },
    );
    expect(run.code).not.toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain("did not come through the service's API");
    expect((await stack.db.payment.findUniqueOrThrow({ where: { id: created.id } })).status).toBe('AWAITING_TERMINAL');
    expect((await sim(stack).device(shop.deviceId)).body.currentBill).not.toBeNull();
  });
});
