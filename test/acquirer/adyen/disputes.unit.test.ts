import { Client, DisputesAPI, EnvironmentEnum } from '@adyen/api-library';
import { rebase } from '../../../src/acquirer/adyen/transport';
import {
  ADYEN_DISPUTE_EVENT,
  ADYEN_DISPUTE_STATUS,
  adyenDisputeReasonOf,
  adyenDisputeStatusOf,
  defenseDocumentOf,
  defenseReasonOf,
  disputeNoticeOf,
} from '../../../src/acquirer/adyen/disputes';

/**
 * Adyen's dispute notifications as ours (docs/disputes.md, "Adyen"): the disputeStatus table, the
 * event codes without one, the reason codes per scheme, and the notice a notification gives.
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

describe("Adyen's disputeStatus", () => {
  it('maps every status Adyen documents', () => {
    expect(ADYEN_DISPUTE_STATUS).toEqual({
      Undefended: 'NEEDS_RESPONSE',
      Pending: 'UNDER_REVIEW',
      Responded: 'UNDER_REVIEW',
      Accepted: 'ACCEPTED',
      Won: 'WON',
      Lost: 'LOST',
      Expired: 'LOST',
    });
  });

  it('decides over the event code', () => {
    expect(adyenDisputeStatusOf('CHARGEBACK', { disputeStatus: 'Won' })).toBe('WON');
    expect(adyenDisputeStatusOf('DISPUTE_DEFENSE_PERIOD_ENDED', { disputeStatus: 'Expired' })).toBe('LOST');
  });
});

describe('the event code, where no disputeStatus is given', () => {
  it.each(Object.entries(ADYEN_DISPUTE_EVENT))('%s: %s', (code, status) => {
    expect(adyenDisputeStatusOf(code, {})).toBe(status);
  });

  it('a chargeback that cannot be defended is lost at once; another event code is no dispute', () => {
    expect(adyenDisputeStatusOf('CHARGEBACK', { defendable: 'false' })).toBe('LOST');
    expect(adyenDisputeStatusOf('NOTIFICATION_OF_CHARGEBACK', { defendable: 'true' })).toBe('NEEDS_RESPONSE');
    expect(adyenDisputeStatusOf('AUTHORISATION', {})).toBeNull();
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
  it('a chargeback: the dispute pspReference, the payment (originalReference), amount in decimals, due date from defensePeriodEndsAt', () => {
    expect(disputeNoticeOf(item('NOTIFICATION_OF_CHARGEBACK', { disputeStatus: 'Undefended', defendable: 'true' }))).toEqual({
      merchantAccount: 'TestMerchant',
      disputePspReference: '9916178914079739',
      paymentPspReference: '8816178914079738',
      merchantReference: 'pay_1',
      status: 'NEEDS_RESPONSE',
      reason: 'FRAUD',
      amount: '40.00',
      currency: 'EUR',
      eventCode: 'NOTIFICATION_OF_CHARGEBACK',
      eventDate: '2026-11-20T09:00:00.000Z',
      dueBy: '2026-11-27T09:00:00.000Z',
    });
  });

  it('not a dispute, or a dispute item missing what names it: none', () => {
    expect(disputeNoticeOf(item('AUTHORISATION'))).toBeNull();
    expect(disputeNoticeOf(item('CHARGEBACK', {}, { originalReference: undefined }))).toBeNull();
    expect(disputeNoticeOf(item('CHARGEBACK', {}, { amount: { currency: 'EUR', value: 'x' } }))).toBeNull();
    expect(disputeNoticeOf(item('CHARGEBACK', { defensePeriodEndsAt: 'soon' }))).toBeNull();
    expect(disputeNoticeOf(item('CHARGEBACK', {}, { amount: { currency: 'XXX', value: 1 } }))).toBeNull();
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
