// A payment's Temporal shape with nothing in it (docs/benchmark.md, "The same-shape floor"): started
// by update-with-start and answering after one local activity (the bill on the device), woken by a
// signal (the customer paid), a second local activity (the projection), one activity (the webhook),
// then complete. What the engine charges for our shape; whatever we spend beyond it is ours.
import { condition, defineSignal, defineUpdate, proxyActivities, proxyLocalActivities, setHandler } from '@temporalio/workflow';
import type * as activities from './sameShapeActivities';

export const placeBill = defineUpdate<string>('placeBill');
export const paid = defineSignal('paid');

const local = proxyLocalActivities<typeof activities>({ startToCloseTimeout: '10 seconds' });
const remote = proxyActivities<typeof activities>({ startToCloseTimeout: '10 seconds' });

export async function sameShapeWorkflow(): Promise<void> {
  let placed: Promise<string> | undefined;
  let isPaid = false;
  setHandler(placeBill, () => (placed ??= local.sendBill()));
  setHandler(paid, () => {
    isPaid = true;
  });
  await condition(() => placed !== undefined);
  await placed;
  await condition(() => isPaid);
  await local.project();
  await remote.publish();
}
