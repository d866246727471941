import { createHash } from 'node:crypto';
import { hmacValidator } from './library';
import type { NotificationRequestItem } from '@adyen/api-library/lib/src/typings/notification/notificationRequestItem';
import type { AcquirerDispute, DisputeEvidence } from '../port';
import { textPdf } from './defensePdf';
import { fromMinorUnits } from './modifications';

/**
 * Adyen's disputes as ours, pure (docs/disputes.md, "Adyen"). Adyen tells a dispute's state only in
 * its chargeback notifications (its Disputes API defends and accepts, and reads nothing back): the
 * notification's `pspReference` is the dispute's, `originalReference` the disputed payment's. Only
 * what the item's HMAC covers decides (docs/security.md, "Adyen's dispute notifications"):
 * pspReference, originalReference, merchantAccountCode, merchantReference, amount, eventCode and
 * success. `additionalData` (`disputeStatus`, `defendable`, `defensePeriodEndsAt`) and `eventDate`
 * are not signed, so a replayed genuine item with them rewritten would say anything: the status is
 * the event code's, the dates are when we received it, the due date that plus
 * ADYEN_DEFENSE_PERIOD_DAYS. The tables are in docs/disputes.md.
 */

/** The signed event code decides (with `success`: an item Adyen marks unsuccessful is no dispute event). */
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

/** The dispute's status by the signed fields alone: the event code, for an item Adyen marks successful; null when it is no dispute event. */
export function adyenDisputeStatusOf(eventCode: string, success: unknown): AcquirerDispute['status'] | null {
  if (String(success) !== 'true') return null;
  return ADYEN_DISPUTE_EVENT[eventCode] ?? null;
}

/** The digest of an item's HMAC-signed fields (the library's own list, getDataToSign): one per item Adyen signed, whatever else it carries. */
export function signedDigestOf(item: NotificationRequestItem): string {
  return createHash('sha256').update(new hmacValidator().getDataToSign(item), 'utf8').digest('hex');
}

/** A verified dispute notification, as what the adapter answers for the dispute. */
export interface AdyenDisputeNotice {
  merchantAccount: string;
  disputePspReference: string;
  paymentPspReference: string;
  /** Our payment id as the notification names it (merchantReference). */
  merchantReference: string;
  status: AcquirerDispute['status'];
  /** From the unsigned chargebackReasonCode: shown, never deciding status or due date. */
  reason: AcquirerDispute['reason'];
  amount: string;
  currency: string;
  eventCode: string;
  /** When we received it (ISO): Adyen's eventDate is not signed. */
  eventDate: string;
  /** The received time plus the defense period (ADYEN_DEFENSE_PERIOD_DAYS): defensePeriodEndsAt is not signed. */
  dueBy: string;
  /** The digest of the item's signed fields (signedDigestOf): a replay has the same. */
  digest: string;
}

/** How a notice is dated: when it was received, and the defense period a new one is given (docs/disputes.md, "Adyen"). */
export interface AdyenNoticeClock {
  receivedAt: Date;
  defensePeriodDays: number;
}

const text = (v: unknown, max = 200): string | undefined => (typeof v === 'string' && v.length > 0 && v.length <= max ? v : undefined);

/** A standard item that is a dispute event of a known shape, as its notice; null for any other item. */
export function disputeNoticeOf(item: NotificationRequestItem, clock: AdyenNoticeClock): AdyenDisputeNotice | null {
  const eventCode = String(item.eventCode);
  const data = (item.additionalData ?? {}) as Record<string, string | undefined>;
  const status = adyenDisputeStatusOf(eventCode, item.success);
  const disputePspReference = text(item.pspReference);
  const paymentPspReference = text(item.originalReference);
  const merchantAccount = text(item.merchantAccountCode);
  const merchantReference = text(item.merchantReference);
  const currency = text(item.amount?.currency, 3);
  const value = item.amount?.value;
  if (!status || !disputePspReference || !paymentPspReference || !merchantAccount || !merchantReference || !currency || !Number.isInteger(value)) return null;
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
    reason: adyenDisputeReasonOf(text(data.chargebackSchemeCode, 20), text(data.chargebackReasonCode, 20)),
    amount,
    currency: currency.toUpperCase(),
    eventCode,
    eventDate: clock.receivedAt.toISOString(),
    dueBy: new Date(clock.receivedAt.getTime() + clock.defensePeriodDays * 86_400_000).toISOString(),
    digest: signedDigestOf(item),
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
