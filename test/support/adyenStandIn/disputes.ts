import { randomBytes } from 'node:crypto';
import type { DisputeOperation } from './disputeValidation';
import { type Notifier, toMinor } from './notifications';
import type { StandInTransaction, Terminals } from './terminals';

/**
 * Chargebacks as the stand-in plays them: the cardholder's bank disputes an approved payment
 * (`open`, posting NOTIFICATION_OF_CHARGEBACK with `disputeStatus` Undefended, `defendable`,
 * `defensePeriodEndsAt`, the scheme and reason code); the merchant answers through the Disputes
 * API (defense reasons as the document's example gives them, documents, defend or accept, each
 * answered `disputeServiceResult` as its example, or `success: false` with Adyen-like words when
 * refused); the scheme decides a defended one (`decide`: CHARGEBACK_REVERSED Won, or
 * SECOND_CHARGEBACK Lost); the issuer may charge a won one back again (`secondChargeback`:
 * SECOND_CHARGEBACK Lost). Its money is in the day's report (./reports.ts): debited at the
 * opening, credited back when won, debited again at a second chargeback.
 */
export interface StandInDispute {
  pspReference: string;
  tx: StandInTransaction;
  merchantAccount: string;
  scheme: string;
  reasonCode: string;
  amount: number; // major units
  currency: string;
  status: 'Undefended' | 'Pending' | 'Accepted' | 'Won' | 'Lost';
  openedAt: string;
  /** When the scheme decided it (`decide`); its report books a Won one's credit back then. */
  decidedAt?: string;
  /** When the issuer charged a won dispute back again (`secondChargeback`); its report books the second debit then. */
  secondChargebackAt?: string;
  defensePeriodEndsAt: string;
  /** Documents supplied, by type code (content as sent, base64). */
  documents: Record<string, { contentType: string; content: string }>;
  defenseReasonCode?: string;
  /** Every Disputes API call about it, in order. */
  calls: { operation: DisputeOperation; body: any }[];
}

export interface ChargebackOptions {
  /** The scheme's reason code (default: fraud, Visa 10.4 or Mastercard 4837 by the card). */
  reason?: string;
  /** Major units (default the payment's amount). */
  amount?: number;
  /** Hours until the defense period ends (default 168; decimals allowed). */
  respondWithinHours?: number;
}

const disputePsp = () =>
  randomBytes(12)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '')
    .toUpperCase()
    .slice(0, 16)
    .padEnd(16, 'D');

export class Disputes {
  readonly all = new Map<string, StandInDispute>();

  constructor(
    private readonly terminals: Terminals,
    private readonly notifier: Notifier,
    /** The document's example answers, per operation. */
    private readonly examples: Map<string, any>,
  ) {}

  open(poiid: string, paymentPspReference: string, opts: ChargebackOptions = {}): StandInDispute {
    const tx = this.terminals.device(poiid).transactions.find((t) => t.pspReference === paymentPspReference);
    if (!tx || tx.state !== 'APPROVED') throw new Error(`no approved payment ${paymentPspReference} on ${poiid}`);
    const scheme = (tx.card?.brand ?? 'mc').startsWith('visa') ? 'visa' : 'mc';
    const now = Date.now();
    const d: StandInDispute = {
      pspReference: disputePsp(),
      tx,
      merchantAccount: tx.merchantAccount,
      scheme,
      reasonCode: opts.reason ?? (scheme === 'visa' ? '10.4' : '4837'),
      amount: opts.amount ?? tx.captured ?? tx.amount,
      currency: tx.currency,
      status: 'Undefended',
      openedAt: new Date(now).toISOString(),
      defensePeriodEndsAt: new Date(now + (opts.respondWithinHours ?? 168) * 3_600_000).toISOString(),
      documents: {},
      calls: [],
    };
    this.all.set(d.pspReference, d);
    this.notify(d, 'NOTIFICATION_OF_CHARGEBACK');
    return d;
  }

