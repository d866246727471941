import { hmacValidator } from '@adyen/api-library';
import { adyenNotificationOf, allSigned, itemNudgeOf } from '../../../src/acquirer/adyen/notifications';
import { adyenFile } from '../../support/adyenStandIn/fixtures';

/** Adyen's notifications read as nudges, on Adyen's own example notifications (fixtures/notification). */
const KEY = '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056';
const resigned = (body: any, key = KEY) => {
  for (const { NotificationRequestItem: item } of body.notificationItems) {
    item.additionalData = { ...item.additionalData, hmacSignature: new hmacValidator().calculateHmac(item, key) };
  }
  return body;
};

it.each([
  ['authorisationTrue.json', 'ADYEN_AUTHORISATION'],
  ['captureTrue.json', 'ADYEN_CAPTURE'],
  ['captureFalse.json', 'ADYEN_CAPTURE'],
  ['refundTrue.json', 'REFUND_SUCCEEDED'],
  ['refundFalse.json', 'REFUND_FAILED'],
])('%s: a standard notification, verified with the key it was signed with, nudging its merchantReference (%s)', (file, event) => {
  const body = resigned(adyenFile(`fixtures/notification/${file}`));
  const n = adyenNotificationOf(body);
  if (n?.kind !== 'standard') throw new Error('not read as a standard notification');
  expect(allSigned(n.items, KEY)).toBe(true);
  expect(allSigned(n.items, 'AB'.repeat(32))).toBe(false);
  expect(itemNudgeOf(n.items[0]!)).toMatchObject({ paymentId: n.items[0]!.merchantReference, event });
});

it("Adyen's own signature (an unknown key) and a missing one do not verify", () => {
  const n = adyenNotificationOf(adyenFile('fixtures/notification/authorisationTrue.json'));
  if (n?.kind !== 'standard') throw new Error('not read as a standard notification');
  expect(allSigned(n.items, KEY)).toBe(false);
  expect(allSigned([{ ...n.items[0]!, additionalData: {} }], KEY)).toBe(false);
});

it('a void (CANCEL_OR_REFUND) nudges VOID_CONFIRMED; a :preauth reference is our payment id', () => {
  expect(itemNudgeOf({ eventCode: 'CANCEL_OR_REFUND', merchantReference: 'pay_1:preauth', pspReference: 'P', success: 'true' } as never)).toMatchObject({
    paymentId: 'pay_1',
    event: 'VOID_CONFIRMED',
  });
});

it('event notifications: a payment answer names our payment by SaleTransactionID; a terminal event names none; anything else is not Adyen', () => {
  const answer = {
    SaleToPOIResponse: { MessageHeader: { POIID: 'V400m-1' }, PaymentResponse: { SaleData: { SaleTransactionID: { TransactionID: 'pay_9' } } } },
  };
  expect(adyenNotificationOf(answer)).toEqual({ kind: 'event', nudge: { paymentId: 'pay_9', event: 'ADYEN_EVENT' } });
  expect(adyenNotificationOf({ SaleToPOIRequest: { EventNotification: { EventToNotify: 'Shutdown' } } })).toEqual({ kind: 'event', nudge: null });
  expect(adyenNotificationOf({ deviceId: 'd', acquirerRef: 'a', event: 'PAID' })).toBeNull();
  expect(adyenNotificationOf({ notificationItems: [{ nope: 1 }] })).toBeNull();
});
