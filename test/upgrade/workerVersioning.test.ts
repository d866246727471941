import path from 'node:path';
import { ChildWorkers } from '../support/childWorkers';
import { startTestStack, type TestStack } from '../support/stack';
import { eventually, openShop } from '../payments/helpers';
import { capturedPayment, desk, disputeOf, openAtSandbox, writeStatement } from '../disputes/helpers';
import { disputeWorkflowId } from '../../core/dispute/messages';
import { nextReleaseBundle } from './nextRelease';
import { finishPaymentsInFlight, freshPayment, openPaymentsInFlight, paymentIds, recordOf, runOf } from './paymentsInFlight';
import { drainageOf, openPinnedTo, setCurrentVersion } from './workerDeployment';

/**
 * The upgrade of issue 30 with Temporal's worker versioning (docs/operations.md, "Upgrading with
 * worker versioning"): payments of every kind open on build 1 (the current version of the
 * deployment); build 2 (the next release: test/upgrade/nextRelease.ts) starts beside it and
 * becomes current. New payments run on build 2; the open ones stay pinned to build 1 and finish
 * there on the code they began with (no patch involved: build 2's change never meets them); no
 * workflow task fails; build 1 drains once they close, and its worker stops. A dispute, which
 * lives for weeks, is not pinned: it moves to build 2 at its next task (workflows/versioning.ts).
 */
let stack: TestStack;
const workers = new ChildWorkers('versioning', () => stack);
const deployment = workers.queue; // one deployment per test file: the dev server is shared by the run
const version = (buildId: string) => ({ WORKER_DEPLOYMENT_NAME: deployment, WORKER_BUILD_ID: buildId });
let nextBundle: string;

beforeAll(async () => {
  // A short void window (set by the API at each payment's start) lets build 1's payments close within the test.
  stack = await startTestStack({ SERVICES: 'api,sandbox', TEMPORAL_TASK_QUEUE: workers.queue, VOID_WINDOW_MINUTES: '0.5' });
  nextBundle = await nextReleaseBundle(path.join(process.env.TEST_ROOT!, workers.queue));
}, 120_000);
afterAll(async () => {
  await workers.stopAll();
  await stack?.stop();
});

it('open payments finish on the build they began on, new ones run on the new build, and the old build drains', async () => {
  const build1 = await workers.start(version('build-1'));
  await setCurrentVersion(stack, deployment, 'build-1');

  // Payments open on build 1 while build 2 starts beside it (polling, given nothing while not current).
  const [open] = await Promise.all([openPaymentsInFlight(stack, 15_000), workers.start({ ...version('build-2'), WORKFLOW_BUNDLE: nextBundle })]);
  const d = await desk(stack);
  const disputed = await capturedPayment(stack, d);
  expect((await openAtSandbox(stack, disputed.pspReference)).status).toBe(201);
  const dispute = await disputeOf(stack, d, disputed.id);

  // The upgrade: build 2 becomes current; build 1 keeps its payments.
  await setCurrentVersion(stack, deployment, 'build-2');
  expect(await eventually(async () => ((await drainageOf(stack, deployment, 'build-1')) === 'DRAINING' ? true : undefined))).toBe(true);
  expect(await openPinnedTo(stack, deployment, 'build-1')).toBeGreaterThanOrEqual(paymentIds(open).length);

  // A payment begun now runs on build 2 from its first task, while build 1 still serves the open ones.
  const fresh = await freshPayment(stack, await openShop(stack), 55);
  await finishPaymentsInFlight(stack, open);
  // The dispute's next task (the merchant's statement) runs on build 2.
  expect((await writeStatement(stack, d.compliance, dispute.id, { text: 'The customer signed.' })).status).toBe(200);

  for (const id of paymentIds(open)) {
    const run = await runOf(stack, id);
    // Every task on build 1's code: no marker of the next release's patch, no memo stamp.
    expect({ id, failures: run.workflowTaskFailures, builds: run.builds, behavior: run.behavior, marker: run.nextReleaseMarker, memo: run.memo }).toEqual({
      id,
      failures: 0,
      builds: ['build-1'],
      behavior: 'PINNED',
      marker: false,
      memo: {},
    });
  }
  const freshRun = await runOf(stack, fresh);
  expect({ failures: freshRun.workflowTaskFailures, builds: freshRun.builds, behavior: freshRun.behavior, memo: freshRun.memo }).toEqual({
    failures: 0,
    builds: ['build-2'],
    behavior: 'PINNED',
    memo: { codeVersion: 2 },
  });

  const disputeRun = await recordOf(stack.client.workflow.getHandle(disputeWorkflowId(dispute.id)));
  expect({ failures: disputeRun.workflowTaskFailures, builds: disputeRun.builds, behavior: disputeRun.behavior, closed: disputeRun.closed }).toEqual({
    failures: 0,
    builds: ['build-1', 'build-2'],
    behavior: 'AUTO_UPGRADE',
    closed: false,
  });

  // Build 1 drains as its payments close (their void windows end): nothing is pinned to it any more.
  await eventually(async () => ((await openPinnedTo(stack, deployment, 'build-1')) === 0 ? true : undefined), 60_000, 500);
  for (const id of paymentIds(open)) expect({ id, closed: (await runOf(stack, id)).closed }).toEqual({ id, closed: true });
  // The server reports DRAINED after its visibility grace and refresh: seconds on the run's dev server
  // (src/temporal/dynamicConfig.ts), minutes on a real server kept at production values.
  if (process.env.TEST_TEMPORAL_KIND === 'dev-server') {
    expect(await eventually(async () => ((await drainageOf(stack, deployment, 'build-1')) === 'DRAINED' ? true : undefined), 30_000, 500)).toBe(true);
  } else {
    expect(['DRAINING', 'DRAINED']).toContain(await drainageOf(stack, deployment, 'build-1'));
  }

  // Build 1's worker stops; build 2 serves alone.
  await build1.stop();
  expect(build1.running).toBe(false);
  const after = await freshPayment(stack, await openShop(stack), 66);
  expect((await runOf(stack, after)).builds).toEqual(['build-2']);
}, 180_000);
