import { signSandboxBody } from '../../src/acquirer/sandbox/notify';
import { call, expectErrorShape } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';
import { createPayment, history, openShop, sleep, workflowHandle } from './helpers';

/**
 * POST /internal/acquirer/notifications: verified over the raw body, and only ever a nudge to
 * re-read the acquirer. A forged, replayed or stale notification changes nothing.
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.stop();
});

const PATH = '/internal/acquirer/notifications';
const notify = (rawBody: string, signature?: string) =>
  call(stack.apiUrl, 'POST', PATH, { rawBody, headers: { 'Content-Type': 'application/json', ...(signature ? { 'X-Sandbox-Signature': signature } : {}) } });

async function waitingPayment() {
  const shop = await openShop(stack);
  const { body } = await createPayment(stack, shop);
  const row = await stack.db.payment.findUniqueOrThrow({ where: { id: body.id } });
  return { shop, row };
}

describe('acquirer notifications', () => {
  it('a missing or forged signature -> 401, and the payment is untouched', async () => {
    const { row } = await waitingPayment();
    const length = (await workflowHandle(stack, row.id).fetchHistory()).events!.length;
    const body = JSON.stringify({ deviceId: row.deviceId, acquirerRef: row.acquirerRef, event: 'CAPTURED' });
    expectErrorShape(await notify(body), 401);
    expectErrorShape(await notify(body, signSandboxBody(body, 'not-the-shared-secret-at-all')), 401);
    // Signed over a different body than the one sent.
    expectErrorShape(await notify(body.replace('CAPTURED', 'DECLINED'), signSandboxBody(body, stack.config.SANDBOX_NOTIFY_SECRET)), 401);
    await sleep(300);
    expect((await stack.db.payment.findUniqueOrThrow({ where: { id: row.id } })).status).toBe('AWAITING_TERMINAL');
    expect((await workflowHandle(stack, row.id).fetchHistory()).events!.length).toBe(length);
  });

  it('a genuine but stale notification is only a nudge: the workflow re-reads the acquirer and nothing changes', async () => {
    const { row } = await waitingPayment();
    const body = JSON.stringify({ deviceId: row.deviceId, acquirerRef: row.acquirerRef, event: 'CAPTURED' });
    const res = await notify(body, signSandboxBody(body, stack.config.SANDBOX_NOTIFY_SECRET));
    expect(res.status).toBe(202);
    await sleep(500);
    expect((await stack.db.payment.findUniqueOrThrow({ where: { id: row.id } })).status).toBe('AWAITING_TERMINAL');
    expect(await history(stack, row.id)).toHaveLength(1);
  });

  it('a notification for a bill the service does not know -> 202 and nothing happens', async () => {
    const body = JSON.stringify({ deviceId: 'dev-unknown', acquirerRef: 'sbx_unknown', event: 'CAPTURED' });
    expect((await notify(body, signSandboxBody(body, stack.config.SANDBOX_NOTIFY_SECRET))).status).toBe(202);
  });
});
