import { Client, DisputesAPI, EnvironmentEnum } from '@adyen/api-library';
import { rebase } from '../../../src/acquirer/adyen/transport';
import {
  ADYEN_DISPUTE_EVENT,
  adyenDisputeReasonOf,
  adyenDisputeStatusOf,
  defenseDocumentOf,
  defenseReasonOf,
  disputeNoticeOf,
  signedDigestOf,
} from '../../../src/acquirer/adyen/disputes';

/**
 * Adyen's dispute notifications as ours (docs/disputes.md, "Adyen"): only what the item's HMAC
 * covers decides (the event code and success), the reason codes per scheme, and the notice a
 * notification gives: dated when received, due the default defense period on.
 */
const item = (eventCode: string, additionalData: Record<string, string> = {}, extra: Record<string, unknown> = {}) =>
  ({
    amount: { currency: 'EUR', value: 4000 },
    eventCode,
    eventDate: '2026-11-20T10:00:00+01:00',
    merchantAccountCode: 'TestMerchant',
    merchantReference: 'pay_1',
    originalReference: '8816178914079738',
    pspReference: '9916178914079739',
    reason: 'Fraud',
    success: 'true',
    additionalData: { chargebackReasonCode: '10.4', chargebackSchemeCode: 'visa', defensePeriodEndsAt: '2026-11-27T10:00:00+01:00', ...additionalData },
    ...extra,
  }) as never;

const clock = { receivedAt: new Date('2026-11-21T08:00:00.000Z'), defensePeriodDays: 7 };

describe('the event code decides (signed), for an item Adyen marks successful', () => {
  it.each(Object.entries(ADYEN_DISPUTE_EVENT))('%s: %s', (code, status) => {
    expect(adyenDisputeStatusOf(code, 'true')).toBe(status);
  });

  it('another event code, or success false, is no dispute event', () => {
    expect(adyenDisputeStatusOf('AUTHORISATION', 'true')).toBeNull();
    expect(adyenDisputeStatusOf('CHARGEBACK', 'false')).toBeNull();
  });
});

describe('reasons per scheme (chargebackSchemeCode, chargebackReasonCode)', () => {
  it.each([
    ['visa', '10.4', 'FRAUD'],
    ['visa', '13.1', 'NOT_RECEIVED'],
    ['visa', '12.6.1', 'DUPLICATE'],
    ['visa', '13.6', 'CREDIT_NOT_PROCESSED'],
    ['visa', '13.3', 'GENERAL'],
    ['mc', '4837', 'FRAUD'],
    ['mastercard', '4863', 'FRAUD'],
    ['mc', '4855', 'NOT_RECEIVED'],
    ['mc', '4834', 'DUPLICATE'],
    ['mc', '4860', 'CREDIT_NOT_PROCESSED'],
    ['mc', '4853', 'GENERAL'],
    ['amex', 'F29', 'GENERAL'],
    [undefined, undefined, 'GENERAL'],
  ])('%s %s: %s', (scheme, code, reason) => {
    expect(adyenDisputeReasonOf(scheme, code)).toBe(reason);
  });
});

