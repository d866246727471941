import type { Client } from '@temporalio/client';
import type { NativeConnection, Worker, WorkerPlugin } from '@temporalio/worker';
import type { Acquirers } from '../acquirer/acquirers';
import type { AcquirerPort } from '../acquirer/port';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Logger } from '../logger';

/**
 * The Temporal worker as the service sees it. The worker registers the activities, and they use
 * the domain of src/, so src/ never imports them (docs/architecture.md, "Where a feature's parts
 * live"): src/ declares what it hands a worker (WorkerDeps) and the factory it expects
 * (WorkerFactory); activities/worker.ts implements it, and the service loads that module by path
 * when it runs a worker, as the worker loads the workflows by path (./workflowsPath.ts).
 */
export interface WorkerDeps {
  config: Config;
  db: Db;
  /** The live acquirer (ACQUIRER). */
  acquirer: AcquirerPort;
  /** Test payments' and live payments' acquirers. */
  acquirers: Acquirers;
  logger: Logger;
  /** The service's client, for activities that start or signal other workflows. */
  temporal: Client;
  /** The process's one native connection, shared with the client. */
  connection: NativeConnection;
  plugins?: WorkerPlugin[];
}

export type WorkerFactory = (deps: WorkerDeps) => Promise<Worker>;

/** The module that builds the worker: activities/worker.ts from the sources (tsx, jest), its .js in dist/. */
export const WORKER_MODULE = require.resolve('../../activities/worker');

/** The Temporal worker, built by WORKER_MODULE's createWorker (loaded on the first call, in processes that run a worker). */
export async function createWorker(deps: WorkerDeps): Promise<Worker> {
  const { createWorker: build } = (await import(WORKER_MODULE)) as { createWorker: WorkerFactory };
  return build(deps);
}
