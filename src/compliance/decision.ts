import Decimal from 'decimal.js';

/**
 * The compliance alerts' decision (docs/disputes.md, "Compliance alerts") as pure functions: a ratio against its threshold
 * and minimum count, and what becomes of the target's alert. The queries that measure are in
 * measures.ts, the writes in alerts.ts.
 */
export const ALERT_TYPES = ['CHARGEBACK_RATIO', 'REFUND_RATIO'] as const;
export type AlertType = (typeof ALERT_TYPES)[number];
export const ALERT_SCOPES = ['STORE', 'ACQUIRER_ACCOUNT'] as const;
export type AlertScope = (typeof ALERT_SCOPES)[number];
export const ALERT_STATUSES = ['OPEN', 'RESOLVED'] as const;

/** A ratio's inputs over the window: CHARGEBACK_RATIO disputes opened / payments captured; REFUND_RATIO refunded / captured amount. */
export interface Measure {
  /** What the minimum count counts: disputes opened, or refunds succeeded. */
  count: number;
  numerator: Decimal.Value;
  denominator: Decimal.Value;
}

export interface Threshold {
  ratio: Decimal.Value;
  minCount: number;
}

export interface Verdict {
  /** null: nothing captured in the window, no ratio to measure. */
  ratio: Decimal | null;
  /** Above the threshold with at least the minimum count: an alert is raised. */
  breach: boolean;
  /** At or under the threshold: an open alert is resolved. */
  clear: boolean;
}

/** Ratios are kept to 6 decimal places, rounded half up (0.0125). */
export const RATIO_PLACES = 6;

export function judge(m: Measure, t: Threshold): Verdict {
  const denominator = new Decimal(m.denominator);
  // Nothing captured: a ratio of nothing; with nothing disputed or refunded either, there is nothing to alert about.
  if (denominator.lte(0)) return { ratio: null, breach: false, clear: new Decimal(m.numerator).lte(0) };
  const ratio = new Decimal(m.numerator).dividedBy(denominator);
  const above = ratio.gt(t.ratio);
  return { ratio: ratio.toDecimalPlaces(RATIO_PLACES, Decimal.ROUND_HALF_UP), breach: above && m.count >= t.minCount, clear: !above };
}

/**
 * What becomes of a target's alert: RAISE a new one when none is open and the ratio breaches;
 * RESOLVE the open one once the ratio is back at or under the threshold (whatever the count);
 * UPDATE the open one's figures otherwise; NONE when nothing is open and nothing breaches.
 */
export type Step = 'RAISE' | 'RESOLVE' | 'UPDATE' | 'NONE';

export function nextStep(open: boolean, v: Verdict): Step {
  if (!open) return v.breach ? 'RAISE' : 'NONE';
  if (v.clear) return 'RESOLVE';
  return v.ratio === null ? 'NONE' : 'UPDATE';
}
