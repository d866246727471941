import { between, request, sleep } from '../../support/http';
import type { Mailbox } from '../../src/acquirer/sandbox/mailbox';
import type { ChaosReceiver } from './receiver';
import type { Shop } from '../../support/shop';
import type { ChaosStack } from './stack';

/**
 * The faults, injected one after another while the cashiers work. Each is recorded with its
 * window: from the injection until the part is back (its ready line) or the condition is lifted.
 * `blocking` windows are those during which the service cannot settle a payment at all (no worker,
 * nothing running, no Temporal, no acquirer, no database); the time-to-final figure leaves them out.
 */
export type FaultKind =
  | 'kill-worker'
  | 'kill-api'
  | 'kill-stack'
  | 'temporal-restart'
  | 'temporal-node-kill'
  | 'temporal-nodes-in-turn'
  | 'acquirer-unreachable'
  | 'receiver-down'
  | 'mailbox-refusing'
  | 'postgresql-restart';

export interface FaultRecord {
  kind: FaultKind;
  startedAt: number;
  endedAt: number;
  blocking: boolean;
  /**
   * How long after endedAt the fault still holds payments up, counted into its blocking window. A
   * worker killed -9 never says goodbye: Temporal keeps sending the tasks of the workflows it had
   * cached to its sticky queue until they wait there stickyQueueScheduleToStartTimeout (the
   * SDK's default, 10 s; activities/worker.ts keeps it), then gives them to any worker.
   */
  recoveryMs: number;
  /**
   * Set when the part stays down while the rest of the stack takes its work over (a Temporal node
   * of a cluster): the blocking window is this long from the injection, not until the restart.
   */
  windowMs?: number;
  /** Set when the fault was not injected, with the reason. */
  skipped?: string;
  detail?: string;
}

export interface FaultStep {
  kind: FaultKind;
  /** Random wait before the injection (ms), so kills land at random points of the payments. */
  delayMs: [number, number];
  /** How long the fault lasts (down time before the restart, or the outage). */
  durationMs: [number, number];
}

export interface FaultContext {
  stack: ChaosStack;
  receiver: ChaosReceiver;
  shop: Shop;
  log: (line: string) => void;
  /** Other acquirers' devices of the run (the Adyen stand-in's), made unreachable with the sandbox's. */
  otherAcquirers?: { setReachable(reachable: boolean): void }[];
  /** The customers' mail server (the run's own mailbox, ./receiptAnalysis.ts): refuses mail for a while. */
  mailbox?: Mailbox;
}

/** Temporal TS SDK's default stickyQueueScheduleToStartTimeout. */
export const STICKY_QUEUE_TIMEOUT_MS = 10_000;
/** Temporal's default workflow task timeout: a task the killed server had handed out is retried after it. */
export const WORKFLOW_TASK_TIMEOUT_MS = 10_000;
/**
 * A node killed -9 holds its history shards and task queue partitions until the others' membership
 * declares it gone and takes them over (ringpop's suspicion, then the shards' re-acquisition).
 */
export const NODE_TAKEOVER_MS = 20_000;

const RECOVERY_MS: Record<FaultKind, number> = {
  'kill-worker': STICKY_QUEUE_TIMEOUT_MS,
  'kill-api': 0,
  'kill-stack': STICKY_QUEUE_TIMEOUT_MS, // the sticky queue is recorded with each workflow, so it outlives the dev server's restart
  'temporal-restart': WORKFLOW_TASK_TIMEOUT_MS,
  'temporal-node-kill': NODE_TAKEOVER_MS,
  'temporal-nodes-in-turn': NODE_TAKEOVER_MS,
  'acquirer-unreachable': 0,
  'receiver-down': 0,
  'mailbox-refusing': 0,
  'postgresql-restart': 0,
};

const BLOCKING: Record<FaultKind, boolean> = {
  'kill-worker': true,
  'kill-api': false, // the workflows settle payments without the API
  'kill-stack': true,
  'temporal-restart': true,
  // The other node serves at once for the shards it owns, the dead one's only after the take-over.
  'temporal-node-kill': true,
  'temporal-nodes-in-turn': true,
  'acquirer-unreachable': true,
  'receiver-down': false, // deliveries are retried; payments are not affected
  'mailbox-refusing': false, // receipt emails are retried; payments are not affected
  'postgresql-restart': true,
};

async function setReachable(ctx: FaultContext, reachable: boolean): Promise<void> {
  for (const other of ctx.otherAcquirers ?? []) other.setReachable(reachable);
  for (const till of ctx.shop.tills) {
    // Bounded retries: the sandbox is up during this fault, a failure here is a harness problem.
    for (let attempt = 0; ; attempt++) {
      const res = await request('PUT', `${ctx.stack.sandboxUrl}/sim/devices/${till.deviceId}`, { body: { reachable } });
      if (res.status === 200) break;
      if (attempt >= 20) throw new Error(`sandbox: could not set ${till.deviceId} reachable=${reachable}: ${res.status}`);
      await sleep(250);
    }
  }
}

