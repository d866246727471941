import { type Client, ScheduleAlreadyRunning, ScheduleOverlapPolicy } from '@temporalio/client';

/**
 * A Temporal Schedule that starts one workflow every `intervalMs` on a task queue, created when a
 * worker starts or brought up to date when it exists. Overlapping runs are skipped; a run nobody
 * picks up (its workers are gone) times out instead of lingering. Returns whether it was created.
 */
export async function ensureIntervalSchedule(
  client: Client,
  s: { scheduleId: string; workflowType: string; taskQueue: string; intervalMs: number },
): Promise<'created' | 'updated'> {
  const spec = { intervals: [{ every: s.intervalMs }] };
  const action = {
    type: 'startWorkflow' as const,
    workflowType: s.workflowType,
    taskQueue: s.taskQueue,
    workflowId: `${s.scheduleId}-run`,
    workflowExecutionTimeout: Math.max(60_000, 2 * s.intervalMs),
  };
  const policies = { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: Math.max(60_000, s.intervalMs) };
  try {
    await client.schedule.create({ scheduleId: s.scheduleId, spec, action, policies });
    return 'created';
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    await client.schedule.getHandle(s.scheduleId).update((previous) => ({ ...previous, spec, action, policies: { ...previous.policies, ...policies } }));
    return 'updated';
  }
}
