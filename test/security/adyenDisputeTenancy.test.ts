import crypto from 'node:crypto';
import { hmacValidator } from '../../src/acquirer/adyen/library';
import { ADYEN_MID, complianceOf, disputeReads, paidAtAdyen, withAdyenStack } from '../acquirerAccounts/adyenStack';
import { adminOf } from '../acquirerAccounts/helpers';
import { answer, writeStatement } from '../disputes/helpers';
import { createPayment, eventually, openShop, sleep, statusBecomes } from '../payments/helpers';
import { call, expectErrorShape } from '../support/http';

/**
 * Adyen's dispute notifications between two businesses, each with its own Adyen account, through
 * the Adyen stand-in (docs/security.md, "Adyen's dispute notifications"; docs/disputes.md, "Adyen"):
 *  - an item naming another account's MID is refused at this account's path, whoever signed it:
 *    business B, signing with its own account's HMAC key, cannot rewrite business A's dispute;
 *  - only the signed fields of an item decide: a replayed genuine item with its unsigned
 *    `disputeStatus`, `defensePeriodEndsAt`, `defendable` or `eventDate` rewritten changes nothing.
 */
const s = withAdyenStack();
const B_MID = 'OtherBusinessPOS';
const B_HMAC = crypto.randomBytes(32).toString('hex').toUpperCase();
let compliance: string;
let bPath: string;
let bPayment: { id: string; pspReference: string };

const aPath = () => `/internal/acquirer/${s.accountId}/notifications`;
const post = (path: string, body: unknown) => call(s.stack.apiUrl, 'POST', path, { body });
const { read, disputeOfPayment, becomes } = disputeReads(s, () => compliance);
const noticeOf = (disputePspReference: string) => s.stack.db.adyenDisputeNotice.findFirstOrThrow({ where: { disputePspReference } });

/** A NotificationRequestItem signed with `key`, in Adyen's envelope. */
function signed(key: string, item: Record<string, any>): unknown {
  const { additionalData, ...fields } = item;
  const hmacSignature = new hmacValidator().calculateHmac({ ...fields, additionalData } as never, key);
  return { live: 'false', notificationItems: [{ NotificationRequestItem: { ...fields, additionalData: { ...additionalData, hmacSignature } } }] };
}

beforeAll(async () => {
  compliance = await complianceOf(s);
  // Business B: its own test-mode Adyen account (its own MID and HMAC key), with a payment of its own at the stand-in.
  const bShop = await openShop(s.stack, { mode: 'test' });
  const merchant = await s.stack.db.merchant.findUniqueOrThrow({ where: { id: bShop.merchantId } });
  const admin = await adminOf(s.stack, merchant);
  const created = await admin.createAccount({
    name: 'Adyen B',
    acquirer: 'adyen',
    mode: 'test',
    merchantAccountId: B_MID,
    credentials: { apiKey: `AQE${crypto.randomBytes(12).toString('hex')}`, hmacKey: B_HMAC, environment: 'TEST' },
  });
  expect(created.status).toBe(201);
  bPath = created.body.notificationPath;
  expect((await admin.saveRoutes({ mode: 'test', rules: [], defaultAccountId: created.body.id })).status).toBe(200);
  const poiid = `V400m-${crypto.randomInt(100_000_000, 999_999_999)}`;
  await s.stack.db.terminal.update({ where: { id: bShop.terminalId }, data: { deviceId: poiid } });
  // While B pays, the stand-in posts to B's path: its Terminal API event notification (unsigned, a
  // nudge) tells B's payment; its standard items, signed with A's key, are refused there (401).
  s.standIn.notifyTo(`${s.stack.apiUrl}${bPath}`);
  const paid = await createPayment(s.stack, { ...bShop, deviceId: poiid }, { amount: 30 });
  expect(paid.body.status).toBe('AWAITING_TERMINAL');
  const tx = s.standIn.customer(poiid, 'pay', { cardBrand: 'visa', last4: '4242' });
  await statusBecomes(s.stack, paid.body.id, 'CAPTURED');
  await s.standIn.notificationsSettled();
  s.standIn.notifyTo(`${s.stack.apiUrl}${aPath()}`);
  bPayment = { id: paid.body.id, pspReference: tx.pspReference };
}, 60_000);

