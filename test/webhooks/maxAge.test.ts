import { webhookDeliveryWorkflowId } from '../../core/webhooks/delivery';
import { createMerchantWithKey } from '../support/fixtures';
import { call } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';
import { eventually, TestReceiver } from './receiver';

/** The end of the retry schedule (docs/webhooks.md, "Retries"), shrunk by configuration: past the maximum age the delivery is FAILED. */
let stack: TestStack;
let receiver: TestReceiver;
beforeAll(async () => {
  [stack, receiver] = await Promise.all([
    startTestStack({ WEBHOOK_RETRY_INITIAL_SECONDS: '0.2', WEBHOOK_RETRY_MAX_INTERVAL_SECONDS: '0.5', WEBHOOK_RETRY_MAX_AGE_HOURS: '0.001' }), // 3.6 s
    new TestReceiver().start(),
  ]);
});
afterAll(async () => {
  await receiver?.stop();
  await stack?.stop();
});

it('gives up after the maximum age: the delivery is FAILED with every attempt recorded', async () => {
  const { key } = await createMerchantWithKey(stack.db);
  receiver.respond = () => 503;
  const config = (await call(stack.apiUrl, 'POST', '/api/webhooks/configs', { key, body: { url: receiver.url } })).body;
  const eventId = (await call(stack.apiUrl, 'POST', `/api/webhooks/configs/${config.id}/test`, { key })).body.eventId as string;

  const handle = stack.client.workflow.getHandle(webhookDeliveryWorkflowId(eventId, config.id));
  expect(await handle.result()).toBe('FAILED');
  const history = (await call(stack.apiUrl, 'GET', `/api/webhooks/configs/${config.id}/events`, { key })).body;
  const sent = receiver.forEvent(eventId).length;
  expect(sent).toBeGreaterThanOrEqual(2);
  expect(history.content).toEqual([{ eventId, eventType: 'TEST', status: 'FAILED', attempts: sent, createdAt: expect.any(String) }]);
  const attempts = (await call(stack.apiUrl, 'GET', `/api/webhooks/events/${eventId}/attempts`, { key })).body as any[];
  expect(attempts.map((a) => a.attemptNumber)).toEqual(Array.from({ length: sent }, (_, i) => i + 1));
  expect(attempts.every((a) => a.responseStatus === 503 && a.error === 'receiver answered 503')).toBe(true);

  // A manual redelivery starts a fresh schedule: with the receiver healthy again it is delivered.
  receiver.respond = () => 204;
  expect((await call(stack.apiUrl, 'POST', `/api/webhooks/events/${eventId}/redeliver`, { key })).status).toBe(202);
  await eventually(
    async () => (await call(stack.apiUrl, 'GET', `/api/webhooks/configs/${config.id}/events`, { key })).body.content[0].status === 'DELIVERED',
    'DELIVERED after the redelivery',
  );
  const last = (await call(stack.apiUrl, 'GET', `/api/webhooks/events/${eventId}/attempts`, { key })).body.at(-1);
  expect(last).toMatchObject({ attemptNumber: sent + 1, responseStatus: 204, error: null });
});
