import { Client, Connection } from '@temporalio/client';
import { paymentWorkflowId } from '../../core/payment/messages';
import { replayAll } from '../replay/replayAll';

/** Replays every run of a payment's workflow from the test's Temporal: what a restarted worker would do. */
export async function replayPaymentRuns(paymentId: string): Promise<{ runs: number; failures: string[] }> {
  const connection = await Connection.connect({ address: process.env.TEST_TEMPORAL_ADDRESS! });
  try {
    const client = new Client({ connection });
    const histories = [];
    for await (const run of client.workflow.list({ query: `WorkflowId = "${paymentWorkflowId(paymentId)}"` })) {
      histories.push({ workflowId: `${run.workflowId}/${run.runId}`, history: await client.workflow.getHandle(run.workflowId, run.runId).fetchHistory() });
    }
    const { failures } = await replayAll('scale-replay', histories);
    return { runs: histories.length, failures };
  } finally {
    await connection.close();
  }
}
