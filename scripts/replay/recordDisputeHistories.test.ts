import fs from 'node:fs';
import path from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { disputeWorkflowId } from '../../core/dispute/messages';
import { startTestStack, type TestStack } from '../../test/support/stack';
import { workflowHandle } from '../../test/payments/helpers';
import { answer, capturedPayment, desk, disputeBecomes, disputeOf, openAtSandbox, refund, writeStatement } from '../../test/disputes/helpers';
import { historyToFile } from '../../test/replay/historyFile';
import { DISPUTE_REPLAY_PATHS, type DisputeReplayPath } from '../../test/replay/disputes/paths';

/**
 * Records the dispute workflow's histories into test/replay/disputes/histories/*.json from the real
 * stack. Skipped unless RECORD_REPLAY_HISTORIES=1: the committed files are what
 * disputeReplay.unit.test.ts checks the current workflow code against. Re-record only when a change
 * is meant to be incompatible (and then version the workflow so running disputes keep their path).
 */
const record = process.env.RECORD_REPLAY_HISTORIES === '1' ? describe : describe.skip;
const DIR = path.join(__dirname, '../../test/replay/disputes/histories');

record('recording dispute workflow histories', () => {
  let stack: TestStack;
  const recorded = new Set<DisputeReplayPath>();
  beforeAll(async () => {
    stack = await startTestStack({ DISPUTE_REMINDER_HOURS: '0.0005' });
    fs.mkdirSync(DIR, { recursive: true });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  async function save(name: DisputeReplayPath, handle: WorkflowHandle) {
    await handle.result().catch(() => undefined);
    fs.writeFileSync(path.join(DIR, `${name}.json`), historyToFile(await handle.fetchHistory()));
    recorded.add(name);
  }
  const handleOf = (id: string) => stack.client.workflow.getHandle(disputeWorkflowId(id));

  it('records every dispute path', async () => {
    for (const outcome of ['WON', 'LOST'] as const) {
      const d = await desk(stack, { disputeOutcome: outcome, disputeDecisionDelayMs: 300 });
      const p = await capturedPayment(stack, d);
      await openAtSandbox(stack, p.pspReference);
      const dispute = await disputeOf(stack, d, p.id);
      expect((await writeStatement(stack, d.compliance, dispute.id, { text: 'The customer signed the receipt.' })).status).toBe(200);
      expect((await answer(stack, d.compliance, dispute.id, 'submit')).status).toBe(200);
      await disputeBecomes(stack, d, dispute.id, outcome);
      await save(outcome === 'WON' ? 'dispute-won' : 'dispute-lost', handleOf(dispute.id));
    }

    const d = await desk(stack);
    const accepted = await capturedPayment(stack, d);
    await openAtSandbox(stack, accepted.pspReference);
    const a = await disputeOf(stack, d, accepted.id);
    expect((await refund(stack, d.finance, accepted.id, { amount: 1 })).status).toBe(409);
    expect((await answer(stack, d.compliance, a.id, 'accept')).status).toBe(200);
    await save('dispute-accepted', handleOf(a.id));
    // the payment's run (its refund refused meanwhile) ends, terminated here: told of the dispute as it opened and closed
    await workflowHandle(stack, accepted.id).terminate('replay recording: end of the payment run');
    await save('payment-told-of-dispute', workflowHandle(stack, accepted.id));

    const expiring = await capturedPayment(stack, d);
    await openAtSandbox(stack, expiring.pspReference, { respondWithinHours: 0.001 });
    const e = await disputeOf(stack, d, expiring.id);
    await disputeBecomes(stack, d, e.id, 'EXPIRED', 15_000);
    await save('dispute-expired-after-reminder', handleOf(e.id));

    expect([...recorded].sort()).toEqual([...DISPUTE_REPLAY_PATHS].sort());
  }, 300_000);
});
