import { randomBytes } from 'node:crypto';
import Decimal from 'decimal.js';
import { minorUnitsOf } from '../../money/currencies';
import { percentFee } from '../../money/fee';
import type { PaymentMode, SettlementReport, SettlementReportItem } from '../port';
import { type Bill, DEFAULT_ACCOUNT, SANDBOX_MID, type SandboxAccount, type SandboxDispute, type SandboxRefund, type SandboxStore } from './state';

/**
 * The sandbox's settlement (docs/settlement.md, "The sandbox"): per device and merchant account (MID), a
 * close reports every bill of that MID's books captured up to `until` and not reported before,
 * and every offline payment, each with the sandbox's fee; refunds go with their bill's MID, and so
 * do its disputes' money (docs/disputes.md, "Settlement: the dispute's money"): the debit of a dispute opened up to `until`, the credit
 * back of one decided WON up to `until`, each in one report only. A
 * report is kept under its MID and batch reference, so a retried close gets the same report.
 * Acquirer references on the device's `omitFromReport` list are left out of the next report of
 * their MID only.
 */
/**
 * The sandbox's fee on a payment under its MID's terms (default 1.40 % + 0.10 for CARD, 0.90 % for
 * QR_CODE): the one fee formula (src/money/fee.ts), to the currency's minor unit.
 */
export function sandboxFee(amount: string, currency: string, mode: PaymentMode, terms: Omit<SandboxAccount, 'merchantAccountId'> = DEFAULT_ACCOUNT): string {
  const [percent, fixed] = mode === 'QR_CODE' ? [terms.qrPercent, terms.qrFixed] : [terms.cardPercent, terms.cardFixed];
  return percentFee(amount, currency, percent, fixed).toFixed(minorUnitsOf(currency), Decimal.ROUND_HALF_UP);
}

function paymentItem(bill: Bill, terms: SandboxAccount): SettlementReportItem {
  const mode = bill.paymentMethod ?? 'CARD';
  const amount = bill.capturedAmount ?? bill.amount; // a two-step completion may take less than authorised
  return {
    type: 'PAYMENT',
    acquirerRef: bill.acquirerRef,
    ...(bill.offline ? {} : { paymentId: bill.paymentId, pspReference: bill.pspReference }),
    reference: bill.reference,
    amount,
    currency: bill.currency,
    feeAmount: sandboxFee(amount, bill.currency, mode, terms),
    paymentMethod: mode,
    ...(bill.cardBrand ? { cardBrand: bill.cardBrand } : {}),
    ...(bill.last4 ? { last4: bill.last4 } : {}),
    occurredAt: bill.capturedAt ?? bill.decidedAt ?? bill.createdAt,
  };
}

function refundItem(r: SandboxRefund, bill: Bill | undefined): SettlementReportItem {
  const digits = minorUnitsOf(r.currency);
  return {
    type: 'REFUND',
    acquirerRef: r.acquirerRef,
    refundReference: r.refundReference,
    ...(bill && !bill.offline ? { paymentId: bill.paymentId, pspReference: bill.pspReference } : {}),
    reference: bill?.reference ?? null,
    amount: r.amount,
    currency: r.currency,
    feeAmount: new Decimal(0).toFixed(digits), // no fee on refunds
    occurredAt: r.decidedAt ?? r.submittedAt,
  };
}

/** A dispute's debit (at its opening) or its credit back (WON); no fee in the sandbox. */
function chargebackItem(d: SandboxDispute, type: 'CHARGEBACK' | 'CHARGEBACK_REVERSAL', bill: Bill | undefined): SettlementReportItem {
  const digits = minorUnitsOf(d.currency);
  return {
    type,
    acquirerRef: d.acquirerRef,
    disputeId: d.disputeId,
    // The sandbox books one debit and at most one reversal per dispute: the type is the booking's key.
    bookingRef: type,
    ...(bill && !bill.offline ? { paymentId: bill.paymentId, pspReference: bill.pspReference } : {}),
    reference: bill?.reference ?? null,
    amount: d.amount,
    currency: d.currency,
    feeAmount: new Decimal(0).toFixed(digits),
    occurredAt: type === 'CHARGEBACK' ? d.openedAt : (d.closedAt ?? d.openedAt),
  };
}

