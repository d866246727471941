import fs from 'node:fs';
import path from 'node:path';
import { receiptIdOf, receiptWorkflowId } from '../../core/receipt/messages';
import { ChildWorkers } from '../../test/support/childWorkers';
import { type TestStack, startTestStack } from '../../test/support/stack';
import { createPayment, eventually, openShop, sim, statusBecomes } from '../../test/payments/helpers';
import { mailbox } from '../../test/receipts/helpers';
import { historyToFile } from '../../test/replay/historyFile';
import { RECEIPT_REPLAY_PATH_NAMES, type ReceiptReplayPathName } from '../../test/replay/receipts/paths';

/**
 * Records the receipt workflow's histories into test/replay/receipts/histories/*.json from the real
 * stack, through the public API and real SMTP (the sandbox's development mailbox): a payment's sale
 * receipt sent at once, one sent after the mailbox refused (SMTP 421) a few attempts, and one given
 * up while it refused, by a worker whose RECEIPT_RETRY_MAX_AGE_HOURS is 0.0011 (four seconds). The
 * worker runs as a child process (as test/receipts/receiptFaults.test.ts runs it), so its schedule
 * can be set per recording. Skipped unless RECORD_REPLAY_HISTORIES=1: the committed files are what
 * receiptReplay.unit.test.ts checks the current workflow code against.
 */
const record = process.env.RECORD_REPLAY_HISTORIES === '1' ? describe : describe.skip;
const DIR = path.join(__dirname, '../../test/replay/receipts/histories');
const WORKER_ENV = { RECEIPT_RETRY_MAX_INTERVAL_SECONDS: '1', RECEIPT_ATTEMPT_TIMEOUT_SECONDS: '5' };

record('recording receipt workflow histories', () => {
  let stack: TestStack;
  const workers = new ChildWorkers('receipt-record', () => stack);
  beforeAll(async () => {
    stack = await startTestStack({ SERVICES: 'api,sandbox', TEMPORAL_TASK_QUEUE: workers.queue, ...WORKER_ENV });
    fs.mkdirSync(DIR, { recursive: true });
  });
  afterAll(async () => {
    await mailbox(stack).accepting(true);
    await workers.stopAll();
    await stack?.stop();
  });

  /** A payment with a customerEmail, captured: its sale's receipt workflow starts. */
  const captured = async (customerEmail: string): Promise<string> => {
    const shop = await openShop(stack);
    const created = await createPayment(stack, shop, { customerEmail });
    await sim(stack).customer(shop.deviceId, { action: 'pay', last4: '4242' });
    await statusBecomes(stack, created.body.id, 'CAPTURED', 30_000);
    return created.body.id;
  };
  const save = async (name: ReceiptReplayPathName, paymentId: string) => {
    const handle = stack.client.workflow.getHandle(receiptWorkflowId(receiptIdOf(paymentId, 'CAPTURED')));
    await handle.result();
    fs.writeFileSync(path.join(DIR, `${name}.json`), historyToFile(await handle.fetchHistory()));
    return name;
  };

  it('records every receipt path', async () => {
    const recorded: string[] = [];
    await workers.start({ SMTP_URL: stack.mailUrl!, ...WORKER_ENV });
    await mailbox(stack).accepting(true);
    recorded.push(await save('receipt-sent', await captured(`sent.${Date.now()}@example.com`)));

    const closed = await mailbox(stack).accepting(false);
    const refusedPayment = await captured(`refused.${Date.now()}@example.com`);
    await eventually(async () => ((await mailbox(stack).accepting(false)).refused >= closed.refused + 3 ? true : undefined), 30_000, 200);
    await mailbox(stack).accepting(true);
    recorded.push(await save('receipt-sent-after-refusals', refusedPayment));

    // A worker whose schedule lasts four seconds: the receipt is given up while the mailbox refuses.
    await workers.killHard();
    await workers.start({ SMTP_URL: stack.mailUrl!, ...WORKER_ENV, RECEIPT_RETRY_MAX_AGE_HOURS: '0.0011' });
    await mailbox(stack).accepting(false);
    recorded.push(await save('receipt-failed', await captured(`gone.${Date.now()}@example.com`)));
    await mailbox(stack).accepting(true);

    expect(recorded.sort()).toEqual([...RECEIPT_REPLAY_PATH_NAMES].sort());
  }, 300_000);
});
