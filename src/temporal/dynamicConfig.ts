/**
 * The Temporal server settings the service relies on, one list for the embedded dev server, the
 * chaos suite's dev server and the production compose file (deploy/temporal-dynamic-config.yaml,
 * kept in step by test/compose.unit.test.ts).
 */
export const TEMPORAL_DYNAMIC_CONFIG: Readonly<Record<string, boolean>> = {
  // creation and every payment operation are updates; creation is update-with-start
  'frontend.enableUpdateWorkflowExecution': true,
  'frontend.enableExecuteMultiOperation': true,
  'frontend.enableUpdateWorkflowExecutionAsyncAccepted': true,
  // an activity scheduled by a workflow task goes back to the same worker with the task's answer
  'system.enableActivityEagerExecution': true,
};

/**
 * Settings of the dev server alone (`npm start`, the tests): how soon a Worker Deployment Version
 * that is no longer current or ramping reports DRAINED once its last pinned workflow closes
 * (docs/operations.md, "Upgrading with worker versioning"). The server's defaults, a 3-minute
 * grace for its visibility store to catch up and then a look every 3 minutes, suit production and
 * stay there (server 1.32 needs no setting for worker deployments: they are on by default).
 * Values are JSON, as the dev server's command line takes them.
 */
export const DEV_SERVER_DYNAMIC_CONFIG: Readonly<Record<string, string>> = {
  'matching.wv.VersionDrainageStatusVisibilityGracePeriod': '"2s"',
  'matching.wv.VersionDrainageStatusRefreshInterval': '"2s"',
};

/**
 * `--dynamic-config-value key=value` arguments for `temporal server start-dev`. Not among them:
 * system.forceSearchAttributesCacheRefreshOnRead, which made the server re-read its search
 * attributes from its database on every start and upsert (docs/benchmark.md); the dev server
 * registers ours from its command line before it answers, so they are visible at once without it.
 */
export function devServerDynamicConfigArgs(): string[] {
  return Object.entries({ ...TEMPORAL_DYNAMIC_CONFIG, ...DEV_SERVER_DYNAMIC_CONFIG }).flatMap(([key, value]) => ['--dynamic-config-value', `${key}=${value}`]);
}
