import fs from 'node:fs';
import path from 'node:path';
import { webhookDeliveryWorkflowId } from '../../core/webhooks/delivery';
import { paymentEventId } from '../../src/webhooks/events';
import { call } from '../../test/support/http';
import { startTestStack, type TestStack } from '../../test/support/stack';
import { TestReceiver } from '../../test/webhooks/receiver';
import { createPayment, openShop, sim, statusBecomes, workflowHandle } from '../../test/payments/helpers';
import { historyToFile } from '../../test/replay/historyFile';
import { PATCHED_PATHS, type PatchedPath } from '../../test/replay/patchedPaths';

/**
 * Records the histories of test/replay/patchedPaths.ts into test/replay/patched/*.json. Skipped unless
 * RECORD_REPLAY_HISTORIES=1; re-record only when a change is meant to be incompatible.
 */
const record = process.env.RECORD_REPLAY_HISTORIES === '1' ? describe : describe.skip;
const DIR = path.join(__dirname, '../../test/replay/patched');

record('recording histories of versioned workflow changes', () => {
  let stack: TestStack;
  let receiver: TestReceiver;
  beforeAll(async () => {
    [stack, receiver] = await Promise.all([
      startTestStack({ VOID_WINDOW_MINUTES: '0.1', WEBHOOK_RETRY_INITIAL_SECONDS: '0.2', WEBHOOK_RETRY_MAX_INTERVAL_SECONDS: '1' }),
      new TestReceiver().start(),
    ]);
    fs.mkdirSync(DIR, { recursive: true });
  });
  afterAll(async () => {
    await receiver?.stop();
    await stack?.stop();
  });

  const write = (name: PatchedPath, history: Parameters<typeof historyToFile>[0]) => fs.writeFileSync(path.join(DIR, `${name}.json`), historyToFile(history));

  it('records every path', async () => {
    const shop = await openShop(stack);
    // The merchant's endpoint fails the first attempt, then accepts.
    receiver.respond = ({ index }) => (index < 1 ? 500 : 200);
    expect((await call(stack.apiUrl, 'POST', '/api/webhooks/configs', { key: shop.key, body: { url: receiver.url } })).status).toBe(201);
    const configId = (await stack.db.webhookConfig.findFirstOrThrow({ where: { merchantId: shop.merchantId } })).id;

    const id = (await createPayment(stack, shop)).body.id as string;
    await sim(stack).customer(shop.deviceId, { action: 'pay' });
    const captured = await statusBecomes(stack, id, 'CAPTURED');
    const payment = workflowHandle(stack, id);
    await payment.result();
    // The captured path as the code stands (the earlier captured histories are kept as they were recorded, before the first patch epoch).
    write('payment-captured-epoch', await payment.fetchHistory());

    const delivery = stack.client.workflow.getHandle(webhookDeliveryWorkflowId(paymentEventId(id, captured.historySequence), configId));
    expect(await delivery.result()).toBe('DELIVERED');
    write('webhook-delivery-after-failed-first-attempt', await delivery.fetchHistory());
    expect(fs.readdirSync(DIR).sort()).toEqual(PATCHED_PATHS.map((p) => `${p}.json`).sort());
  }, 120_000);
});
