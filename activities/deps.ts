import type { WorkerDeps } from '../src/temporal/worker';

/**
 * What activities reach: every side effect of a workflow goes through these. The worker's own
 * dependencies (src/temporal/worker.ts, what the service hands a worker) less its connection and
 * plugins, which only the worker itself uses: one list of what a worker gets, in one place.
 */
export type ActivityDeps = Omit<WorkerDeps, 'connection' | 'plugins'>;
