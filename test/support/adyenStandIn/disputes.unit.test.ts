import { MODIFICATION_PSP_REFERENCE, parseReport, settlementItemsOfReport } from '../../../src/acquirer/adyen/settlement';
import { type AdyenStandIn, startAdyenStandIn } from './index';
import { bookingOf } from './reports';

/** The stand-in's chargebacks and Disputes API, over HTTP: validated against DisputeService-v30.json, answered as its examples. */
const POIID = 'V400m-987654321';
const BASE = '/ca/services/DisputeService/v30';
const HEADERS = { 'x-api-key': 'test-api-key', 'content-type': 'application/json' };
let standIn: AdyenStandIn;

beforeAll(async () => {
  standIn = await startAdyenStandIn();
});
afterAll(() => standIn.close());

const post = async (operation: string, body: unknown, headers: Record<string, string> = HEADERS) => {
  const res = await fetch(`${standIn.url}${BASE}/${operation}`, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
};

function chargeback() {
  const tx = standIn.offlinePayment(POIID, { amount: 30, currency: 'EUR', merchantAccount: 'TestMerchantPOS', cardBrand: 'visa' });
  return standIn.openChargeback(POIID, tx.pspReference, { respondWithinHours: 24 });
}

it('notifies a chargeback: NOTIFICATION_OF_CHARGEBACK, signed, with disputeStatus, defendable and the defense period', () => {
  const d = chargeback();
  const item = standIn.notifications.at(-1)!.body.notificationItems[0].NotificationRequestItem;
  expect(item).toMatchObject({
    eventCode: 'NOTIFICATION_OF_CHARGEBACK',
    pspReference: d.pspReference,
    originalReference: d.tx.pspReference,
    amount: { currency: 'EUR', value: 3000 },
    additionalData: {
      disputeStatus: 'Undefended',
      defendable: 'true',
      chargebackSchemeCode: 'visa',
      chargebackReasonCode: '10.4',
      defensePeriodEndsAt: d.defensePeriodEndsAt,
    },
  });
  expect(item.additionalData.hmacSignature).toEqual(expect.any(String));
});

it('refuses a request the document does not allow (422 with the field, kept in invalid), and one without a key (401)', async () => {
  const d = chargeback();
  const before = standIn.invalid.length;
  const misspelt = await post('defendDispute', { merchantAccountCode: 'TestMerchantPOS', disputePspReference: d.pspReference, defenceReasonCode: 'X' });
  expect(misspelt.status).toBe(422);
  expect(misspelt.body.message).toMatch(/defenseReasonCode|defenceReasonCode/);
  expect(
    (await post('acceptDispute', { merchantAccountCode: 'TestMerchantPOS', disputePspReference: d.pspReference }, { 'content-type': 'application/json' }))
      .status,
  ).toBe(401);
  expect(standIn.invalid.length).toBe(before + 2);
  expect(d.status).toBe('Undefended');
});

it("defends as the examples answer, refusing a defense without the reason's required document; then decides", async () => {
  const d = chargeback();
  const ref = { merchantAccountCode: 'TestMerchantPOS', disputePspReference: d.pspReference };
  const reasons = await post('retrieveApplicableDefenseReasons', ref);
  expect(reasons.body.disputeServiceResult).toEqual({ success: true });
  expect(reasons.body.defenseReasons.map((r: any) => r.defenseReasonCode)).toContain('SupplyDefenseMaterial');
  expect((await post('defendDispute', { ...ref, defenseReasonCode: 'SupplyDefenseMaterial' })).body.disputeServiceResult).toEqual({
    success: false,
    errorMessage: 'Required defense documents missing: DefenseMaterial',
  });
  const content = Buffer.from('%PDF-1.4').toString('base64');
  expect(
    (
      await post('supplyDefenseDocument', {
        ...ref,
        defenseDocuments: [{ defenseDocumentTypeCode: 'DefenseMaterial', contentType: 'application/pdf', content }],
      })
    ).body,
  ).toEqual({
    disputeServiceResult: { success: true },
  });
  expect((await post('defendDispute', { ...ref, defenseReasonCode: 'SupplyDefenseMaterial' })).body).toEqual({ disputeServiceResult: { success: true } });
  expect(d.status).toBe('Pending');
  expect((await post('acceptDispute', ref)).body.disputeServiceResult.success).toBe(false); // defended already
  standIn.decideChargeback(d.pspReference, 'LOST');
  expect(standIn.notifications.at(-1)!.body.notificationItems[0].NotificationRequestItem).toMatchObject({
    eventCode: 'SECOND_CHARGEBACK',
    additionalData: { disputeStatus: 'Lost' },
  });
});

it("an unknown dispute, or another merchant account's: success false", async () => {
  const d = chargeback();
  expect((await post('acceptDispute', { merchantAccountCode: 'Other', disputePspReference: d.pspReference })).body.disputeServiceResult.success).toBe(false);
  expect((await post('acceptDispute', { merchantAccountCode: 'TestMerchantPOS', disputePspReference: 'NOPE' })).body.disputeServiceResult.success).toBe(false);
});

it("books a dispute's money in the day's Payment accounting report: the debit with its fee at the opening, the credit back once won", async () => {
  const d = chargeback();
  const ref = { merchantAccountCode: 'TestMerchantPOS', disputePspReference: d.pspReference };
  const content = Buffer.from('%PDF-1.4').toString('base64');
  await post('supplyDefenseDocument', { ...ref, defenseDocuments: [{ defenseDocumentTypeCode: 'DefenseMaterial', contentType: 'application/pdf', content }] });
  await post('defendDispute', { ...ref, defenseReasonCode: 'SupplyDefenseMaterial' });
  standIn.decideChargeback(d.pspReference, 'WON');
  const date = bookingOf(d.openedAt).date;
  const res = await fetch(`${standIn.url}/reports/download/MerchantAccount/TestMerchantPOS/payments_accounting_report_${date.replace(/-/g, '_')}.csv`, {
    headers: { 'x-api-key': 'test-api-key' },
  });
  const csv = await res.text();
  const rows = parseReport(csv).filter((r) => r['Psp Reference'] === d.tx.pspReference && r['Record Type'].startsWith('Chargeback'));
  expect(rows.map((r) => [r['Record Type'], r['Main Amount'], r['Markup (SC)'], r[MODIFICATION_PSP_REFERENCE], r['Unique Terminal Id']])).toEqual([
    ['Chargeback', '30.00', '2.00', d.pspReference, POIID],
    ['ChargebackReversed', '30.00', '', d.pspReference, POIID],
  ]);
  // As the adapter reads them: the dispute's two items on the terminal.
  const items = settlementItemsOfReport(parseReport(csv), {
    merchantAccount: 'TestMerchantPOS',
    deviceId: POIID,
    since: null,
    until: new Date(Date.now() + 2000).toISOString(),
  });
  expect(items.filter((i) => i.disputeId === d.pspReference)).toEqual([
    expect.objectContaining({ type: 'CHARGEBACK', paymentId: d.tx.saleTransactionId.TransactionID, amount: '30.00', feeAmount: '2.00' }),
    expect.objectContaining({ type: 'CHARGEBACK_REVERSAL', amount: '30.00', feeAmount: '0.00' }),
  ]);
});

it('books a second chargeback of a won dispute: SecondChargeback debited again with its fee, notified SECOND_CHARGEBACK; a dispute not won has none', async () => {
  const d = chargeback();
  expect(() => standIn.secondChargeback(d.pspReference)).toThrow(/not won/);
  const ref = { merchantAccountCode: 'TestMerchantPOS', disputePspReference: d.pspReference };
  const content = Buffer.from('%PDF-1.4').toString('base64');
  await post('supplyDefenseDocument', { ...ref, defenseDocuments: [{ defenseDocumentTypeCode: 'DefenseMaterial', contentType: 'application/pdf', content }] });
  await post('defendDispute', { ...ref, defenseReasonCode: 'SupplyDefenseMaterial' });
  standIn.decideChargeback(d.pspReference, 'WON');
  await new Promise((r) => setTimeout(r, 1100)); // a booking second of its own
  standIn.secondChargeback(d.pspReference);
  expect(standIn.notifications.at(-1)!.body.notificationItems[0].NotificationRequestItem).toMatchObject({
    eventCode: 'SECOND_CHARGEBACK',
    pspReference: d.pspReference,
    additionalData: { disputeStatus: 'Lost' },
  });
  const date = bookingOf(d.openedAt).date;
  const res = await fetch(`${standIn.url}/reports/download/MerchantAccount/TestMerchantPOS/payments_accounting_report_${date.replace(/-/g, '_')}.csv`, {
    headers: { 'x-api-key': 'test-api-key' },
  });
  const rows = parseReport(await res.text()).filter((r) => r['Psp Reference'] === d.tx.pspReference && r[MODIFICATION_PSP_REFERENCE] === d.pspReference);
  expect(rows.map((r) => [r['Record Type'], r['Main Amount'], r['Markup (SC)']])).toEqual([
    ['Chargeback', '30.00', '2.00'],
    ['ChargebackReversed', '30.00', ''],
    ['SecondChargeback', '30.00', '2.00'],
  ]);
});