describe('the notice of a notification', () => {
  it('a chargeback: the dispute pspReference, the payment (originalReference), amount in decimals, dated when received, due the defense period on', () => {
    expect(disputeNoticeOf(item('NOTIFICATION_OF_CHARGEBACK', { disputeStatus: 'Undefended', defendable: 'true' }), clock)).toEqual({
      merchantAccount: 'TestMerchant',
      disputePspReference: '9916178914079739',
      paymentPspReference: '8816178914079738',
      merchantReference: 'pay_1',
      status: 'NEEDS_RESPONSE',
      reason: 'FRAUD',
      amount: '40.00',
      currency: 'EUR',
      eventCode: 'NOTIFICATION_OF_CHARGEBACK',
      eventDate: '2026-11-21T08:00:00.000Z',
      dueBy: '2026-11-28T08:00:00.000Z',
      digest: signedDigestOf(item('NOTIFICATION_OF_CHARGEBACK')),
    });
  });

  it('the unsigned fields decide nothing: disputeStatus, defendable, defensePeriodEndsAt, eventDate', () => {
    const genuine = disputeNoticeOf(item('NOTIFICATION_OF_CHARGEBACK'), clock);
    const rewritten = disputeNoticeOf(
      item(
        'NOTIFICATION_OF_CHARGEBACK',
        { disputeStatus: 'Lost', defendable: 'false', defensePeriodEndsAt: '2020-01-01T00:00:00Z' },
        { eventDate: '2020-01-01T00:00:00Z' },
      ),
      clock,
    );
    expect(rewritten).toEqual(genuine);
    expect(rewritten).toMatchObject({ status: 'NEEDS_RESPONSE', dueBy: '2026-11-28T08:00:00.000Z' });
    // An unreadable unsigned date is no reason to drop a signed item.
    expect(disputeNoticeOf(item('CHARGEBACK', { defensePeriodEndsAt: 'soon' }, { eventDate: 'x' }), clock)).toMatchObject({ status: 'NEEDS_RESPONSE' });
  });

  it('the digest is of the signed fields alone: the same for a replay, another for another event', () => {
    expect(signedDigestOf(item('CHARGEBACK'))).toBe(signedDigestOf(item('CHARGEBACK', { disputeStatus: 'Lost' }, { eventDate: '2020-01-01T00:00:00Z' })));
    expect(signedDigestOf(item('CHARGEBACK'))).not.toBe(signedDigestOf(item('SECOND_CHARGEBACK')));
    expect(signedDigestOf(item('CHARGEBACK'))).not.toBe(signedDigestOf(item('CHARGEBACK', {}, { merchantAccountCode: 'OtherMerchant' })));
  });

  it('not a dispute, or a dispute item missing what names it: none', () => {
    expect(disputeNoticeOf(item('AUTHORISATION'), clock)).toBeNull();
    expect(disputeNoticeOf(item('CHARGEBACK', {}, { success: 'false' }), clock)).toBeNull();
    expect(disputeNoticeOf(item('CHARGEBACK', {}, { originalReference: undefined }), clock)).toBeNull();
    expect(disputeNoticeOf(item('CHARGEBACK', {}, { amount: { currency: 'EUR', value: 'x' } }), clock)).toBeNull();
    expect(disputeNoticeOf(item('CHARGEBACK', {}, { amount: { currency: 'XXX', value: 1 } }), clock)).toBeNull();
  });
});

describe('the defense', () => {
  it('the reason needing fewest documents, filed under its required types; one taking none last', () => {
    expect(
      defenseReasonOf([
        { defenseReasonCode: 'None', defenseDocumentTypes: [] },
        {
          defenseReasonCode: 'GoodsOrServicesProvided',
          defenseDocumentTypes: [
            { defenseDocumentTypeCode: 'Invoice', requirementLevel: 'Required' },
            { defenseDocumentTypeCode: 'Proof', requirementLevel: 'Required' },
          ],
        },
        {
          defenseReasonCode: 'SupplyDefenseMaterial',
          defenseDocumentTypes: [
            { defenseDocumentTypeCode: 'DefenseMaterial', requirementLevel: 'OneOrMore' },
            { defenseDocumentTypeCode: 'Other', requirementLevel: 'Optional' },
          ],
        },
      ]),
    ).toEqual({ defenseReasonCode: 'SupplyDefenseMaterial', documentTypeCodes: ['DefenseMaterial'] });
    expect(defenseReasonOf([])).toBeNull();
  });

  it('the document: the statement as written and the transaction, as a PDF', () => {
    const doc = defenseDocumentOf({ text: 'Signed <b>receipt</b>', transaction: { pspReference: 'PSP-1' } });
    expect(doc.contentType).toBe('application/pdf');
    const body = Buffer.from(doc.content, 'base64').toString('latin1');
    expect(body.startsWith('%PDF-1.4')).toBe(true);
    expect(body).toContain('Signed <b>receipt</b>');
    expect(body).toContain('"pspReference": "PSP-1"');
  });
});

describe("the library's Disputes API base, under ADYEN_API_BASE", () => {
  it("TEST (ca-test) and LIVE (ca-live) are rebased to the stand-in with Adyen's path", () => {
    for (const environment of [EnvironmentEnum.TEST, EnvironmentEnum.LIVE]) {
      const api = new DisputesAPI(new Client({ apiKey: 'k', environment, liveEndpointUrlPrefix: 'x' })).DisputesApi as unknown as { baseUrl: string };
      expect(api.baseUrl).toBe(`https://ca-${environment === EnvironmentEnum.LIVE ? 'live' : 'test'}.adyen.com/ca/services/DisputeService/v30`);
      expect(rebase(`${api.baseUrl}/defendDispute`, 'http://127.0.0.1:4010').toString()).toBe(
        'http://127.0.0.1:4010/ca/services/DisputeService/v30/defendDispute',
      );
    }
  });
});
