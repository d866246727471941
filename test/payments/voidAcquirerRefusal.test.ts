import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expectErrorShape } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';
import { createPayment, history, openShop, paymentAction, sim, statusBecomes } from './helpers';

/**
 * An acquirer's own HTTP status never becomes ours (docs/architecture.md, "Where each kind of rule
 * lives"; src/acquirer/errors.ts). The void's last precondition asks the acquirer whether the device
 * supports voids (docs/payments.md, "Void"); when the acquirer refuses that read with its 401 or
 * 404 the merchant is answered 409 (the acquirer refused), and when it does not answer 503 with
 * Retry-After: never 401 (as if the merchant's key were wrong) or 404 (as if the payment were).
 *
 * The service reaches the sandbox through a pass-through proxy (SANDBOX_URL) that answers the
 * device read of the devices in `refused` with the status given there.
 */
const refused = new Map<string, number>();
let sandboxUrl = '';
const proxy = http.createServer((req, res) => {
  const device = /^\/acquirer\/v1\/devices\/([^/?]+)$/.exec(req.url ?? '');
  const status = req.method === 'GET' && device ? refused.get(decodeURIComponent(device[1])) : undefined;
  if (status) {
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify({ message: `the acquirer's own ${status}` }));
    return;
  }
  const target = new URL(req.url ?? '/', sandboxUrl);
  const upstream = http.request(target, { method: req.method, headers: req.headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstream.on('error', () => res.destroy());
  req.pipe(upstream);
});

let stack: TestStack;
beforeAll(async () => {
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const port = (proxy.address() as AddressInfo).port;
  stack = await startTestStack({ SANDBOX_URL: `http://127.0.0.1:${port}`, VOID_CONFIRM_TIMEOUT_SECONDS: '1' });
  sandboxUrl = stack.sandboxUrl;
});
afterAll(async () => {
  await stack?.stop();
  await new Promise((resolve) => proxy.close(resolve));
});

async function captured() {
  const shop = await openShop(stack);
  const { body } = await createPayment(stack, shop);
  await sim(stack).customer(shop.deviceId, { action: 'pay' });
  await statusBecomes(stack, body.id, 'CAPTURED');
  return { shop, id: body.id as string };
}

describe("void: the acquirer's refusal of the device check", () => {
  it.each([401, 404, 403])("the acquirer's %i is answered 409 naming the acquirer's refusal, nothing submitted", async (status) => {
    const { shop, id } = await captured();
    refused.set(shop.deviceId, status);
    const res = await paymentAction(stack, shop, id, 'void');
    expect(expectErrorShape(res, 409)).toBe(`void not permitted: the acquirer refused the device check (it answered ${status}); nothing was submitted`);
    expect((await history(stack, id)).filter((h) => h.actionReference.startsWith('VOID-'))).toHaveLength(0);
    expect((await stack.db.payment.findUniqueOrThrow({ where: { id } })).status).toBe('CAPTURED');

    // Once the acquirer answers again, the same void goes through.
    refused.delete(shop.deviceId);
    const again = await paymentAction(stack, shop, id, 'void');
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id, status: 'CANCELLED' });
  });

  it('the acquirer answering 500 (no answer) is 503 with Retry-After, nothing submitted', async () => {
    const { shop, id } = await captured();
    refused.set(shop.deviceId, 500);
    const res = await paymentAction(stack, shop, id, 'void');
    expect(expectErrorShape(res, 503)).toBe('the acquirer did not answer the device check; nothing was submitted; retry shortly');
    expect(res.headers.get('retry-after')).toBe('2');
    expect((await history(stack, id)).filter((h) => h.actionReference.startsWith('VOID-'))).toHaveLength(0);
    refused.delete(shop.deviceId);
  });
});
