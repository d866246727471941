// A workflow that does nothing but answer one update: the floor of update-with-start latency on
// this Temporal server, measured in the same run as the payments.
import { condition, defineUpdate, setHandler } from '@temporalio/workflow';

export const ping = defineUpdate<string>('ping');

export async function emptyWorkflow(): Promise<void> {
  let answered = false;
  setHandler(ping, () => {
    answered = true;
    return 'pong';
  });
  await condition(() => answered);
}