it("B's item naming A's MID and dispute, signed with B's key at B's path, is refused (400) and changes nothing; A's submit then defends at Adyen", async () => {
  const { id, poiid, tx } = await paidAtAdyen(s, 40);
  const chargeback = s.standIn.openChargeback(poiid, tx.pspReference);
  const dispute = await disputeOfPayment(id);
  expect(dispute.status).toBe('NEEDS_RESPONSE');
  const before = await noticeOf(chargeback.pspReference);

  // What B can write and sign: A's MID and dispute, B's own payment as merchantReference.
  const forB = (eventCode: string, additionalData: Record<string, string>) => ({
    amount: { currency: 'EUR', value: 4000 },
    eventCode,
    eventDate: new Date().toISOString(),
    merchantAccountCode: ADYEN_MID,
    merchantReference: bPayment.id,
    originalReference: tx.pspReference,
    pspReference: chargeback.pspReference,
    success: 'true',
    additionalData,
  });
  for (const item of [
    forB('CHARGEBACK', { disputeStatus: 'Accepted' }),
    forB('SECOND_CHARGEBACK', {}),
    forB('CHARGEBACK_REVERSED', { disputeStatus: 'Won' }),
  ]) {
    const refused = await post(bPath, signed(B_HMAC, item));
    expect(expectErrorShape(refused, 400)).toMatch(/^notificationItems\[0\]\.NotificationRequestItem\.merchantAccountCode: /);
  }
  // At A's own path B's key is no signature at all.
  expectErrorShape(await post(aPath(), signed(B_HMAC, forB('SECOND_CHARGEBACK', {}))), 401);

  await sleep(500);
  expect(await noticeOf(chargeback.pspReference)).toEqual(before);
  expect((await read(dispute.id)).body).toMatchObject({ status: 'NEEDS_RESPONSE', dueBy: dispute.dueBy });
  expect(await s.stack.db.dispute.count({ where: { paymentId: bPayment.id } })).toBe(0);

  // A's submit really defends at Adyen.
  expect((await writeStatement(s.stack, compliance, dispute.id, { text: 'Card present, chip & PIN.' })).status).toBe(200);
  const submitted = await answer(s.stack, compliance, dispute.id, 'submit');
  expect([submitted.status, submitted.body.status]).toEqual([200, 'UNDER_REVIEW']);
  expect(s.standIn.disputes.get(chargeback.pspReference)!.calls.map((c) => c.operation)).toEqual([
    'retrieveApplicableDefenseReasons',
    'supplyDefenseDocument',
    'defendDispute',
  ]);
  expect(s.standIn.disputes.get(chargeback.pspReference)!.status).toBe('Pending');
});

it("B's item naming its own MID at its own path is still taken ([accepted]); one naming another MID in the same batch refuses the whole batch", async () => {
  const own = {
    amount: { currency: 'EUR', value: 3000 },
    eventCode: 'AUTHORISATION',
    merchantAccountCode: B_MID,
    merchantReference: bPayment.id,
    pspReference: bPayment.pspReference,
    success: 'true',
    additionalData: {},
  };
  const ok = await post(bPath, signed(B_HMAC, own));
  expect([ok.status, ok.body]).toEqual([200, '[accepted]']);
  const batch = signed(B_HMAC, own) as { notificationItems: unknown[] };
  batch.notificationItems.push((signed(B_HMAC, { ...own, merchantAccountCode: ADYEN_MID }) as { notificationItems: unknown[] }).notificationItems[0]);
  expect(expectErrorShape(await post(bPath, batch), 400)).toMatch(/^notificationItems\[1\]\.NotificationRequestItem\.merchantAccountCode: /);
});

