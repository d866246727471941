import { createLogger } from '../../src/logger';
import { sweepOverduePayments } from '../../src/payments/sweep';
import { sweepScheduleId } from '../../src/payments/sweepSchedule';
import { startTestStack, type TestStack } from '../support/stack';
import { createPayment, history, insertPaymentRow, openShop, type Shop, sim, statusBecomes, workflowHandle } from './helpers';

/**
 * The reconciliation sweep (spec 3 rule 4): its logic called directly, then the real Schedule on
 * a short interval. It settles payments open past their timeout plus grace, including those whose
 * workflow is missing (a crash between row insert and workflow start, or a terminated run).
 */
const TIMING = { TERMINAL_TIMEOUT_MIN_MINUTES: '0.02', EXPIRY_GRACE_SECONDS: '1', VOID_WINDOW_MINUTES: '0.05' };
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack(TIMING);
});
afterAll(async () => {
  await stack?.stop();
});

const sweep = (s: TestStack, paymentIds: string[]) =>
  sweepOverduePayments({ config: s.config, db: s.db, temporal: s.client, logger: createLogger('silent') }, { paymentIds });

/** A payment row as the API inserts it just before starting the workflow, as if the process then crashed. */
async function orphanRow(s: TestStack, shop: Shop, opts: { expired: boolean; reference?: string; ageMinutes?: number }) {
  const createdAt = new Date(Date.now() - (opts.expired ? (opts.ageMinutes ?? 10) * 60_000 : 0));
  return insertPaymentRow(s, shop, { reference: opts.reference ?? null, createdAt });
}

describe('the sweep logic', () => {
  it('settles a row whose workflow never started: FAILED, source SWEEP, no bill left on the device, and the terminal free again', async () => {
    const shop = await openShop(stack);
    const row = await orphanRow(stack, shop, { expired: true });
    // The wedged row holds the terminal until it is settled.
    expect((await createPayment(stack, shop)).body.status).toBe('REFUSED');
    expect(await sweep(stack, [row.id])).toEqual({ considered: 1, nudged: 0, restarted: 1, failed: 0 });
    const failed = await statusBecomes(stack, row.id, 'FAILED');
    expect(failed.reason).toBe('ACQUIRER_UNREACHABLE');
    expect(await history(stack, row.id)).toMatchObject([{ sequence: 1, status: 'FAILED', previousStatus: 'CREATED', source: 'SWEEP' }]);
    expect((await sim(stack).device(shop.deviceId)).body.currentBill).toBeNull();
    expect((await createPayment(stack, shop)).body.status).toBe('AWAITING_TERMINAL');
  });

  it('picks up an outcome nobody asked about when the workflow was terminated: CAPTURED, source SWEEP, one webhook event', async () => {
    const shop = await openShop(stack);
    const { body: created } = await createPayment(stack, shop);
    await workflowHandle(stack, created.id).terminate('test: the workflow is gone');
    await sim(stack).customer(shop.deviceId, { action: 'pay' });
    await stack.db.payment.update({ where: { id: created.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await sweep(stack, [created.id])).toMatchObject({ considered: 1, restarted: 1 });
    const paid = await statusBecomes(stack, created.id, 'CAPTURED');
    expect(paid).toMatchObject({ cardBrand: 'VISA', last4: '4242' });
    expect((await history(stack, created.id)).map((h) => [h.status, h.source])).toEqual([
      ['AWAITING_TERMINAL', 'API'],
      ['CAPTURED', 'SWEEP'],
    ]);
    expect(await stack.db.webhookEvent.count({ where: { paymentId: created.id } })).toBe(1);
  });

  it('expires a bill nobody decided whose workflow was terminated: EXPIRED, the bill withdrawn', async () => {
    const shop = await openShop(stack);
    const { body: created } = await createPayment(stack, shop);
    await workflowHandle(stack, created.id).terminate('test: the workflow is gone');
    await stack.db.payment.update({ where: { id: created.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await sweep(stack, [created.id]);
    await statusBecomes(stack, created.id, 'EXPIRED');
    expect((await sim(stack).device(shop.deviceId)).body.currentBill).toBeNull();
  });

  it('only nudges a running workflow, and leaves alone payments not yet past their expiry', async () => {
    const shop = await openShop(stack);
    const { body: created } = await createPayment(stack, shop);
    expect(await sweep(stack, [created.id])).toEqual({ considered: 0, nudged: 0, restarted: 0, failed: 0 });
    await stack.db.payment.update({ where: { id: created.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await sweep(stack, [created.id])).toEqual({ considered: 1, nudged: 1, restarted: 0, failed: 0 });
    // The bill is still waiting: the nudge re-read it and nothing changed.
    expect((await stack.db.payment.findUniqueOrThrow({ where: { id: created.id } })).status).toBe('AWAITING_TERMINAL');
  });

  it('a retry of the create heals a wedged row before the sweep does: the workflow starts and the bill reaches the device', async () => {
    const shop = await openShop(stack);
    const row = await orphanRow(stack, shop, { expired: false, reference: 'wedged' });
    const res = await createPayment(stack, shop, { reference: 'wedged' });
    expect(res.status).toBe(201);
    expect(res.headers.get('idempotent-replayed')).toBe('true');
    expect(res.body).toMatchObject({ id: row.id, status: 'AWAITING_TERMINAL' });
    expect((await sim(stack).device(shop.deviceId)).body.currentBill).toMatchObject({ paymentId: row.id });
  });
});

describe('the sweep Schedule', () => {
  let scheduled: TestStack;
  beforeAll(async () => {
    scheduled = await startTestStack({ ...TIMING, SWEEP_INTERVAL_SECONDS: '1' });
  });
  afterAll(async () => {
    await scheduled.client.schedule.getHandle(sweepScheduleId(scheduled.config)).delete().catch(() => undefined);
    await scheduled?.stop();
  });

  it('is created by the worker with SWEEP_INTERVAL_SECONDS and settles a wedged payment without anyone asking', async () => {
    const description = await scheduled.client.schedule.getHandle(sweepScheduleId(scheduled.config)).describe();
    expect(description.spec.intervals).toMatchObject([{ every: 1000 }]);
    expect(description.action).toMatchObject({ type: 'startWorkflow', workflowType: 'paymentSweepWorkflow', taskQueue: scheduled.config.TEMPORAL_TASK_QUEUE });

    const shop = await openShop(scheduled);
    // A day old: the sweep takes the oldest first, ahead of anything other test files left open.
    const row = await orphanRow(scheduled, shop, { expired: true, ageMinutes: 24 * 60 });
    const failed = await statusBecomes(scheduled, row.id, 'FAILED', 40_000);
    expect(failed.reason).toBe('ACQUIRER_UNREACHABLE');
    expect((await history(scheduled, row.id))[0]).toMatchObject({ source: 'SWEEP' });
  });
});
