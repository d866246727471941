import { temporal } from '@temporalio/proto';
import type { TestStack } from '../support/stack';

/**
 * What an operator does with `temporal worker deployment ...` (docs/operations.md, "Upgrading with
 * worker versioning"), through the client's WorkflowService as the CLI does it.
 */
const { VersionDrainageStatus } = temporal.api.enums.v1;

/** `temporal worker deployment set-current-version`: retried until the build's workers have polled (the server refuses a version it has not seen). */
export async function setCurrentVersion(stack: TestStack, deploymentName: string, buildId: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await stack.client.workflowService.setWorkerDeploymentCurrentVersion({
        namespace: stack.config.TEMPORAL_NAMESPACE,
        deploymentName,
        buildId,
        identity: 'worker-versioning test',
      });
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/** `temporal worker deployment describe-version`: the version's drainage status (DRAINING, DRAINED) or UNSPECIFIED while current. */
export async function drainageOf(stack: TestStack, deploymentName: string, buildId: string): Promise<string> {
  const described = await stack.client.workflowService.describeWorkerDeploymentVersion({
    namespace: stack.config.TEMPORAL_NAMESPACE,
    deploymentVersion: { deploymentName, buildId },
  });
  const status = described.workerDeploymentVersionInfo?.drainageInfo?.status ?? VersionDrainageStatus.VERSION_DRAINAGE_STATUS_UNSPECIFIED;
  return VersionDrainageStatus[status]!.replace('VERSION_DRAINAGE_STATUS_', '');
}

/**
 * What drainage counts (server 1.32, workerdeployment.makeDeploymentQuery): the open workflows
 * pinned to the version; `temporal workflow count --query` gives the same.
 */
export async function openPinnedTo(stack: TestStack, deploymentName: string, buildId: string): Promise<number> {
  const query = `TemporalWorkerDeploymentVersion = '${deploymentName}:${buildId}' AND TemporalWorkflowVersioningBehavior = 'Pinned' AND ExecutionStatus = 'Running'`;
  return (await stack.client.workflow.count(query)).count;
}
