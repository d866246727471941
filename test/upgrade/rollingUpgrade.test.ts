import path from 'node:path';
import { ChildWorkers } from '../support/childWorkers';
import { startTestStack, type TestStack } from '../support/stack';
import { nextReleaseBundle } from './nextRelease';
import { finishPaymentsInFlight, freshPayment, openPaymentsInFlight, paymentIds, runOf } from './paymentsInFlight';

/**
 * A rolling upgrade with payments open (issue 30, docs/operations.md "Upgrading with payments
 * open"): payments waiting at the terminal, authorised, captured inside the void window, and with
 * a refund pending run on a worker of this release; that worker stops, a worker of the next
 * release (a patch added the documented way: test/upgrade/nextRelease.ts) takes over the task
 * queue, and every payment finishes correctly: no workflow task fails on the changed code, each
 * replays its old history and takes the new branch for what happens after the upgrade.
 */
let stack: TestStack;
const workers = new ChildWorkers('upgrade', () => stack);
let nextBundle: string;

beforeAll(async () => {
  stack = await startTestStack({ SERVICES: 'api,sandbox', TEMPORAL_TASK_QUEUE: workers.queue });
  nextBundle = await nextReleaseBundle(path.join(process.env.TEST_ROOT!, workers.queue));
}, 120_000);
afterAll(async () => {
  await workers.stopAll();
  await stack?.stop();
});

it('payments open on the old worker finish on the next release; new ones take its branch', async () => {
  await workers.start();
  const open = await openPaymentsInFlight(stack, 20_000);

  // The upgrade: the old worker stops (in order), the next release's worker takes the queue.
  await workers.current!.stop();
  await workers.start({ WORKFLOW_BUNDLE: nextBundle });

  await finishPaymentsInFlight(stack, open);
  // A payment begun after the upgrade runs on the next release from its first event.
  const fresh = await freshPayment(stack, open.waitingShop, 55);

  for (const id of [...paymentIds(open), fresh]) {
    const run = await runOf(stack, id);
    expect({ id, failures: run.workflowTaskFailures }).toEqual({ id, failures: 0 });
    // Each applied an event after the upgrade: the new branch ran, recorded its marker and stamped the memo.
    expect({ id, marker: run.nextReleaseMarker, memo: run.memo }).toEqual({ id, marker: true, memo: { codeVersion: 2 } });
  }
}, 180_000);
