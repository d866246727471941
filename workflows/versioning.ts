import { setWorkflowOptions, workflowInfo } from '@temporalio/workflow';

/**
 * Worker versioning (docs/operations.md, "Upgrading with worker versioning"): the workflows that
 * live for days or months move to the current build at their next task (AUTO_UPGRADE) instead of
 * keeping their first build's workers running until they close (PINNED, the worker's default,
 * src/temporal/workerVersioning.ts). A dispute waits weeks for its due date and the scheme's
 * decision, a payout days in transit and ten more after PAID, a webhook delivery up to its 72 h
 * retry schedule; they change the way every workflow of ours did before versioning: behind
 * `patched()` (workflows/dispute/patches.ts), as they replay history made by older builds.
 *
 * Only on a versioned worker: the SDK (1.24) sends a workflow's behaviour with every task it
 * completes, and the server refuses one from an unversioned worker ("versioning behavior cannot be
 * specified without deployment options being set with versioned mode"), which would stall the
 * workflow. So the behaviour is decided when the run's first task is (re)played: AUTO_UPGRADE when
 * that task ran on a Worker Deployment Version, none otherwise. Deterministic: the version of a
 * replayed task is the one its history records.
 */
export function autoUpgradeWhenVersioned<A extends unknown[], R>(workflow: (...args: A) => Promise<R>): void {
  setWorkflowOptions(() => (workflowInfo().currentDeploymentVersion?.deploymentName ? { versioningBehavior: 'AUTO_UPGRADE' } : {}), workflow);
}
