import Decimal from 'decimal.js';
import { minorUnitsOf } from './currencies';

/**
 * The one fee formula (docs/payouts-and-fees.md, "The fee"): `percent` % of `amount`, rounded half
 * up to the currency's minor unit, plus `fixed`. Exact decimals; the caller formats the result.
 * A cost contract's expected fee (src/fees/expectedFee.ts) and the sandbox acquirer's charged fee
 * (src/acquirer/sandbox/settlement.ts) are both this.
 */
export function percentFee(amount: Decimal.Value, currency: string, percent: Decimal.Value, fixed: Decimal.Value): Decimal {
  const variable = new Decimal(amount).times(percent).dividedBy(100).toDecimalPlaces(minorUnitsOf(currency), Decimal.ROUND_HALF_UP);
  return variable.plus(fixed);
}
