import fs from 'node:fs';
import path from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { SETTLEMENT_AUTO_CLOSE_WORKFLOW, settlementCloseWorkflowId } from '../../core/settlement';
import { call } from '../../test/support/http';
import { startTestStack, type TestStack } from '../../test/support/stack';
import { openShop, sim, statusBecomes, workflowHandle } from '../../test/payments/helpers';
import { capturedPayment, closeBatch, userOf } from '../../test/settlement/helpers';
import { historyToFile } from '../../test/replay/historyFile';
import { SETTLEMENT_REPLAY_PATHS, type SettlementReplayPath } from '../../test/replay/settlement/paths';

/**
 * Records the settle path's workflow histories into test/replay/settlement/histories/*.json from the real stack.
 * Skipped unless RECORD_REPLAY_HISTORIES=1: the committed files are what settlementReplay.unit.test.ts
 * checks the current workflow code against. Re-record only when a change is meant to be
 * incompatible (and then version the workflow so running closes and payments keep their path).
 */
const record = process.env.RECORD_REPLAY_HISTORIES === '1' ? describe : describe.skip;
const DIR = path.join(__dirname, '../../test/replay/settlement/histories');

record('recording settlement workflow histories', () => {
  let stack: TestStack;
  const recorded = new Set<SettlementReplayPath>();
  beforeAll(async () => {
    stack = await startTestStack({ REFUND_CONFIRM_TIMEOUT_SECONDS: '2' });
    fs.mkdirSync(DIR, { recursive: true });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  async function save(name: SettlementReplayPath, handle: WorkflowHandle) {
    await handle.result().catch(() => undefined);
    fs.writeFileSync(path.join(DIR, `${name}.json`), historyToFile(await handle.fetchHistory()));
    recorded.add(name);
  }
  const refund = (token: string, paymentId: string, body: Record<string, unknown>) =>
    call(stack.apiUrl, 'POST', `/api/dashboard/payments/${paymentId}/refunds`, { token, body });

  it('records every settle path', async () => {
    const shop = await openShop(stack);
    const finance = await userOf(stack, shop, ['FINANCE']);
    const settled = await capturedPayment(stack, shop, 42);
    const omitted = await capturedPayment(stack, shop, 8);
    const restarted = await capturedPayment(stack, shop, 15.5);
    // a run lost (terminated): the settle update starts a new run from the row and settles in it
    await workflowHandle(stack, restarted.id).terminate('replay recording: a lost run');
    expect((await sim(stack).configure(shop.deviceId, { omitFromReport: [omitted.acquirerRef] })).status).toBe(200);
    const closed = await closeBatch(stack, finance, shop.storeExternalId);
    expect(closed.status).toBe(201);
    expect(closed.body.status).toBe('DISCREPANCY');
    await save('settlement-close-with-discrepancy', stack.client.workflow.getHandle(settlementCloseWorkflowId(shop.storeId)));
    await save('payment-captured-then-settled', workflowHandle(stack, settled.id));
    await statusBecomes(stack, restarted.id, 'SETTLED');
    await save('payment-restarted-by-settle', workflowHandle(stack, restarted.id));

    // a settled payment refunded: a new run from the row takes the refund
    const refunded = await refund(finance, settled.id, { amount: 2.5 });
    expect(refunded.status).toBe(201);
    await statusBecomes(stack, settled.id, 'PARTIALLY_REFUNDED');
    await save('payment-settled-then-refunded', workflowHandle(stack, settled.id));

    // one cycle of the daily close (it may find no store due: the history is the same shape)
    const cycle = await stack.client.workflow.start(SETTLEMENT_AUTO_CLOSE_WORKFLOW, {
      taskQueue: stack.config.TEMPORAL_TASK_QUEUE,
      workflowId: `replay-auto-close-${shop.storeId}`,
      args: [],
    });
    await save('settlement-auto-close-cycle', cycle);

    expect([...recorded].sort()).toEqual([...SETTLEMENT_REPLAY_PATHS].sort());
  }, 300_000);
});
