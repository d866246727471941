import fs from 'node:fs';
import path from 'node:path';
import { temporal } from '@temporalio/proto';
import { createLogger } from '../../src/logger';
import { resumePendingRefunds } from '../../src/refunds/recovery';
import { paymentWorkflowId } from '../../core/payment/messages';
import { call } from '../../test/support/http';
import { startTestStack, type TestStack } from '../../test/support/stack';
import { createPayment, eventually, history, openShop, paymentAction, type Shop, sim, statusBecomes } from '../../test/payments/helpers';
import { userOf } from '../../test/settlement/helpers';
import { historyToFile } from '../../test/replay/historyFile';
import { POST_SALE_PATH_NAMES, type PostSalePathName } from '../../test/replay/postSale/paths';
import { orphanRefund } from '../../test/refunds/orphanRefund';

/**
 * Records the payment workflow's paths after the sale (test/replay/postSale/paths.ts) into
 * test/replay/postSale/histories/*.json, on the real stack, driving the sandbox over HTTP. Skipped unless RECORD_REPLAY_HISTORIES=1: the
 * committed files are what postSaleReplay.unit.test.ts checks the current workflow code against.
 * Re-record only when a change is meant to be incompatible (and version the workflow so that
 * running payments keep their old path). Each path checks that it really went the way its name
 * says before its history is written; the paths run side by side, each on a shop of its own.
 * RECORD_REPLAY_ONLY=name,name records only those paths (a new path, without re-recording the
 * others: a history recorded by older code is worth keeping, it checks that code's runs).
 */
const record = process.env.RECORD_REPLAY_HISTORIES === '1' ? describe : describe.skip;
const DIR = path.join(__dirname, '../../test/replay/postSale/histories');
/** Short windows so that every run ends within the recording; refunds answer PENDING after 1 s. */
const TIMING = {
  VOID_WINDOW_MINUTES: '0.25',
  REFUND_CONFIRM_TIMEOUT_SECONDS: '1',
  AUTHORIZATION_WINDOW_MINUTES: '5',
};

