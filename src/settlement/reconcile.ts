import Decimal from 'decimal.js';
import type { SettlementReportItem } from '../acquirer/port';

/**
 * Reconciliation (docs/settlement.md, "Reconciliation") as pure functions: the batch's claimed payments and refunds
 * against the acquirer's report, and the batch totals. The database work around them is in
 * src/settlement/batches.ts.
 */
export interface Claim {
  type: 'PAYMENT' | 'REFUND';
  /** The line's key: acquirerRef for a payment, the refund reference for a refund. */
  key: string;
  paymentId: string;
  /** A refund line's refund id. */
  refundId?: string;
  amount: string;
  currency: string;
}

export type ReportedItem = SettlementReportItem & { deviceId: string };

/** A dispute's money in a report (docs/disputes.md, "Settlement: the dispute's money"): never claimed, recorded as the acquirer reports it. */
export const isChargeback = (i: SettlementReportItem): boolean => i.type === 'CHARGEBACK' || i.type === 'CHARGEBACK_REVERSAL';

/** A chargeback line's net: the debit takes the amount away, the reversal gives it back; a fee on either (none in the sandbox) is charged like a payment's. */
export const chargebackNet = (type: 'CHARGEBACK' | 'CHARGEBACK_REVERSAL', amount: Decimal.Value, fee: Decimal.Value = 0): string =>
  (type === 'CHARGEBACK' ? new Decimal(amount).negated() : new Decimal(amount)).minus(fee).toFixed();

export interface Matched<I extends ReportedItem = ReportedItem> {
  claim: Claim;
  item: I;
  /** The report's amount differs from ours (the report's amount is what settled). */
  mismatch: boolean;
}

export interface Reconciliation<I extends ReportedItem = ReportedItem> {
  matched: Matched<I>[];
  /** Claimed here, not in the report: released to the next batch. */
  missing: Claim[];
  /** In the report, not claimed by this batch (known elsewhere in the platform, or unknown). */
  unclaimed: I[];
}

const itemKey = (i: SettlementReportItem): string => (i.type === 'REFUND' ? (i.refundReference ?? '') : i.acquirerRef);

export function reconcile<I extends ReportedItem>(claims: Claim[], items: I[]): Reconciliation<I> {
  const byKey = new Map(claims.map((c) => [`${c.type} ${c.key}`, c]));
  const matched: Matched<I>[] = [];
  const unclaimed: I[] = [];
  for (const item of items) {
    const claim = byKey.get(`${item.type} ${itemKey(item)}`);
    if (!claim) {
      unclaimed.push(item);
      continue;
    }
    byKey.delete(`${item.type} ${itemKey(item)}`);
    matched.push({ claim, item, mismatch: !new Decimal(claim.amount).equals(item.amount) || claim.currency !== item.currency });
  }
  return { matched, missing: [...byKey.values()], unclaimed };
}

/**
 * The fee audit (docs/payouts-and-fees.md, "The fee audit in settlement"): a reported fee other than the payment's expected fee (its cost
 * contract's) is a FEE_MISMATCH; no expected fee (no contract), no audit.
 */
export function feeMismatchOf(
  expected: Decimal.Value | null,
  reported: Decimal.Value,
): { type: 'FEE_MISMATCH'; expectedAmount: string; reportedAmount: string } | null {
  if (expected === null || new Decimal(expected).equals(reported)) return null;
  return { type: 'FEE_MISMATCH', expectedAmount: new Decimal(expected).toFixed(), reportedAmount: new Decimal(reported).toFixed() };
}

export interface TotalsLine {
  type: string;
  amount: Decimal.Value;
  feeAmount: Decimal.Value | null;
  /** The cost contract's fee (payments with one); without one the reported fee stands for it. */
  expectedFeeAmount?: Decimal.Value | null;
  /** A payment line's tip, inside its amount (docs/tips.md); absent: none. */
  tipAmount?: Decimal.Value | null;
  currency: string;
}

/** One currency's totals, exact decimal text. */
export interface CurrencyTotals {
  currency: string;
  paymentCount: number;
  grossAmount: string;
  refundCount: number;
  refundAmount: string;
  feeAmount: string;
  /** Disputes' debits (CHARGEBACK lines) minus what was credited back (CHARGEBACK_REVERSAL lines), docs/disputes.md. */
  chargebackAmount: string;
  /** The fees the cost contracts give the lines (a line without a contract counts its reported fee): feeAmount - expectedFeeAmount is what was charged over contract. */
  expectedFeeAmount: string;
  /** The tips of the payment lines (docs/tips.md), contained in grossAmount. */
  tipAmount: string;
  netAmount: string;
}

/** Totals per currency (sorted by code): netAmount = grossAmount - refundAmount - feeAmount - chargebackAmount. */
export function totalsOf(lines: TotalsLine[]): CurrencyTotals[] {
  const acc = new Map<
    string,
    { paymentCount: number; gross: Decimal; refundCount: number; refunds: Decimal; fees: Decimal; chargebacks: Decimal; expectedFees: Decimal; tips: Decimal }
  >();
  for (const l of lines) {
    const t = acc.get(l.currency) ?? {
      paymentCount: 0,
      gross: new Decimal(0),
      refundCount: 0,
      refunds: new Decimal(0),
      fees: new Decimal(0),
      chargebacks: new Decimal(0),
      expectedFees: new Decimal(0),
      tips: new Decimal(0),
    };
    acc.set(l.currency, t);
    if (l.type === 'PAYMENT') {
      t.paymentCount += 1;
      t.gross = t.gross.plus(l.amount);
      t.tips = t.tips.plus(l.tipAmount ?? 0);
    } else if (l.type === 'REFUND') {
      t.refundCount += 1;
      t.refunds = t.refunds.plus(l.amount);
    } else if (l.type === 'CHARGEBACK') {
      t.chargebacks = t.chargebacks.plus(l.amount);
    } else if (l.type === 'CHARGEBACK_REVERSAL') {
      t.chargebacks = t.chargebacks.minus(l.amount);
    }
    t.fees = t.fees.plus(l.feeAmount ?? 0);
    t.expectedFees = t.expectedFees.plus(l.expectedFeeAmount ?? l.feeAmount ?? 0);
  }
  return [...acc.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, t]) => ({
      currency,
      paymentCount: t.paymentCount,
      grossAmount: t.gross.toFixed(),
      refundCount: t.refundCount,
      refundAmount: t.refunds.toFixed(),
      feeAmount: t.fees.toFixed(),
      chargebackAmount: t.chargebacks.toFixed(),
      expectedFeeAmount: t.expectedFees.toFixed(),
      tipAmount: t.tips.toFixed(),
      netAmount: t.gross.minus(t.refunds).minus(t.fees).minus(t.chargebacks).toFixed(),
    }));
}
