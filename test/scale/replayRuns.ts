import { Client, Connection } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { paymentWorkflowId } from '../../workflows/payment/messages';

/** Replays every run of a payment's workflow from the test's Temporal: what a restarted worker would do. */
export async function replayPaymentRuns(paymentId: string): Promise<{ runs: number; failures: string[] }> {
  const connection = await Connection.connect({ address: process.env.TEST_TEMPORAL_ADDRESS! });
  try {
    const client = new Client({ connection });
    const histories = [];
    for await (const run of client.workflow.list({ query: `WorkflowId = "${paymentWorkflowId(paymentId)}"` })) {
      histories.push({ workflowId: `${run.workflowId}/${run.runId}`, history: await client.workflow.getHandle(run.workflowId, run.runId).fetchHistory() });
    }
    const failures: string[] = [];
    for await (const result of Worker.runReplayHistories({ workflowsPath: require.resolve('../../workflows'), replayName: 'scale-replay' }, histories)) {
      if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
    }
    return { runs: histories.length, failures };
  } finally {
    await connection.close();
  }
}
