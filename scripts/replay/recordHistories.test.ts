import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createLogger } from '../../src/logger';
import { clearTerminal } from '../../src/payments/terminalClear';
import { sweepOverduePayments } from '../../src/payments/sweep';
import { startTestStack, type TestStack } from '../../test/support/stack';
import {
  createPayment,
  eventually,
  insertPaymentRow,
  openShop,
  paymentAction,
  type Shop,
  sim,
  sleep,
  statusBecomes,
  workflowHandle,
} from '../../test/payments/helpers';
import { historyToFile } from '../../test/replay/historyFile';
import { REPLAY_PATHS, type ReplayPath } from '../../test/replay/paths';

/**
 * Records the workflow history of every path of the transition table into test/replay/histories/*.json.
 * Skipped unless RECORD_REPLAY_HISTORIES=1: the committed files are what replay.unit.test.ts checks
 * the current workflow code against. Re-record only when a change is meant to be incompatible
 * (and then version the workflow so running payments keep their old code path).
 */
const record = process.env.RECORD_REPLAY_HISTORIES === '1' ? describe : describe.skip;
const DIR = path.join(__dirname, '../../test/replay/histories');
const TIMING = {
  TERMINAL_TIMEOUT_MIN_MINUTES: '0.02',
  EXPIRY_GRACE_SECONDS: '1',
  VOID_WINDOW_MINUTES: '0.1',
  VOID_CONFIRM_TIMEOUT_SECONDS: '1',
  PAYMENT_PLACEMENT_WAIT_SECONDS: '2',
};

