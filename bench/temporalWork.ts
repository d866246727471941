/**
 * The Temporal work of the lifecycles of a run, counted from the server's own histories: every
 * workflow started in the window (payment workflows and the webhook delivery workflows they
 * start; the sweep's runs are counted apart), its starts, workflow tasks, activity tasks and
 * history events, divided by the payment workflows that ran to completion. Only closed payment
 * workflows are counted, so each lifecycle is whole (create to the end of its void window).
 */
import { type Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

const EventType = temporal.api.enums.v1.EventType;

export interface TemporalWork {
  lifecyclesCounted: number;
  workflowStarts: number;
  workflowTasks: number;
  activityTasks: number;
  localActivities: number;
  historyEvents: number;
  /** Workflow starts per lifecycle by workflow type. */
  startsByType: Record<string, number>;
}

interface Counted {
  type: string;
  closed: boolean;
  tasks: number;
  activities: number;
  markers: number;
  events: number;
}

async function countHistory(client: Client, workflowId: string, runId: string, type: string, closed: boolean): Promise<Counted> {
  const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
  const c: Counted = { type, closed, tasks: 0, activities: 0, markers: 0, events: history.events?.length ?? 0 };
  for (const e of history.events ?? []) {
    if (e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED) c.tasks++;
    else if (e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED) c.activities++;
    // Local activities only: a patch marker (patched()) is no work of its own.
    else if (e.eventType === EventType.EVENT_TYPE_MARKER_RECORDED && e.markerRecordedEventAttributes?.markerName === 'core_local_activity') c.markers++;
  }
  return c;
}

/** Counts every workflow started at or after `sinceMs` on the task queue; `maxPayments` caps the sample. */
export async function countTemporalWork(client: Client, taskQueue: string, sinceMs: number, untilMs: number, maxPayments = 400): Promise<TemporalWork | null> {
  const query = `TaskQueue = '${taskQueue}' AND StartTime >= '${new Date(sinceMs).toISOString()}' AND StartTime < '${new Date(untilMs).toISOString()}'`;
  const listed: { workflowId: string; runId: string; type: string; closed: boolean }[] = [];
  for await (const wf of client.workflow.list({ query })) {
    listed.push({ workflowId: wf.workflowId, runId: wf.runId, type: wf.type, closed: wf.status.name !== 'RUNNING' });
  }
  const payments = listed.filter((w) => w.type === 'paymentWorkflow');
  const closedPayments = payments.filter((w) => w.closed).slice(0, maxPayments);
  if (closedPayments.length === 0) return null;
  // Workflows the payments started (webhook deliveries): counted over the window, per payment of the window.
  const others = listed.filter((w) => w.type !== 'paymentWorkflow' && !/sweep/i.test(w.type));
  const othersSample = others.slice(0, maxPayments * 2);
  const countAll = async (ws: typeof listed): Promise<Counted[]> => {
    const out: Counted[] = [];
    for (let i = 0; i < ws.length; i += 8)
      out.push(...(await Promise.all(ws.slice(i, i + 8).map((w) => countHistory(client, w.workflowId, w.runId, w.type, w.closed)))));
    return out;
  };
  const paymentCounts = await countAll(closedPayments);
  const otherCounts = await countAll(othersSample);
  const scale = othersSample.length ? others.length / othersSample.length / payments.length : 0;
  const perLifecycle = (f: (c: Counted) => number): number =>
    Math.round((paymentCounts.reduce((s, c) => s + f(c), 0) / paymentCounts.length + otherCounts.reduce((s, c) => s + f(c), 0) * scale) * 100) / 100;
  const startsByType: Record<string, number> = { paymentWorkflow: 1 };
  for (const c of otherCounts) startsByType[c.type] = (startsByType[c.type] ?? 0) + scale;
  for (const t of Object.keys(startsByType)) startsByType[t] = Math.round(startsByType[t]! * 100) / 100;
  return {
    lifecyclesCounted: paymentCounts.length,
    workflowStarts: perLifecycle(() => 1),
    workflowTasks: perLifecycle((c) => c.tasks),
    activityTasks: perLifecycle((c) => c.activities),
    localActivities: perLifecycle((c) => c.markers),
    historyEvents: perLifecycle((c) => c.events),
    startsByType,
  };
}
