import type { WorkerDeploymentOptions } from '@temporalio/worker';
import type { Config } from '../config';

/**
 * The worker's Worker Deployment Version (docs/operations.md, "Upgrading with worker versioning"),
 * or nothing: unversioned, as before, when WORKER_DEPLOYMENT_NAME and WORKER_BUILD_ID are unset.
 *
 * PINNED by default: a workflow stays on the build it began on until it closes, and the old
 * build's workers drain it. That suits every short workflow of ours: a payment (its void window,
 * 23 h 15 min, or its authorisation window, 36 h, and the refunds it follows), a settlement close,
 * a sweep or a compliance cycle (minutes). Their code may change freely between builds, with no
 * patch: no run replays history made by other code. The long-lived ones (disputes, payouts,
 * webhook deliveries) move to the current build instead (workflows/versioning.ts).
 */
export function workerDeploymentOptions(config: Pick<Config, 'WORKER_DEPLOYMENT_NAME' | 'WORKER_BUILD_ID'>): WorkerDeploymentOptions | undefined {
  if (!config.WORKER_DEPLOYMENT_NAME || !config.WORKER_BUILD_ID) return undefined;
  return {
    useWorkerVersioning: true,
    version: { deploymentName: config.WORKER_DEPLOYMENT_NAME, buildId: config.WORKER_BUILD_ID },
    defaultVersioningBehavior: 'PINNED',
  };
}
