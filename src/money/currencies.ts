/**
 * The platform's supported currencies (docs/payments.md, "Creation body") with their ISO 4217 minor-unit digits: an
 * amount may carry at most that many decimals, and a store's defaultCurrency must be one of them.
 */
export const SUPPORTED_CURRENCIES: Record<string, { minorUnits: number }> = {
  EUR: { minorUnits: 2 },
  USD: { minorUnits: 2 },
  GBP: { minorUnits: 2 },
  CHF: { minorUnits: 2 },
  SEK: { minorUnits: 2 },
  NOK: { minorUnits: 2 },
  DKK: { minorUnits: 2 },
  PLN: { minorUnits: 2 },
  CZK: { minorUnits: 2 },
  JPY: { minorUnits: 0 },
};

/** The codes, for messages and documentation. */
export const SUPPORTED_CURRENCY_CODES: readonly string[] = Object.keys(SUPPORTED_CURRENCIES);

/** True for an upper-case ISO 4217 code of the supported list (exact match: callers normalise case). */
export function isSupportedCurrency(code: string): boolean {
  return Object.hasOwn(SUPPORTED_CURRENCIES, code);
}

/**
 * The currency's minor-unit digits (an upper-case code of the list); a currency outside the list:
 * `fallback`, 2 unless said. Amounts in webhooks and reports carry exactly these digits
 * (docs/payments.md, docs/payouts-and-fees.md).
 */
export function minorUnitsOf(currency: string, fallback = 2): number {
  return SUPPORTED_CURRENCIES[currency]?.minorUnits ?? fallback;
}

/** The minor-unit digits of a supported currency, else `refused()` thrown: for code that must not guess (an acquirer's amounts). */
export function supportedMinorUnitsOf(currency: string, refused: () => Error): number {
  const c = SUPPORTED_CURRENCIES[currency];
  if (!c) throw refused();
  return c.minorUnits;
}