it('a replayed genuine item whose unsigned fields say Lost, with a past defence period, changes nothing; the signed event code decides', async () => {
  const { id, poiid, tx } = await paidAtAdyen(s, 25);
  const sentBefore = s.standIn.notifications.length;
  const receivedFrom = Date.now();
  const chargeback = s.standIn.openChargeback(poiid, tx.pspReference, { respondWithinHours: 400 });
  await s.standIn.notificationsSettled();
  const receivedTo = Date.now();
  const genuine = s.standIn.notifications
    .slice(sentBefore)
    .find((n) => n.body.notificationItems?.[0]?.NotificationRequestItem?.pspReference === chargeback.pspReference)!;
  expect(genuine).toMatchObject({ status: 200, answer: '[accepted]' });
  const dispute = await disputeOfPayment(id);
  const before = await noticeOf(chargeback.pspReference);

  // The same signed fields, the unsigned ones rewritten: still a valid HMAC.
  const replay = structuredClone(genuine.body);
  const item = replay.notificationItems[0].NotificationRequestItem;
  Object.assign(item, { eventDate: '2020-01-01T00:00:00.000Z' });
  Object.assign(item.additionalData, { disputeStatus: 'Lost', defendable: 'false', defensePeriodEndsAt: '2020-01-08T00:00:00.000Z' });
  const taken = await post(aPath(), replay);
  expect([taken.status, taken.body]).toEqual([200, '[accepted]']);
  await sleep(800);
  expect(await noticeOf(chargeback.pspReference)).toEqual(before);
  expect((await read(dispute.id)).body).toMatchObject({ status: 'NEEDS_RESPONSE', dueBy: dispute.dueBy, closedAt: null });
  // Due the default defence period (ADYEN_DEFENSE_PERIOD_DAYS, 7) after it was received, not the item's unsigned 400 hours.
  const dueBy = Date.parse(dispute.dueBy);
  expect(dueBy).toBeGreaterThanOrEqual(receivedFrom + 7 * 86_400_000 - 1);
  expect(dueBy).toBeLessThanOrEqual(receivedTo + 7 * 86_400_000 + 1);

  // A new item of another event, its unsigned fields saying Lost: the signed CHARGEBACK says NEEDS_RESPONSE.
  const newItem = structuredClone(item);
  newItem.eventCode = 'CHARGEBACK';
  delete newItem.additionalData.hmacSignature;
  const resigned = signed(s.standIn.hmacKey, newItem); // as Adyen would sign it
  expect((await post(aPath(), resigned)).status).toBe(200);
  await sleep(500);
  expect(await noticeOf(chargeback.pspReference)).toMatchObject({ status: 'NEEDS_RESPONSE', dueBy: before.dueBy });
  expect((await read(dispute.id)).body).toMatchObject({ status: 'NEEDS_RESPONSE', dueBy: dispute.dueBy });

  // Defended, won, then charged back again: at the same rank the new item's arrival decides (LOST);
  // the CHARGEBACK_REVERSED item replayed after it changes nothing.
  expect((await writeStatement(s.stack, compliance, dispute.id, { text: 'Handed over at the till.' })).status).toBe(200);
  expect((await answer(s.stack, compliance, dispute.id, 'submit')).status).toBe(200);
  s.standIn.decideChargeback(chargeback.pspReference, 'WON');
  await becomes(dispute.id, 'WON');
  const reversedAt = s.standIn.notifications.length - 1;
  expect(s.standIn.notifications[reversedAt]!.body.notificationItems[0].NotificationRequestItem.eventCode).toBe('CHARGEBACK_REVERSED');
  s.standIn.secondChargeback(chargeback.pspReference);
  await s.standIn.notificationsSettled();
  await eventually(async () => ((await noticeOf(chargeback.pspReference)).status === 'LOST' ? true : undefined), 15_000);
  s.standIn.replayNotification(reversedAt);
  await s.standIn.notificationsSettled();
  expect(s.standIn.notifications.at(-1)).toMatchObject({ replay: true, status: 200, answer: '[accepted]' });
  await sleep(500);
  expect((await noticeOf(chargeback.pspReference)).status).toBe('LOST');
});
