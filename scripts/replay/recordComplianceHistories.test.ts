import fs from 'node:fs';
import path from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { disputeWorkflowId } from '../../core/dispute/messages';
import { startTestStack, type TestStack } from '../../test/support/stack';
import { eventually, workflowHandle } from '../../test/payments/helpers';
import { answer, capturedPayment, desk, disputeOf, openAtSandbox, refund } from '../../test/disputes/helpers';
import { historyToFile } from '../../test/replay/historyFile';
import { COMPLIANCE_REPLAY_PATHS, type ComplianceReplayPath } from '../../test/replay/compliance/paths';

/**
 * Records a dispute and a refund that evaluated the compliance alerts into
 * test/replay/compliance/histories/*.json. Skipped unless RECORD_REPLAY_HISTORIES=1.
 */
const record = process.env.RECORD_REPLAY_HISTORIES === '1' ? describe : describe.skip;
const DIR = path.join(__dirname, '../../test/replay/compliance/histories');

record('recording the compliance steps', () => {
  let stack: TestStack;
  const recorded = new Set<ComplianceReplayPath>();
  beforeAll(async () => {
    stack = await startTestStack({ COMPLIANCE_CHARGEBACK_MIN_COUNT: '1', COMPLIANCE_REFUND_MIN_COUNT: '1' });
    fs.mkdirSync(DIR, { recursive: true });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  async function save(name: ComplianceReplayPath, handle: WorkflowHandle) {
    await handle.result().catch(() => undefined);
    fs.writeFileSync(path.join(DIR, `${name}.json`), historyToFile(await handle.fetchHistory()));
    recorded.add(name);
  }

  it('records a dispute opened and a refund succeeded, each evaluating the alerts', async () => {
    const d = await desk(stack);
    const disputed = await capturedPayment(stack, d);
    await openAtSandbox(stack, disputed.pspReference);
    const dispute = await disputeOf(stack, d, disputed.id);
    await eventually(async () => ((await stack.db.complianceAlert.count({ where: { merchantId: d.shop.merchantId } })) > 0 ? true : undefined));
    expect((await answer(stack, d.compliance, dispute.id, 'accept')).status).toBe(200);
    await save('dispute-opened-evaluates-compliance', stack.client.workflow.getHandle(disputeWorkflowId(dispute.id)));

    const refunded = await capturedPayment(stack, d);
    expect((await refund(stack, d.finance, refunded.id, { amount: 30 })).status).toBe(201);
    await eventually(async () =>
      (await stack.db.complianceAlert.count({ where: { merchantId: d.shop.merchantId, type: 'REFUND_RATIO' } })) > 0 ? true : undefined,
    );
    // Ended, or ended here (a run already over answers not found).
    await workflowHandle(stack, refunded.id)
      .terminate('replay recording: end of the payment run')
      .catch(() => undefined);
    await save('refund-succeeded-evaluates-compliance', workflowHandle(stack, refunded.id));

    expect([...recorded].sort()).toEqual([...COMPLIANCE_REPLAY_PATHS].sort());
  }, 300_000);
});
