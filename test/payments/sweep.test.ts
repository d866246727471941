import { paymentProjectionActivities } from '../../activities/payments/projection';
import type { ActivityDeps } from '../../activities/deps';
import { createLogger } from '../../src/logger';
import { sweepOverduePayments } from '../../src/payments/sweep';
import { sweepScheduleId } from '../../src/payments/sweepSchedule';
import { startTestStack, type TestStack } from '../support/stack';
import { createPayment, eventually, history, insertPaymentRow, openShop, type Shop, sim, sleep, statusBecomes, workflowHandle } from './helpers';

/**
 * The reconciliation sweep (docs/payments.md, "Reconciliation sweep"): its logic called directly, then the real Schedule on
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
    // The sandbox's notification of the payment finds no workflow to nudge (its news is claimed,
    // the signal fails). Waited for, so that it cannot reach the run the sweep starts and be the
    // one that reports the outcome (a busy machine once delivered it that late).
    await eventually(() => stack.db.paymentNudge.findFirst({ where: { paymentId: created.id } }).then((n) => n ?? undefined));
    await stack.db.payment.update({ where: { id: created.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await sweep(stack, [created.id])).toMatchObject({ considered: 1, restarted: 1 });
    const paid = await statusBecomes(stack, created.id, 'CAPTURED');
    expect(paid).toMatchObject({ cardBrand: 'VISA', last4: '4242' });
    expect((await history(stack, created.id)).map((h) => [h.status, h.source])).toEqual([
      ['AWAITING_TERMINAL', 'API'],
      ['CAPTURED', 'SWEEP'],
    ]);
    // The event is published by the step after the status is recorded: wait for it, then make
    // sure it stays one.
    const events = () => stack.db.webhookEvent.count({ where: { paymentId: created.id } });
    await eventually(async () => ((await events()) > 0 ? true : undefined), 60_000);
    await sleep(1000);
    expect(await events()).toBe(1);
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

  it('settles more overdue payments than it handles at once, each exactly once', async () => {
    const shops = await Promise.all(Array.from({ length: 13 }, () => openShop(stack)));
    const rows = await Promise.all(shops.map((shop) => orphanRow(stack, shop, { expired: true })));
    const ids = rows.map((r) => r.id);
    expect(await sweep(stack, ids)).toEqual({ considered: 13, nudged: 0, restarted: 13, failed: 0 });
    for (const id of ids) expect((await statusBecomes(stack, id, 'FAILED')).historySequence).toBe(1);
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

describe('a row left open after its workflow completed (a lost write)', () => {
  it('the replayed decision replaces an entry of the same sequence written by a task that never completed, and the row follows', async () => {
    const shop = await openShop(stack);
    const { body: created } = await createPayment(stack, shop);
    const project = paymentProjectionActivities({ db: stack.db } as ActivityDeps);
    const expired = {
      sequence: 1,
      status: 'EXPIRED' as const,
      previousStatus: 'CREATED' as const,
      actionReference: `EXPIRY-${created.pspReference}`,
      source: 'WORKFLOW' as const,
      occurredAt: new Date().toISOString(),
    };
    const fields = {
      status: 'EXPIRED' as const,
      acquirerRef: null,
      paymentMethod: null,
      cardBrand: null,
      last4: null,
      reason: null,
      refusalReason: null,
      previousStatus: 'CREATED' as const,
      capturedAt: null,
      authorizedAt: null,
      capturedAmount: null,
      refundedAmount: '0',
    };
    await project.recordStatusEvent({ paymentId: created.id, event: expired, fields });
    await project.recordStatusEvent({ paymentId: created.id, event: expired, fields }); // a retry writes nothing new
    expect(await history(stack, created.id)).toMatchObject([{ sequence: 1, status: 'EXPIRED', source: 'WORKFLOW', actionReference: expired.actionReference }]);
    expect(await stack.db.payment.findUniqueOrThrow({ where: { id: created.id } })).toMatchObject({ status: 'EXPIRED', historySequence: 1 });
    await workflowHandle(stack, created.id).terminate('test: done');
  });

  it('the sweep starts one more run from the row, which settles it from the acquirer once', async () => {
    const shop = await openShop(stack);
    const { body: created } = await createPayment(stack, shop);
    await sim(stack).customer(shop.deviceId, { action: 'decline' });
    await statusBecomes(stack, created.id, 'REFUSED');
    await workflowHandle(stack, created.id).result();
    // The database loses the REFUSED the workflow wrote (as a failover to a lagging replica would).
    await stack.db.paymentHistory.deleteMany({ where: { paymentId: created.id, sequence: 2 } });
    await stack.db.webhookEvent.deleteMany({ where: { paymentId: created.id } });
    await stack.db.payment.update({
      where: { id: created.id },
      data: { status: 'AWAITING_TERMINAL', refusalReason: null, previousStatus: 'CREATED', historySequence: 1, expiresAt: new Date(Date.now() - 1000) },
    });
    expect(await sweep(stack, [created.id])).toEqual({ considered: 1, nudged: 0, restarted: 1, failed: 0 });
    const settled = await statusBecomes(stack, created.id, 'REFUSED');
    expect(settled.refusalReason).toBeTruthy();
    expect((await history(stack, created.id)).map((h) => [h.sequence, h.status, h.source])).toEqual([
      [1, 'AWAITING_TERMINAL', 'API'],
      [2, 'REFUSED', 'SWEEP'],
    ]);
    await workflowHandle(stack, created.id).result();
    // Settled: the next cycle has nothing to do, and no second run starts.
    expect(await sweep(stack, [created.id])).toEqual({ considered: 0, nudged: 0, restarted: 0, failed: 0 });
    expect(await stack.db.webhookEvent.count({ where: { paymentId: created.id } })).toBe(1);
  });
});

describe('the sweep Schedule', () => {
  let scheduled: TestStack;
  beforeAll(async () => {
    scheduled = await startTestStack({ ...TIMING, SWEEP_INTERVAL_SECONDS: '1' });
  });
  afterAll(async () => {
    await scheduled.client.schedule
      .getHandle(sweepScheduleId(scheduled.config))
      .delete()
      .catch(() => undefined);
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

  it('a payment created while the acquirer is silent settles within about a sweep cycle of its return, not a long backoff later', async () => {
    const shop = await openShop(scheduled, { device: { reachable: false } });
    const createdAt = Date.now();
    const res = await createPayment(scheduled, shop, { terminalTimeoutMinutes: 0.02 });
    expect(res.status).toBe(503);
    const row = await scheduled.db.payment.findFirstOrThrow({ where: { merchantId: shop.merchantId } });
    // Uncapped, the workflow's retries (1, 2, 4, 8, 16 s apart) would next ask about 30 s after creation.
    await sleep(Math.max(0, createdAt + 18_000 - Date.now()));
    await sim(scheduled).configure(shop.deviceId, { reachable: true });
    const back = Date.now();
    const failed = await statusBecomes(scheduled, row.id, 'FAILED', 30_000);
    expect(failed.reason).toBe('ACQUIRER_UNREACHABLE');
    expect(Date.now() - back).toBeLessThan(6_000);
  });
});
