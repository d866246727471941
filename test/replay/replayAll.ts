import { Worker } from '@temporalio/worker';
import { WORKFLOW_INTERCEPTOR_MODULES } from '../../src/temporal/workflowsPath';

/** Replays histories against the workflows as they are now: how many replayed, and each failure named by its workflow id. */
export async function replayAll(
  replayName: string,
  histories: Parameters<typeof Worker.runReplayHistories>[1],
): Promise<{ replayed: number; failures: string[] }> {
  const failures: string[] = [];
  let replayed = 0;
  for await (const result of Worker.runReplayHistories(
    { workflowsPath: require.resolve('../../workflows'), interceptors: { workflowModules: WORKFLOW_INTERCEPTOR_MODULES }, replayName },
    histories,
  )) {
    replayed += 1;
    if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
  }
  return { replayed, failures };
}