/** Which node the next single-node kill hits: they take turns. */
let nodeTurn = 0;

async function inject(ctx: FaultContext, step: FaultStep): Promise<Pick<FaultRecord, 'skipped' | 'detail' | 'windowMs'>> {
  const duration = between(...step.durationMs);
  switch (step.kind) {
    case 'kill-worker':
      return { detail: await ctx.stack.restartPart('worker', duration) };
    case 'kill-api':
      return { detail: await ctx.stack.restartPart('api', duration) };
    case 'kill-stack': {
      await ctx.stack.killEverything();
      await sleep(duration);
      await ctx.stack.startEverything();
      const db = ctx.stack.opts.database === 'embedded' ? ' and the embedded database' : '';
      return { detail: `kill -9 of API, worker, sandbox, ${ctx.stack.temporalName}${db}; down ${duration} ms; restarted on the same data` };
    }
    case 'temporal-restart': {
      const pid = ctx.stack.temporalPid;
      await ctx.stack.restartTemporal(duration);
      return {
        detail: `kill -9 of the ${ctx.stack.temporalName}${pid ? ` (pid ${pid})` : ' (every node at once)'}, down ${duration} ms, restarted on the same data`,
      };
    }
    case 'temporal-node-kill':
    case 'temporal-nodes-in-turn': {
      const nodes = ctx.stack.cluster?.nodes.length ?? 0;
      if (nodes < 2) return { skipped: `skipped: ${ctx.stack.temporalName} is no cluster (--temporal cluster)` };
      // The other node takes the dead one's shards over while it is down: payments wait for that, not for the restart.
      if (step.kind === 'temporal-node-kill') return { detail: await ctx.stack.restartTemporalNode(nodeTurn++ % nodes, duration), windowMs: NODE_TAKEOVER_MS };
      // One node after the other, each back and answering before the next goes: the cluster is never whole, never empty.
      const details: string[] = [];
      for (let node = 0; node < nodes; node++) details.push(await ctx.stack.restartTemporalNode(node, duration));
      return { detail: details.join('; then ') };
    }
    case 'acquirer-unreachable':
      await setReachable(ctx, false);
      await sleep(duration);
      await setReachable(ctx, true);
      return { detail: `every device reachable:false for ${Math.round(duration / 1000)} s` };
    case 'receiver-down':
      await ctx.receiver.stop();
      await sleep(duration);
      await ctx.receiver.start();
      return { detail: `webhook receiver port closed for ${Math.round(duration / 1000)} s` };
    case 'mailbox-refusing': {
      if (!ctx.mailbox) return { skipped: 'skipped: no mailbox of the run' };
      const before = ctx.mailbox.refused();
      ctx.mailbox.setAccepting(false);
      await sleep(duration);
      ctx.mailbox.setAccepting(true);
      return { detail: `mailbox answered SMTP 421 for ${Math.round(duration / 1000)} s (${ctx.mailbox.refused() - before} sessions refused)` };
    }
    case 'postgresql-restart':
      if (!ctx.stack.controlsPostgres) {
        return {
          skipped:
            ctx.stack.opts.database === 'embedded'
              ? 'skipped: embedded database (no PostgreSQL server to restart; the whole-stack kill restarts the embedded one)'
              : 'skipped: no PostgreSQL binaries to run a server of our own (the external DATABASE_URL cannot be restarted)',
        };
      }
      await ctx.stack.restartPostgres();
      return { detail: 'immediate shutdown (SIGQUIT) and start on the same data directory (crash recovery)' };
  }
}

export async function runFaults(ctx: FaultContext, plan: FaultStep[], stopRequested: () => boolean): Promise<FaultRecord[]> {
  const records: FaultRecord[] = [];
  for (const step of plan) {
    if (stopRequested()) break;
    await sleep(between(...step.delayMs));
    const startedAt = Date.now();
    ctx.log(`fault: ${step.kind}`);
    const result = await inject(ctx, step);
    const blocking = BLOCKING[step.kind] && !result.skipped;
    const record: FaultRecord = { kind: step.kind, startedAt, endedAt: Date.now(), blocking, recoveryMs: blocking ? RECOVERY_MS[step.kind] : 0, ...result };
    records.push(record);
    ctx.log(`fault: ${step.kind} ${result.skipped ?? `done in ${record.endedAt - startedAt} ms`}`);
  }
  return records;
}