  /** The scheme's decision on a defended dispute, notified. */
  decide(disputePspReference: string, outcome: 'WON' | 'LOST'): void {
    const d = this.all.get(disputePspReference);
    if (!d || d.status !== 'Pending') throw new Error(`dispute ${disputePspReference} is not awaiting a decision (${d?.status ?? 'unknown'})`);
    d.status = outcome === 'WON' ? 'Won' : 'Lost';
    d.decidedAt = new Date().toISOString();
    this.notify(d, outcome === 'WON' ? 'CHARGEBACK_REVERSED' : 'SECOND_CHARGEBACK');
  }

  /**
   * The issuer disputes a won dispute again (Adyen's SecondChargeback after a ChargebackReversed):
   * the amount is debited a second time and the dispute is Lost, notified as SECOND_CHARGEBACK.
   */
  secondChargeback(disputePspReference: string): void {
    const d = this.all.get(disputePspReference);
    if (!d || d.status !== 'Won') throw new Error(`dispute ${disputePspReference} was not won (${d?.status ?? 'unknown'}): no second chargeback`);
    d.status = 'Lost';
    d.secondChargebackAt = new Date().toISOString();
    this.notify(d, 'SECOND_CHARGEBACK');
  }

  /** A validated Disputes API call: 200 with the example answer, or `success: false` with the reason. */
  handle(operation: DisputeOperation, body: any): any {
    const d = this.all.get(body.disputePspReference);
    d?.calls.push({ operation, body });
    const refuse = (errorMessage: string) => ({
      ...(operation === 'retrieveApplicableDefenseReasons' ? { defenseReasons: [] } : {}),
      disputeServiceResult: { success: false, errorMessage },
    });
    if (!d || d.merchantAccount !== body.merchantAccountCode) return refuse(`Could not find dispute ${body.disputePspReference}`);
    const example = structuredClone(this.examples.get(operation));
    if (operation === 'retrieveApplicableDefenseReasons') {
      for (const r of example.defenseReasons) for (const t of r.defenseDocumentTypes) t.available = t.defenseDocumentTypeCode in d.documents;
      return example;
    }
    if (d.status !== 'Undefended') return refuse(`Dispute is ${d.status}: it cannot be ${operation === 'acceptDispute' ? 'accepted' : 'defended'} any more`);
    if (Date.now() > Date.parse(d.defensePeriodEndsAt)) return refuse('The defense period has ended');
    if (operation === 'supplyDefenseDocument') {
      for (const doc of body.defenseDocuments) d.documents[doc.defenseDocumentTypeCode] = { contentType: doc.contentType, content: doc.content };
    } else if (operation === 'deleteDisputeDefenseDocument') {
      delete d.documents[body.defenseDocumentType];
    } else if (operation === 'defendDispute') {
      const reason = this.examples.get('retrieveApplicableDefenseReasons').defenseReasons.find((r: any) => r.defenseReasonCode === body.defenseReasonCode);
      if (!reason) return refuse(`Defense reason ${body.defenseReasonCode} is not applicable`);
      const missing = reason.defenseDocumentTypes.filter((t: any) => t.requirementLevel === 'Required' && !(t.defenseDocumentTypeCode in d.documents));
      if (missing.length) return refuse(`Required defense documents missing: ${missing.map((t: any) => t.defenseDocumentTypeCode).join(', ')}`);
      d.defenseReasonCode = body.defenseReasonCode;
      d.status = 'Pending';
    } else if (operation === 'acceptDispute') {
      d.status = 'Accepted';
    }
    return example;
  }

  private notify(d: StandInDispute, eventCode: string): void {
    this.notifier.standard({
      amount: { currency: d.currency, value: toMinor(d.amount, d.currency) },
      eventCode,
      eventDate: new Date().toISOString(),
      merchantAccountCode: d.merchantAccount,
      merchantReference: d.tx.saleTransactionId.TransactionID,
      originalReference: d.tx.pspReference,
      pspReference: d.pspReference,
      paymentMethod: d.tx.card?.brand ?? 'mc',
      reason: d.reasonCode,
      success: 'true',
      additionalData: {
        chargebackReasonCode: d.reasonCode,
        chargebackSchemeCode: d.scheme,
        defendable: String(d.status === 'Undefended'),
        defensePeriodEndsAt: d.defensePeriodEndsAt,
        disputeStatus: d.status,
      },
    });
  }
}
