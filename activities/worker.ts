import { Worker, type WorkerDeploymentOptions } from '@temporalio/worker';
import { createActivities } from './index';
import type { ActivityDeps } from './deps';
import type { WorkerDeps, WorkerFactory } from '../src/temporal/worker';
import { workerDeploymentOptions } from '../src/temporal/workerVersioning';
import { WORKFLOW_INTERCEPTOR_MODULES, WORKFLOWS_PATH } from '../src/temporal/workflowsPath';

/** The Temporal worker: runs payment and webhook workflows and their activities. */
export async function createWorker(deps: WorkerDeps): Promise<Worker> {
  return Worker.create({
    connection: deps.connection,
    namespace: deps.config.TEMPORAL_NAMESPACE,
    taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
    ...(prebuiltBundle(deps.config)
      ? { workflowBundle: { codePath: deps.config.WORKFLOW_BUNDLE! } } // built with the interceptors (scripts/workflow-bundle.ts)
      : { workflowsPath: WORKFLOWS_PATH, interceptors: { workflowModules: WORKFLOW_INTERCEPTOR_MODULES } }),
    activities: createActivities(deps),
    // Payments are many and short; keep plenty in cache so updates hit a warm workflow. Each cached
    // workflow holds its own context in memory (docs/benchmark.md: the hold mode); an evicted one is replayed.
    maxCachedWorkflows: deps.config.WORKER_MAX_CACHED_WORKFLOWS,
    plugins: deps.plugins ?? [],
    // Worker versioning, when configured (src/temporal/workerVersioning.ts); unversioned otherwise.
    ...versioning(deps.config),
  });
}

/**
 * Whether the worker loads the prebuilt bundle: not with tracing on, whose workflow interceptors
 * (OpenTelemetryPlugin's) join a bundle only when it is made, so that worker bundles at start.
 */
const prebuiltBundle = (config: ActivityDeps['config']): boolean => !!config.WORKFLOW_BUNDLE && !config.OTEL_ENABLED;

const versioning = (config: ActivityDeps['config']): { workerDeploymentOptions?: WorkerDeploymentOptions } => {
  const options = workerDeploymentOptions(config);
  return options ? { workerDeploymentOptions: options } : {};
};

/** The factory the service loads by path (src/temporal/worker.ts): the compiler holds this module to it. */
const _factory: WorkerFactory = createWorker;
