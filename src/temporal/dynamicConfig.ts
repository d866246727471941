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
 * `--dynamic-config-value key=value` arguments for `temporal server start-dev`. Not among them:
 * system.forceSearchAttributesCacheRefreshOnRead, which made the server re-read its search
 * attributes from its database on every start and upsert (docs/benchmark.md); the dev server
 * registers ours from its command line before it answers, so they are visible at once without it.
 */
export function devServerDynamicConfigArgs(): string[] {
  return Object.entries(TEMPORAL_DYNAMIC_CONFIG).flatMap(([key, value]) => ['--dynamic-config-value', `${key}=${value}`]);
}
