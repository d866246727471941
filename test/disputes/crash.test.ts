import { ChildWorkers } from '../support/childWorkers';
import { startTestStack, type TestStack } from '../support/stack';
import { sleep } from '../payments/helpers';
import { capturedPayment, desk, disputeBecomes, disputeEvents, disputeOf, openAtSandbox } from './helpers';

/**
 * The worker dies (kill -9) while a dispute's timers run, and another comes back: the dispute is
 * still reminded once and expires on time, by itself. The API and the sandbox run in this process;
 * the worker is a child process on the same task queue, as in a split deployment.
 */
let stack: TestStack;
const workers = new ChildWorkers('dispute-crash', () => stack);

beforeAll(async () => {
  stack = await startTestStack({ SERVICES: 'api,sandbox', TEMPORAL_TASK_QUEUE: workers.queue, DISPUTE_REMINDER_HOURS: '0.001' });
});
afterAll(async () => {
  await workers.stopAll();
  await stack?.stop();
});

it('a worker killed while the due-date timer runs: one reminder, EXPIRED within seconds of dueBy', async () => {
  await workers.start();
  const d = await desk(stack);
  const p = await capturedPayment(stack, d);
  // Due in 21.6 s, reminded 3.6 s before: room for a restarted worker to start on a busy machine (it loads the run's prebuilt workflow bundle).
  const opened = await openAtSandbox(stack, p.pspReference, { respondWithinHours: 0.006 });
  const dueBy = Date.parse(opened.body.dueBy);
  const dispute = await disputeOf(stack, d, p.id);
  expect(dispute.status).toBe('NEEDS_RESPONSE');

  await workers.killHard();
  await sleep(1000);
  await workers.start();

  const expired = await disputeBecomes(stack, d, dispute.id, 'EXPIRED', 70_000);
  console.log(`after a worker crash: expired ${Date.parse(expired.closedAt) - dueBy} ms after dueBy`);
  expect(Date.parse(expired.closedAt)).toBeGreaterThanOrEqual(dueBy);
  expect(Date.parse(expired.closedAt) - dueBy).toBeLessThan(3000);
  await sleep(500);
  expect((await disputeEvents(stack, p.id)).map((e) => e.eventType)).toEqual(['DISPUTE_OPENED', 'DISPUTE_RESPONSE_DUE', 'DISPUTE_CLOSED']);
  expect(await stack.db.dispute.count({ where: { paymentId: p.id } })).toBe(1);
}, 150_000);