record('recording payment workflow histories', () => {
  let stack: TestStack;
  let quiet: TestStack;
  const recorded = new Set<ReplayPath>();
  beforeAll(async () => {
    [stack, quiet] = await Promise.all([startTestStack(TIMING), startTestStack({ ...TIMING, SANDBOX_NOTIFY_URL: 'http://127.0.0.1:9/nowhere' })]);
    fs.mkdirSync(DIR, { recursive: true });
  });
  afterAll(async () => {
    await Promise.all([stack?.stop(), quiet?.stop()]);
  });

  /** Saves the history once the workflow has completed (or, for an open one, once it is quiet). */
  async function save(s: TestStack, name: ReplayPath, paymentId: string, opts: { open?: boolean } = {}) {
    const handle = workflowHandle(s, paymentId);
    if (opts.open) await sleep(1500);
    else await handle.result().catch(() => undefined);
    const history = await handle.fetchHistory();
    fs.writeFileSync(path.join(DIR, `${name}.json`), historyToFile(history));
    recorded.add(name);
  }
  const pay = async (s: TestStack, shop: Shop, body: Record<string, unknown> = { action: 'pay' }) => sim(s).customer(shop.deviceId, body);
  const create = async (s: TestStack, shop: Shop, over: Record<string, unknown> = {}) => (await createPayment(s, shop, over)).body.id as string;

  it('records every path', async () => {
    {
      const shop = await openShop(stack);
      const id = await create(stack, shop);
      await pay(stack, shop);
      await statusBecomes(stack, id, 'CAPTURED');
      await save(stack, 'captured-void-window-closed', id);
    }
    {
      const shop = await openShop(quiet);
      const id = await create(quiet, shop);
      await pay(quiet, shop);
      await paymentAction(quiet, shop, id, 'sync-status');
      await save(quiet, 'captured-noticed-by-sync-status', id);
    }
    {
      const shop = await openShop(quiet);
      const id = await create(quiet, shop);
      await Promise.all(Array.from({ length: 10 }, () => paymentAction(quiet, shop, id, 'sync-status')));
      await pay(quiet, shop, { action: 'pay', mode: 'QR_CODE' });
      await Promise.all(Array.from({ length: 10 }, () => paymentAction(quiet, shop, id, 'sync-status')));
      await save(quiet, 'captured-qr-code-many-syncs', id);
    }
    {
      const shop = await openShop(stack, { device: { twoStep: true }, twoStep: true });
      const id = await create(stack, shop);
      await pay(stack, shop);
      await statusBecomes(stack, id, 'AUTHORIZED');
      await save(stack, 'authorized-two-step', id, { open: true });
    }
    for (const [action, status, name] of [
      ['decline', 'REFUSED', 'refused-declined'],
      ['cancel', 'CANCELLED', 'cancelled-at-terminal'],
      ['error', 'ERROR', 'error-at-terminal'],
    ] as const) {
      const shop = await openShop(stack);
      const id = await create(stack, shop);
      await pay(stack, shop, { action });
      await statusBecomes(stack, id, status);
      await save(stack, name, id);
    }
    {
      const shop = await openShop(stack);
      const id = await create(stack, shop);
      await paymentAction(stack, shop, id, 'cancel');
      await save(stack, 'cancelled-by-pos', id);
    }
    {
      const shop = await openShop(quiet);
      const id = await create(quiet, shop);
      await pay(quiet, shop);
      await paymentAction(quiet, shop, id, 'cancel');
      await save(quiet, 'cancel-customer-completed-first', id);
    }
    {
      const shop = await openShop(stack);
      const id = await create(stack, shop, { terminalTimeoutMinutes: 0.05 });
      await sim(stack).configure(shop.deviceId, { reachable: false });
      await paymentAction(stack, shop, id, 'cancel');
      await sim(stack).configure(shop.deviceId, { reachable: true });
      await statusBecomes(stack, id, 'EXPIRED', 20_000);
      await save(stack, 'cancel-acquirer-unreachable-then-expired', id);
    }
    {
      const shop = await openShop(stack);
      const id = await create(stack, shop, { terminalTimeoutMinutes: 0.03 });
      await statusBecomes(stack, id, 'EXPIRED');
      await save(stack, 'expired', id);
    }
    {
      const shop = await openShop(quiet);
      const id = await create(quiet, shop, { terminalTimeoutMinutes: 0.03 });
      await pay(quiet, shop);
      await statusBecomes(quiet, id, 'CAPTURED');
      await save(quiet, 'expired-outcome-nobody-asked-captured', id);
    }
    {
      const shop = await openShop(stack);
      await stack.db.payment.count();
      await fetch(`${stack.sandboxUrl}/acquirer/v1/devices/${shop.deviceId}/bills`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          paymentId: 'elsewhere',
          pspReference: 'X',
          amount: '1.00',
          currency: 'EUR',
          reference: 'not-ours',
          modes: ['CARD'],
          timeoutSeconds: 60,
        }),
      });
      const id = await create(stack, shop);
      await save(stack, 'refused-device-busy', id);
    }
    {
      const shop = await openShop(stack, { device: { reachable: false } });
      const reference = `unanswered-${crypto.randomBytes(3).toString('hex')}`;
      await createPayment(stack, shop, { reference });
      await sim(stack).configure(shop.deviceId, { reachable: true });
      const id = (await createPayment(stack, shop, { reference })).body.id as string;
      await pay(stack, shop);
      await statusBecomes(stack, id, 'CAPTURED');
      await save(stack, 'placement-unanswered-then-placed', id);
    }
    {
      const shop = await openShop(stack);
      const id = await create(stack, shop);
      await pay(stack, shop);
      await statusBecomes(stack, id, 'CAPTURED');
      await paymentAction(stack, shop, id, 'void');
      await save(stack, 'void-confirmed', id);
    }
    {
      const shop = await openShop(stack, { device: { voidConfirmDelayMs: 2000 } });
      const id = await create(stack, shop);
      await pay(stack, shop);
      await statusBecomes(stack, id, 'CAPTURED');
      await paymentAction(stack, shop, id, 'void');
      await statusBecomes(stack, id, 'CANCELLED');
      await save(stack, 'void-confirmed-later', id);
    }
    {
      const shop = await openShop(stack, { device: { voidConfirmDelayMs: 600_000 } });
      const id = await create(stack, shop);
      await pay(stack, shop);
      await statusBecomes(stack, id, 'CAPTURED');
      await paymentAction(stack, shop, id, 'void');
      await paymentAction(stack, shop, id, 'void');
      await save(stack, 'void-retried', id);
    }
    const sweepDeps = { config: stack.config, db: stack.db, temporal: stack.client, logger: createLogger('silent') };
    {
      const shop = await openShop(stack);
      const { id } = await insertPaymentRow(stack, shop, { createdAt: new Date(Date.now() - 10 * 60_000) });
      await sweepOverduePayments(sweepDeps, { paymentIds: [id] });
      await statusBecomes(stack, id, 'FAILED');
      await save(stack, 'sweep-restarted-orphan-failed', id);
    }
    {
      const shop = await openShop(stack);
      const id = await create(stack, shop);
      await workflowHandle(stack, id).terminate('recording: the workflow is gone');
      await pay(stack, shop);
      await stack.db.payment.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
      await sweepOverduePayments(sweepDeps, { paymentIds: [id] });
      await statusBecomes(stack, id, 'CAPTURED');
      await save(stack, 'sweep-restarted-terminated-captured', id);
    }
    {
      const shop = await openShop(stack);
      const id = await create(stack, shop);
      await clearTerminal(
        { db: stack.db, temporal: stack.client, config: stack.config },
        { merchantExternalId: shop.merchantExternalId, storeExternalId: shop.storeExternalId, terminalExternalId: shop.terminalExternalId },
      );
      await eventually(async () => ((await stack.db.payment.findUniqueOrThrow({ where: { id } })).status === 'CANCELLED' ? true : undefined));
      await save(stack, 'operator-clear', id);
    }
    expect([...recorded].sort()).toEqual([...REPLAY_PATHS].sort());
  }, 400_000);
});