record('recording payment workflow histories after the sale', () => {
  /** The window long enough for every completion and release asked for at once. */
  let stack: TestStack;
  /** A 6-second authorisation window: its expiry, and a capture completed after it. */
  let short: TestStack;
  /** No acquirer notification reaches the service: only the workflow's own follow-ups decide. */
  let quiet: TestStack;
  const recorded = new Set<PostSalePathName>();
  beforeAll(async () => {
    [stack, short, quiet] = await Promise.all([
      startTestStack(TIMING),
      startTestStack({ ...TIMING, AUTHORIZATION_WINDOW_MINUTES: '0.1' }),
      startTestStack({ ...TIMING, SANDBOX_NOTIFY_URL: 'http://127.0.0.1:9/nowhere' }),
    ]);
    fs.mkdirSync(DIR, { recursive: true });
  });
  afterAll(async () => {
    await Promise.all([stack?.stop(), short?.stop(), quiet?.stop()]);
  });

  const handleOf = (s: TestStack, paymentId: string, runId?: string) => s.client.workflow.getHandle(paymentWorkflowId(paymentId), runId);
  const runIdOf = async (s: TestStack, paymentId: string) => (await handleOf(s, paymentId).describe()).runId;

  /** Writes the history of the run (the latest one unless `runId`) once it has completed with `status`. */
  async function save(s: TestStack, name: PostSalePathName, paymentId: string, status: string, runId?: string): Promise<string> {
    const handle = handleOf(s, paymentId, runId);
    expect(await handle.result()).toMatchObject({ status });
    const described = await handle.describe();
    fs.writeFileSync(path.join(DIR, `${name}.json`), historyToFile(await handle.fetchHistory()));
    recorded.add(name);
    return described.runId;
  }

  interface Till {
    s: TestStack;
    shop: Shop;
    finance: string;
  }
  async function till(s: TestStack, opts: { twoStep?: boolean; device?: Record<string, unknown> } = {}): Promise<Till> {
    const shop = await openShop(s, { twoStep: opts.twoStep, device: opts.device });
    return { s, shop, finance: await userOf(s, shop, ['FINANCE']) };
  }
  const pay = (t: Till) => sim(t.s).customer(t.shop.deviceId, { action: 'pay' });
  async function create(t: Till, amount: number): Promise<string> {
    const created = await createPayment(t.s, t.shop, { amount });
    expect(created.status).toBe(201);
    return created.body.id as string;
  }
  /** Created and paid; the status the notification (or, on the quiet stack, a sync-status) brings. */
  async function paid(t: Till, amount: number, status: 'CAPTURED' | 'AUTHORIZED'): Promise<string> {
    const id = await create(t, amount);
    expect((await pay(t)).status).toBe(200);
    if (t.s === quiet) expect((await paymentAction(t.s, t.shop, id, 'sync-status')).body.status).toBe(status);
    await statusBecomes(t.s, id, status);
    return id;
  }
  const capture = (t: Till, id: string, body?: unknown) =>
    call(t.s.apiUrl, 'POST', `/api/in-store/payments/${id}/capture`, { key: t.shop.key, ...(body === undefined ? {} : { body }) });
  const refund = (t: Till, id: string, body?: unknown) =>
    call(t.s.apiUrl, 'POST', `/api/dashboard/payments/${id}/refunds`, { token: t.finance, ...(body === undefined ? {} : { body }) });
  const refundDecided = (t: Till, refundId: string, timeoutMs = 90_000) =>
    eventually(
      async () => {
        const row = await t.s.db.refund.findUniqueOrThrow({ where: { id: refundId } });
        return row.status !== 'PENDING' ? row : undefined;
      },
      timeoutMs,
      200,
    );
  const sweepRefunds = (s: TestStack, paymentId: string) =>
    resumePendingRefunds({ config: s.config, db: s.db, temporal: s.client, logger: createLogger('silent') }, { paymentIds: [paymentId], minAgeMs: 0 });
  /** Whether the run's history has an event of this type yet (a timer fired, ...). */
  const historyHas = async (s: TestStack, paymentId: string, eventType: temporal.api.enums.v1.EventType) =>
    ((await handleOf(s, paymentId).fetchHistory()).events ?? []).some((e) => e.eventType === eventType);

  const paths: Record<PostSalePathName, () => Promise<void>> = {
    'two-step-captured-full': async () => {
      const t = await till(stack, { twoStep: true, device: { twoStep: true } });
      const id = await paid(t, 40, 'AUTHORIZED');
      const res = await capture(t, id);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'CAPTURED', capturedAmount: 40 });
      await save(stack, 'two-step-captured-full', id, 'CAPTURED');
    },
    'two-step-captured-partial': async () => {
      const t = await till(stack, { twoStep: true, device: { twoStep: true } });
      const id = await paid(t, 50, 'AUTHORIZED');
      const res = await capture(t, id, { amount: 30.25 });
      expect(res.body).toMatchObject({ status: 'CAPTURED', amount: 50, capturedAmount: 30.25 });
      await save(stack, 'two-step-captured-partial', id, 'CAPTURED');
    },
    'two-step-released-by-cancel': async () => {
      const t = await till(stack, { twoStep: true, device: { twoStep: true } });
      const id = await paid(t, 40, 'AUTHORIZED');
      const res = await paymentAction(stack, t.shop, id, 'cancel');
      expect(res.body).toMatchObject({ status: 'CANCELLED', previousStatus: 'AUTHORIZED' });
      expect((await sim(stack).device(t.shop.deviceId)).body.lastBill.status).toBe('RELEASED');
      await save(stack, 'two-step-released-by-cancel', id, 'CANCELLED');
    },
    'two-step-release-unanswered-then-released': async () => {
      const t = await till(stack, { twoStep: true, device: { twoStep: true } });
      const id = await paid(t, 40, 'AUTHORIZED');
      await sim(stack).configure(t.shop.deviceId, { reachable: false });
      const unanswered = await paymentAction(stack, t.shop, id, 'cancel');
      expect(unanswered.status).toBe(200);
      expect(unanswered.body.status).toBe('AUTHORIZED');
      await sim(stack).configure(t.shop.deviceId, { reachable: true });
      const res = await paymentAction(stack, t.shop, id, 'cancel');
      expect(res.body).toMatchObject({ status: 'CANCELLED', previousStatus: 'AUTHORIZED' });
      await save(stack, 'two-step-release-unanswered-then-released', id, 'CANCELLED');
    },
    'two-step-authorization-expired': async () => {
      const t = await till(short, { twoStep: true, device: { twoStep: true } });
      const id = await paid(t, 40, 'AUTHORIZED');
      const p = await statusBecomes(short, id, 'CANCELLED', 60_000);
      expect(p).toMatchObject({ reason: 'AUTHORIZATION_EXPIRED', previousStatus: 'AUTHORIZED' });
      await save(short, 'two-step-authorization-expired', id, 'CANCELLED');
    },
    'two-step-capture-completed-later': async () => {
      const t = await till(short, { twoStep: true, device: { twoStep: true } });
      const id = await paid(t, 40, 'AUTHORIZED');
      await sim(short).configure(t.shop.deviceId, { reachable: false });
      const res = await capture(t, id, { amount: 25 });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('AUTHORIZED');
      // the authorisation window's timer fires while the capture is kept: the hold is not released
      await eventually(async () => ((await historyHas(short, id, temporal.api.enums.v1.EventType.EVENT_TYPE_TIMER_FIRED)) ? true : undefined), 60_000, 500);
      expect((await short.db.payment.findUniqueOrThrow({ where: { id } })).status).toBe('AUTHORIZED');
      await sim(short).configure(t.shop.deviceId, { reachable: true });
      const p = await statusBecomes(short, id, 'CAPTURED', 120_000);
      expect(p.capturedAmount!.toFixed()).toBe('25');
      await save(short, 'two-step-capture-completed-later', id, 'CAPTURED');
    },
    'one-step-terminal-authorization-completed': async () => {
      const t = await till(stack, { twoStep: false, device: { twoStep: true } });
      const id = await paid(t, 15, 'CAPTURED');
      expect((await history(stack, id)).map((h) => h.status)).toEqual(['AWAITING_TERMINAL', 'CAPTURED']);
      await save(stack, 'one-step-terminal-authorization-completed', id, 'CAPTURED');
    },
    'refund-succeeded-in-void-window': async () => {
      const t = await till(stack);
      const id = await paid(t, 30, 'CAPTURED');
      const run = await runIdOf(stack, id);
      const res = await refund(t, id); // all of it
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ amount: 30, status: 'SUCCEEDED' });
      expect(await save(stack, 'refund-succeeded-in-void-window', id, 'REFUNDED')).toBe(run);
    },
    'refund-failed': async () => {
      const t = await till(stack, { device: { refundOutcome: 'FAILED' } });
      const id = await paid(t, 30, 'CAPTURED');
      const run = await runIdOf(stack, id);
      const res = await refund(t, id, { amount: 5 });
      expect(res.body).toMatchObject({ status: 'FAILED', failureReason: expect.any(String) });
      expect(await save(stack, 'refund-failed', id, 'CAPTURED')).toBe(run);
    },
    'refund-confirmed-later': async () => {
      const t = await till(stack, { device: { refundConfirmDelayMs: 4000 } });
      const id = await paid(t, 20, 'CAPTURED');
      const run = await runIdOf(stack, id);
      const res = await refund(t, id, { amount: 4 });
      expect(res.body.status).toBe('PENDING');
      expect((await refundDecided(t, res.body.id)).status).toBe('SUCCEEDED');
      expect(await save(stack, 'refund-confirmed-later', id, 'PARTIALLY_REFUNDED')).toBe(run);
    },
    'refund-confirmed-later-followed-up': async () => {
      const t = await till(quiet, { device: { refundConfirmDelayMs: 4000 } });
      const id = await paid(t, 20, 'CAPTURED');
      const run = await runIdOf(quiet, id);
      const res = await refund(t, id, { amount: 4 });
      expect(res.body.status).toBe('PENDING');
      expect((await refundDecided(t, res.body.id)).status).toBe('SUCCEEDED');
      expect(await save(quiet, 'refund-confirmed-later-followed-up', id, 'PARTIALLY_REFUNDED')).toBe(run);
    },
    'refund-acquirer-unreachable-then-succeeded': async () => {
      const t = await till(stack);
      const id = await paid(t, 10, 'CAPTURED');
      const run = await runIdOf(stack, id);
      await sim(stack).configure(t.shop.deviceId, { reachable: false });
      const res = await refund(t, id, { amount: 3 });
      expect(res.body.status).toBe('PENDING');
      await sim(stack).configure(t.shop.deviceId, { reachable: true });
      expect((await refundDecided(t, res.body.id)).status).toBe('SUCCEEDED');
      expect((await sim(stack).device(t.shop.deviceId)).body.lastBill.refundedAmount).toBe('3');
      expect(await save(stack, 'refund-acquirer-unreachable-then-succeeded', id, 'PARTIALLY_REFUNDED')).toBe(run);
    },
    'refund-of-closed-payment-later-run': async () => {
      const t = await till(stack);
      const id = await paid(t, 20, 'CAPTURED');
      const first = await runIdOf(stack, id);
      expect(await handleOf(stack, id).result()).toMatchObject({ status: 'CAPTURED' }); // the void window is over
      expect((await paymentAction(stack, t.shop, id, 'void')).status).toBe(409);
      const res = await refund(t, id, { amount: 8 });
      expect(res.body).toMatchObject({ status: 'SUCCEEDED', amount: 8 });
      expect(await save(stack, 'refund-of-closed-payment-later-run', id, 'PARTIALLY_REFUNDED')).not.toBe(first);
    },
    'refunds-partial-then-rest-first-run': async () => {
      const t = await till(stack);
      const id = await paid(t, 30, 'CAPTURED');
      const first = await runIdOf(stack, id);
      expect((await refund(t, id, { amount: 10.5 })).body).toMatchObject({ status: 'SUCCEEDED', amount: 10.5 });
      await save(stack, 'refunds-partial-then-rest-first-run', id, 'PARTIALLY_REFUNDED', first);
      const rest = await refund(t, id); // what is left
      expect(rest.body).toMatchObject({ status: 'SUCCEEDED', amount: 19.5 });
      expect(await save(stack, 'refunds-partial-then-rest-later-run', id, 'REFUNDED')).not.toBe(first);
    },
    // recorded with the first run's path above
    'refunds-partial-then-rest-later-run': async () => undefined,
    'refunds-resumed-in-running-run': async () => {
      const t = await till(stack);
      const id = await paid(t, 10, 'CAPTURED');
      const payment = await stack.db.payment.findUniqueOrThrow({ where: { id } });
      // rows as a workflow task that never completed leaves them: written, never taken by the run
      const orphan = (amount: string) => orphanRefund(stack.db, payment, amount);
      const fits = await orphan('6');
      const tooMuch = await orphan('5');
      expect((await handleOf(stack, id).describe()).status.name).toBe('RUNNING');
      expect(await sweepRefunds(stack, id)).toMatchObject({ considered: 2, resumed: 2, failed: 0 });
      expect((await refundDecided(t, fits.id)).status).toBe('SUCCEEDED');
      expect(await refundDecided(t, tooMuch.id)).toMatchObject({ status: 'FAILED', failureReason: expect.stringContaining('never sent') });
      await save(stack, 'refunds-resumed-in-running-run', id, 'PARTIALLY_REFUNDED');
    },
    'refund-resumed-by-sweep-new-run': async () => {
      const t = await till(stack);
      const id = await paid(t, 12, 'CAPTURED');
      const first = await runIdOf(stack, id);
      await sim(stack).configure(t.shop.deviceId, { reachable: false });
      const res = await refund(t, id, { amount: 5 });
      expect(res.body.status).toBe('PENDING');
      await handleOf(stack, id).terminate('replay recording: the run that follows the refund is lost');
      await sim(stack).configure(t.shop.deviceId, { reachable: true });
      expect(await sweepRefunds(stack, id)).toMatchObject({ considered: 1, resumed: 1, failed: 0 });
      expect((await refundDecided(t, res.body.id)).status).toBe('SUCCEEDED');
      expect((await sim(stack).device(t.shop.deviceId)).body.lastBill.refundedAmount).toBe('5');
      expect(await save(stack, 'refund-resumed-by-sweep-new-run', id, 'PARTIALLY_REFUNDED')).not.toBe(first);
    },
  };

  it('records every path', async () => {
    const only = process.env.RECORD_REPLAY_ONLY?.split(',').map((n) => n.trim()) ?? [];
    const unknown = only.filter((n) => !(POST_SALE_PATH_NAMES as string[]).includes(n));
    expect(unknown).toEqual([]);
    const chosen = only.length > 0 ? POST_SALE_PATH_NAMES.filter((n) => only.includes(n)) : POST_SALE_PATH_NAMES;
    // the two refunds of one payment are recorded together
    if (chosen.includes('refunds-partial-then-rest-later-run') && !chosen.includes('refunds-partial-then-rest-first-run'))
      chosen.push('refunds-partial-then-rest-first-run');
    const failures: string[] = [];
    await Promise.all(
      chosen.map((name) =>
        paths[name]().catch((err: Error) => {
          failures.push(`${name}: ${err.message}`);
        }),
      ),
    );
    expect(failures).toEqual([]);
    const expected = new Set<PostSalePathName>(chosen);
    if (chosen.includes('refunds-partial-then-rest-first-run')) expected.add('refunds-partial-then-rest-later-run');
    expect([...recorded].sort()).toEqual([...expected].sort());
  }, 400_000);
});
