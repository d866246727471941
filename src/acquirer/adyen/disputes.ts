import type { NotificationRequestItem } from '@adyen/api-library/lib/src/typings/notification/notificationRequestItem';
import type { AcquirerDispute, DisputeEvidence } from '../port';
import { textPdf } from './defensePdf';
import { fromMinorUnits } from './modifications';

/**
 * Adyen's disputes as ours (contracts 12), pure. Adyen tells a dispute's state only in its
 * chargeback notifications (its Disputes API defends and accepts, and reads nothing back): the
 * notification's `pspReference` is the dispute's, `originalReference` the disputed payment's,
 * `additionalData` carries `disputeStatus`, `defendable`, `defensePeriodEndsAt`,
 * `chargebackReasonCode` and `chargebackSchemeCode`. The tables are in docs/disputes.md.
 */

/** `additionalData.disputeStatus`, where Adyen gives it: it decides. */
export const ADYEN_DISPUTE_STATUS: Readonly<Record<string, AcquirerDispute['status']>> = {
  Undefended: 'NEEDS_RESPONSE',
  Pending: 'UNDER_REVIEW',
  Responded: 'UNDER_REVIEW',
  Accepted: 'ACCEPTED',
  Won: 'WON',
  Lost: 'LOST',
  // The defense period ended undefended: the money is the cardholder's.
  Expired: 'LOST',
};

/** Without a disputeStatus (Brazil, and some events): the event code. `defendable: false` chargebacks are lost at once. */
export const ADYEN_DISPUTE_EVENT: Readonly<Record<string, AcquirerDispute['status']>> = {
  REQUEST_FOR_INFORMATION: 'NEEDS_RESPONSE',
  NOTIFICATION_OF_CHARGEBACK: 'NEEDS_RESPONSE',
  CHARGEBACK: 'NEEDS_RESPONSE',
  INFORMATION_SUPPLIED: 'UNDER_REVIEW',
  ISSUER_COMMENTS: 'UNDER_REVIEW',
  DISPUTE_DEFENSE_PERIOD_ENDED: 'UNDER_REVIEW',
  CHARGEBACK_REVERSED: 'WON',
  PREARBITRATION_WON: 'WON',
  ISSUER_RESPONSE_TIMEFRAME_EXPIRED: 'WON',
  SECOND_CHARGEBACK: 'LOST',
  PREARBITRATION_LOST: 'LOST',
};
export const ADYEN_DISPUTE_EVENT_CODES: readonly string[] = Object.keys(ADYEN_DISPUTE_EVENT);

/**
 * `chargebackReasonCode` per scheme (`chargebackSchemeCode`): Visa's and Mastercard's dispute
 * reason codes that have a reason of ours; every other code is GENERAL.
 */
export const ADYEN_REASON_CODES: Readonly<Record<string, Readonly<Record<string, AcquirerDispute['reason']>>>> = {
  visa: {
    '10.1': 'FRAUD',
    '10.2': 'FRAUD',
    '10.3': 'FRAUD',
    '10.4': 'FRAUD',
    '10.5': 'FRAUD',
    '13.1': 'NOT_RECEIVED',
    '12.6.1': 'DUPLICATE',
    '13.6': 'CREDIT_NOT_PROCESSED',
    '13.7': 'CREDIT_NOT_PROCESSED',
  },
  mc: {
    '4837': 'FRAUD',
    '4840': 'FRAUD',
    '4849': 'FRAUD',
    '4863': 'FRAUD',
    '4870': 'FRAUD',
    '4871': 'FRAUD',
    '4855': 'NOT_RECEIVED',
    '4834': 'DUPLICATE',
    '4860': 'CREDIT_NOT_PROCESSED',
  },
};

export function adyenDisputeReasonOf(scheme: string | undefined, code: string | undefined): AcquirerDispute['reason'] {
  const table = ADYEN_REASON_CODES[(scheme ?? '').toLowerCase() === 'mastercard' ? 'mc' : (scheme ?? '').toLowerCase()];
  return (code && table?.[code]) || 'GENERAL';
}

export function adyenDisputeStatusOf(eventCode: string, additionalData: Record<string, string | undefined>): AcquirerDispute['status'] | null {
  const said = additionalData.disputeStatus ? ADYEN_DISPUTE_STATUS[additionalData.disputeStatus] : undefined;
  if (said) return said;
  const byEvent = ADYEN_DISPUTE_EVENT[eventCode];
  if (!byEvent) return null;
  if (byEvent === 'NEEDS_RESPONSE' && additionalData.defendable === 'false') return 'LOST';
  return byEvent;
}

