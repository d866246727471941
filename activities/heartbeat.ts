import { Context } from '@temporalio/activity';

/**
 * Runs a long step while telling Temporal every `everyMs` that its attempt is alive, so an attempt
 * whose worker died is retried at the activity's heartbeat timeout (seconds), not at the end of its
 * start-to-close timeout (a minute for a give-back that waits for the acquirer's confirmation).
 */
export async function whileHeartbeating<T>(work: () => Promise<T>, everyMs = 2_000): Promise<T> {
  const context = Context.current();
  context.heartbeat();
  const beat = setInterval(() => context.heartbeat(), everyMs);
  try {
    return await work();
  } finally {
    clearInterval(beat);
  }
}
