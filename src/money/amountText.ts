import type Decimal from 'decimal.js';
import { minorUnitsOf } from './currencies';

/**
 * An amount as the decimal text events carry: the currency's minor-unit digits ("12.50" EUR,
 * "1200" JPY); a currency outside the list keeps at least 2 and every digit it has.
 */
export function amountText(amount: Decimal, currency: string): string {
  return amount.toFixed(minorUnitsOf(currency, Math.max(2, amount.decimalPlaces())));
}