/** A verified dispute notification, as what the adapter answers for the dispute. */
export interface AdyenDisputeNotice {
  merchantAccount: string;
  disputePspReference: string;
  paymentPspReference: string;
  /** Our payment id as the notification names it (merchantReference). */
  merchantReference: string;
  status: AcquirerDispute['status'];
  reason: AcquirerDispute['reason'];
  amount: string;
  currency: string;
  eventCode: string;
  eventDate: string; // ISO
  /** defensePeriodEndsAt; absent once nothing is due. */
  dueBy: string | null;
}

const text = (v: unknown, max = 200): string | undefined => (typeof v === 'string' && v.length > 0 && v.length <= max ? v : undefined);

/** A standard item that is a dispute event of a known shape, as its notice; null for any other item. */
export function disputeNoticeOf(item: NotificationRequestItem): AdyenDisputeNotice | null {
  const eventCode = String(item.eventCode);
  const data = (item.additionalData ?? {}) as Record<string, string | undefined>;
  const status = ADYEN_DISPUTE_EVENT[eventCode] ? adyenDisputeStatusOf(eventCode, data) : null;
  const disputePspReference = text(item.pspReference);
  const paymentPspReference = text(item.originalReference);
  const merchantAccount = text(item.merchantAccountCode);
  const merchantReference = text(item.merchantReference);
  const currency = text(item.amount?.currency, 3);
  const value = item.amount?.value;
  if (!status || !disputePspReference || !paymentPspReference || !merchantAccount || !merchantReference || !currency || !Number.isInteger(value)) return null;
  const eventDate = new Date(String(item.eventDate));
  const dueBy = data.defensePeriodEndsAt ? new Date(data.defensePeriodEndsAt) : null;
  if (Number.isNaN(eventDate.getTime()) || (dueBy && Number.isNaN(dueBy.getTime()))) return null;
  let amount: string;
  try {
    amount = fromMinorUnits(value!, currency);
  } catch {
    return null; // a currency we do not take
  }
  return {
    merchantAccount,
    disputePspReference,
    paymentPspReference,
    merchantReference,
    status,
    reason: adyenDisputeReasonOf(data.chargebackSchemeCode, data.chargebackReasonCode),
    amount,
    currency: currency.toUpperCase(),
    eventCode,
    eventDate: eventDate.toISOString(),
    dueBy: dueBy ? dueBy.toISOString() : null,
  };
}

/**
 * Our answer as one defense document: the statement and the assembled transaction, as a PDF
 * (base64; Adyen takes PDF, JPG or TIFF), filed under each document type the chosen defense reason requires.
 */
export function defenseDocumentOf(evidence: DisputeEvidence): { contentType: string; content: string } {
  const body = `Merchant statement\n\n${evidence.text}\n\nTransaction (from the merchant's records)\n\n${JSON.stringify(evidence.transaction, null, 2)}\n`;
  return { contentType: 'application/pdf', content: textPdf(body).toString('base64') };
}

export interface DefenseReasonChoice {
  defenseReasonCode: string;
  documentTypeCodes: string[];
}

/**
 * Which of Adyen's applicable defense reasons to defend with: the first whose required documents
 * are fewest (one that takes none last) (our one document answers each), and the document types to file it under (every
 * `Required` one, else the first `OneOrMore`/`AlternativeRequired`, else the first listed).
 */
export function defenseReasonOf(
  reasons: { defenseReasonCode: string; defenseDocumentTypes?: { defenseDocumentTypeCode: string; requirementLevel?: string }[] }[],
): DefenseReasonChoice | null {
  const choices = reasons.map((r) => {
    const types = r.defenseDocumentTypes ?? [];
    const required = types.filter((t) => t.requirementLevel === 'Required').map((t) => t.defenseDocumentTypeCode);
    const alternative = types.find((t) => t.requirementLevel === 'OneOrMore' || t.requirementLevel === 'AlternativeRequired');
    const codes = required.length ? required : alternative ? [alternative.defenseDocumentTypeCode] : types.slice(0, 1).map((t) => t.defenseDocumentTypeCode);
    return { defenseReasonCode: r.defenseReasonCode, documentTypeCodes: codes };
  });
  // A reason that takes no document would leave the statement unsent: last.
  const weight = (c: DefenseReasonChoice) => c.documentTypeCodes.length || Number.MAX_SAFE_INTEGER;
  return choices.sort((a, b) => weight(a) - weight(b))[0] ?? null;
}
