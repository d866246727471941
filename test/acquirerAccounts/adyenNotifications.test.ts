import { randomBytes } from 'node:crypto';
import { hmacValidator } from '../../src/acquirer/adyen/library';
import { createPayment, eventually, history, sleep, statusBecomes } from '../payments/helpers';
import { type AdyenStack, adyenTill, startAdyenStack, stopAdyenStack } from './adyenStack';

/**
 * An adyen account's notifications at its notificationPath (docs/acquirers.md, "Notifications per account"): standard
 * notifications verified item by item with the account's hmacKey (the library's validator), answered
 * `[accepted]`; a forged one 401 and nothing changes; a replay accepted and dropped; a Terminal API
 * event notification (unsigned) only a nudge. No notification is the outcome: the workflow re-reads.
 * The workflow does not poll a waiting bill, so with the stand-in's posting off a payment stays
 * AWAITING_TERMINAL until a notification nudges it.
 */
let s: AdyenStack;
let path: string;

beforeAll(async () => {
  s = await startAdyenStack();
  path = `/internal/acquirer/${s.accountId}/notifications`;
}, 120_000);
afterAll(() => stopAdyenStack(s));
beforeEach(() => s.standIn.notifyTo(`${s.stack.apiUrl}${path}`));
afterEach(() => expect(s.standIn.invalid).toEqual([]));

const post = async (body: unknown) => {
  const res = await fetch(`${s.stack.apiUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, text: await res.text() };
};

/** A payment paid at the terminal while the stand-in posts nothing: what it would have posted, and the payment still waiting. */
async function paidUnheard() {
  const { shop, poiid } = await adyenTill(s);
  const created = await createPayment(s.stack, shop, { amount: 8 });
  s.standIn.notifyTo(undefined);
  const from = s.standIn.notifications.length;
  s.standIn.customer(poiid, 'pay');
  // The event notification follows the /async answer's promise: a moment later.
  const event = await eventually(async () => s.standIn.notifications.slice(from).find((n) => n.kind === 'event')?.body);
  const standard = s.standIn.notifications.slice(from).find((n) => n.kind === 'standard')!.body;
  return { id: created.body.id as string, standard, event };
}

const signalsOf = async (id: string) =>
  (await s.stack.client.workflow.getHandle(`payment-${id}`).fetchHistory()).events!.filter((e) => e.workflowExecutionSignaledEventAttributes).length;

it('a standard notification with a valid HMAC: [accepted], and the payment re-reads Adyen (CAPTURED)', async () => {
  const { id, standard } = await paidUnheard();
  expect(standard.notificationItems[0].NotificationRequestItem).toMatchObject({ eventCode: 'AUTHORISATION', merchantReference: id, success: 'true' });
  await sleep(300);
  expect((await s.stack.db.payment.findUniqueOrThrow({ where: { id } })).status).toBe('AWAITING_TERMINAL');
  expect(await post(standard)).toEqual({ status: 200, text: '[accepted]' });
  await statusBecomes(s.stack, id, 'CAPTURED');
});

it('forged (another key, or an altered item): 401 and nothing changes; a replay of a genuine one: [accepted] and dropped', async () => {
  const { id, standard } = await paidUnheard();
  const item = standard.notificationItems[0].NotificationRequestItem;
  const otherKey = {
    ...item,
    additionalData: { ...item.additionalData, hmacSignature: new hmacValidator().calculateHmac(item, randomBytes(32).toString('hex')) },
  };
  const altered = { ...item, amount: { ...item.amount, value: item.amount.value + 1 } };
  const unsigned = { ...item, additionalData: {} };
  for (const forged of [otherKey, altered, unsigned]) {
    const res = await post({ ...standard, notificationItems: [{ NotificationRequestItem: forged }] });
    expect(res.status).toBe(401);
  }
  // One forged item among genuine ones: the whole notification is refused.
  expect((await post({ ...standard, notificationItems: [...standard.notificationItems, { NotificationRequestItem: altered }] })).status).toBe(401);
  await sleep(500);
  expect((await s.stack.db.payment.findUniqueOrThrow({ where: { id } })).status).toBe('AWAITING_TERMINAL');
  expect(await s.stack.db.paymentNudge.count({ where: { paymentId: id } })).toBe(0);
  expect(await signalsOf(id)).toBe(0);

  expect(await post(standard)).toEqual({ status: 200, text: '[accepted]' });
  await statusBecomes(s.stack, id, 'CAPTURED');
  const entries = (await history(s.stack, id)).length;
  const signals = await signalsOf(id);
  expect(await post(standard)).toEqual({ status: 200, text: '[accepted]' });
  await sleep(300);
  expect((await history(s.stack, id)).length).toBe(entries);
  expect(await signalsOf(id)).toBe(signals);
});

it("the stand-in's own forged notification is refused (401), its genuine ones accepted", async () => {
  const { shop, poiid } = await adyenTill(s);
  const created = await createPayment(s.stack, shop, { amount: 6 });
  const from = s.standIn.notifications.length;
  s.standIn.forgeNextNotification();
  s.standIn.customer(poiid, 'pay');
  await statusBecomes(s.stack, created.body.id, 'CAPTURED'); // by the event notification's nudge
  await s.standIn.notificationsSettled();
  const sent = s.standIn.notifications.slice(from).map((n) => [n.kind, n.forged, n.status, n.answer]);
  expect(sent).toContainEqual(['standard', true, 401, expect.stringContaining('HMAC')]);
  expect(sent).toContainEqual(['event', false, 200, '[accepted]']);
});

it('a Terminal API event notification (unsigned in the cloud API) is only a nudge: the payment re-reads Adyen', async () => {
  const { id, event } = await paidUnheard();
  expect(event.SaleToPOIResponse.PaymentResponse.SaleData.SaleTransactionID.TransactionID).toBe(id);
  expect(await post(event)).toEqual({ status: 200, text: '[accepted]' });
  await statusBecomes(s.stack, id, 'CAPTURED');
  // What it claims is never applied: a made-up event about a waiting payment changes nothing.
  const { shop } = await adyenTill(s);
  const waiting = await createPayment(s.stack, shop, { amount: 3 });
  const claim = structuredClone(event);
  claim.SaleToPOIResponse.PaymentResponse.SaleData.SaleTransactionID.TransactionID = waiting.body.id;
  expect((await post(claim)).status).toBe(200);
  await sleep(300);
  expect((await s.stack.db.payment.findUniqueOrThrow({ where: { id: waiting.body.id } })).status).toBe('AWAITING_TERMINAL');
});

it('a notification naming no payment of this account: [accepted] and ignored', async () => {
  const { standard } = await paidUnheard();
  const item = { ...standard.notificationItems[0].NotificationRequestItem, merchantReference: 'someone-else' };
  item.additionalData = { hmacSignature: new hmacValidator().calculateHmac({ ...item, additionalData: undefined }, s.standIn.hmacKey) };
  expect(await post({ ...standard, notificationItems: [{ NotificationRequestItem: item }] })).toEqual({ status: 200, text: '[accepted]' });
});
