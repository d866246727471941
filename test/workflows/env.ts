/**
 * The workflow lane's shared set-up (docs/architecture.md, "Tests: lanes and where they live"):
 * a TestWorkflowEnvironment on the lane's dev server (globalSetup.ts), a client that grants
 * money-moving messages as the API does (src/security/messageGrants.ts), and one Worker per file
 * on the lane's bundle (the grant check of workflows/grantCheck.ts included) whose activities are
 * stubs: each call is recorded, and a test says what each activity answers, per workflow.
 */
import { randomUUID } from 'node:crypto';
import { Context } from '@temporalio/activity';
import type { WorkflowHandle } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import type { GrantedMessage } from '../../core/messageGrants';
import { grantKeys, isGranted, messageGrantInterceptor } from '../../src/security/messageGrants';
import { recordAndPublishActivity } from '../../activities/payments/recordAndPublish';
import { sendAndRecordActivity } from '../../activities/payments/sendAndRecord';
import { readAndRecordActivity } from '../../activities/payments/readAndRecord';

type Stub = (input: any) => unknown;
export type Stubs = Record<string, Stub>;

/** One activity call as the stubs saw it. */
export interface Call {
  workflowId: string;
  name: string;
  input: any;
}

/** The grant key of the lane's client and of the real check in verifyMessageGrant (any 32 bytes). */
const KEYS = grantKeys({ SECRETS_KEY: 'ab'.repeat(32) });

export interface WorkflowLane {
  env: TestWorkflowEnvironment;
  taskQueue: string;
  /** Every call so far, in order; `callsOf(id)`: those of one workflow, by name. */
  calls: Call[];
  callsOf(workflowId: string): string[];
  inputsOf(workflowId: string, name: string): any[];
  /** What each activity answers for one workflow (merged over `defaults`); unstubbed names throw. */
  stub(workflowId: string, stubs: Stubs): void;
  /** Remembered and terminated at teardown when still running. */
  track<H extends WorkflowHandle>(handle: H): H;
  teardown(): Promise<void>;
}

/**
 * Connects to the lane's server and runs a Worker with `names` as its activities, each a stub
 * looked up per workflow (`lane.stub`), then in `defaults`.
 */
export async function startWorkflowLane(names: string[], defaults: Stubs = {}): Promise<WorkflowLane> {
  const address = process.env.WORKFLOW_LANE_TEMPORAL_ADDRESS;
  const bundle = process.env.WORKFLOW_LANE_BUNDLE;
  if (!address || !bundle) throw new Error('the workflow lane runs with its global set-up: npm run test:workflows, or npx jest <file>.workflow.test.ts');
  try {
    // Errors only: the stubs' failures on purpose (an acquirer that does not answer) are not news.
    Runtime.install({ logger: new DefaultLogger('ERROR') });
  } catch {
    // already installed in this process (an earlier file of the lane)
  }
  const env = await TestWorkflowEnvironment.createFromExistingServer({
    address,
    client: { interceptors: { workflow: [messageGrantInterceptor(KEYS)] } },
  });
  const taskQueue = `wf-lane-${randomUUID()}`;
  const calls: Call[] = [];
  const perWorkflow = new Map<string, Stubs>();
  const activities: Record<string, (input: any) => Promise<unknown>> = {
    // The real check, with the lane's key: a message the client did not grant is refused.
    async verifyMessageGrant(message: GrantedMessage): Promise<boolean> {
      return isGranted(KEYS, message);
    },
  };
  for (const name of names) {
    activities[name] = async (input: any) => {
      const workflowId = Context.current().info.workflowExecution?.workflowId ?? '';
      calls.push({ workflowId, name, input });
      const stub = perWorkflow.get(workflowId)?.[name] ?? defaults[name];
      if (!stub) throw new Error(`no stub for ${name} (${workflowId})`);
      return stub(input);
    };
  }
  // The payment's projection and publishing in one local activity: the real composition of the two stubs, each call recorded.
  if (activities.recordStatusEvent && activities.publishPaymentEvent)
    activities.recordStatusEventAndPublish = recordAndPublishActivity(
      activities.recordStatusEvent as () => Promise<void>,
      activities.publishPaymentEvent as () => Promise<string | null>,
    );
  // The first send and its projection in one local activity: the same, of the send's and the projection's stubs.
  if (activities.sendBill && activities.recordStatusEvent)
    activities.sendBillAndRecord = sendAndRecordActivity(activities.sendBill as () => Promise<any>, activities.recordStatusEvent as () => Promise<void>);
  // A read and its projection in one local activity: the same, of the read's and the projection's stubs.
  if (activities.readBill && activities.recordStatusEvent)
    activities.readBillAndRecord = readAndRecordActivity(activities.readBill as () => Promise<any>, activities.recordStatusEvent as () => Promise<void>);
  const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowBundle: { codePath: bundle }, activities });
  const running = worker.run();
  const handles: WorkflowHandle[] = [];
  return {
    env,
    taskQueue,
    calls,
    callsOf: (id) => calls.filter((c) => c.workflowId === id).map((c) => c.name),
    inputsOf: (id, name) => calls.filter((c) => c.workflowId === id && c.name === name).map((c) => c.input),
    stub: (id, stubs) => perWorkflow.set(id, { ...perWorkflow.get(id), ...stubs }),
    track: (handle) => (handles.push(handle), handle),
    async teardown() {
      for (const h of handles) await h.terminate('test over').catch(() => undefined);
      worker.shutdown();
      await running;
      await env.teardown();
    },
  };
}

/** A unique workflow id with a readable prefix. */
export const uniqueId = (prefix: string): string => `${prefix}-${randomUUID()}`;

/** An activity failing as "no answer" (retried, then given up by the workflow's policy). */
export const noAnswer = (): never => {
  throw new Error('the acquirer did not answer (stub)');
};

/** Polls `check` until it holds (for what a workflow does in the background). */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('not reached in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