/** A settlement report says whose books it closed. */
export type SandboxReport = SettlementReport & { merchantAccountId: string };

/** Closes the batch of the MID's books on the device (or answers the report of an earlier close with this reference). */
export function closeDeviceBatch(
  store: SandboxStore,
  deviceId: string,
  merchantAccountId: string,
  batchReference: string,
  until: string,
  now = new Date(),
): SandboxReport {
  const earlier = store.report(deviceId, merchantAccountId, batchReference);
  if (earlier) return { ...earlier, merchantAccountId }; // reports stored before MIDs existed lack it
  const device = store.ensureDevice(deviceId);
  const omit = new Set(device.omitFromReport ?? []);
  const terms = store.accountOrDefault(merchantAccountId);
  const untilMs = Date.parse(until);
  const items: SettlementReportItem[] = [];
  const ours = (bill: Bill | undefined) => (bill?.merchantAccountId ?? SANDBOX_MID) === merchantAccountId;
  for (const bill of store.billsOfDevice(deviceId)) {
    if (!ours(bill) || bill.state !== 'CAPTURED' || bill.voided || bill.reportedIn) continue;
    if (Date.parse(bill.capturedAt ?? bill.decidedAt ?? bill.createdAt) > untilMs) continue;
    if (omit.has(bill.acquirerRef)) continue;
    bill.reportedIn = batchReference;
    items.push(paymentItem(bill, terms));
  }
  for (const r of store.refundsOfDevice(deviceId)) {
    const bill = store.bill(r.acquirerRef);
    if (!ours(bill) || r.state !== 'SUCCEEDED' || r.reportedIn || Date.parse(r.decidedAt ?? r.submittedAt) > untilMs) continue;
    r.reportedIn = batchReference;
    items.push(refundItem(r, bill));
  }
  for (const d of store.disputesOfDevice(deviceId)) {
    if ((d.merchantAccountId ?? SANDBOX_MID) !== merchantAccountId) continue;
    const bill = store.bill(d.acquirerRef);
    if (!d.debitReportedIn && Date.parse(d.openedAt) <= untilMs) {
      d.debitReportedIn = batchReference;
      items.push(chargebackItem(d, 'CHARGEBACK', bill));
    }
    // Never a credit without its debit: a dispute opened and won within one period has both in the one report.
    if (d.status === 'WON' && d.debitReportedIn && !d.reversalReportedIn && Date.parse(d.closedAt ?? '') <= untilMs) {
      d.reversalReportedIn = batchReference;
      items.push(chargebackItem(d, 'CHARGEBACK_REVERSAL', bill));
    }
  }
  // Left out once: the following report of the MID carries them. Another MID's stay for its close.
  device.omitFromReport = (device.omitFromReport ?? []).filter((ref) => {
    const bill = store.bill(ref);
    return bill !== undefined && bill.deviceId === deviceId && !ours(bill);
  });
  const report: SandboxReport = { deviceId, merchantAccountId, batchReference, closedAt: now.toISOString(), items };
  store.addReport(merchantAccountId, report);
  return report;
}

export interface OfflinePayment {
  /** The books it is taken under; SANDBOX when absent. */
  merchantAccountId?: string;
  amount: string;
  currency: string;
  cardBrand?: string;
  last4?: string;
}

/** A card payment taken on the device outside the service: known only to the acquirer, reported at the next close. */
export function recordOfflinePayment(store: SandboxStore, deviceId: string, p: OfflinePayment, now = new Date()): Bill {
  store.ensureDevice(deviceId);
  const at = now.toISOString();
  const acquirerRef = `sbx_${randomBytes(12).toString('hex')}`;
  const bill: Bill = {
    acquirerRef,
    deviceId,
    merchantAccountId: p.merchantAccountId ?? SANDBOX_MID,
    paymentId: `offline-${acquirerRef}`,
    pspReference: `offline-${acquirerRef}`,
    amount: p.amount,
    currency: p.currency,
    reference: null,
    modes: ['CARD'],
    state: 'CAPTURED',
    createdAt: at,
    expiresAt: at,
    decidedAt: at,
    paymentMethod: 'CARD',
    cardBrand: p.cardBrand ?? 'VISA',
    last4: p.last4 ?? '4242',
    voided: false,
    offline: true,
  };
  store.addBill(bill);
  return bill;
}
