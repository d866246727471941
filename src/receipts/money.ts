/**
 * Money as a customer reads it on a receipt (docs/receipts.md): the currency's symbol and minor
 * units (JPY 0, EUR 2, BHD 3) by Intl.NumberFormat, as the dashboard writes it
 * (dashboard/src/format/money.ts). Formatted from the decimal text, so no binary fraction creeps in.
 */
export const RECEIPT_LOCALE = 'en-GB';

const formats = new Map<string, Intl.NumberFormat | null>();

function formatOf(currency: string): Intl.NumberFormat | null {
  if (!formats.has(currency)) {
    try {
      formats.set(currency, new Intl.NumberFormat(RECEIPT_LOCALE, { style: 'currency', currency }));
    } catch {
      formats.set(currency, null); // not an ISO 4217 code: written as stored
    }
  }
  return formats.get(currency)!;
}

/** `amount` a decimal string ("12.5", "-2"); the currency's digits, its symbol. */
export function formatMoney(amount: string, currency: string): string {
  const f = formatOf(currency);
  if (!f) return `${amount} ${currency}`;
  // A decimal string keeps every digit (Intl.NumberFormat v3); a printer's plain space for Intl's no-break ones.
  return f.format(amount as unknown as number).replace(/[\u00a0\u202f]/g, ' ');
}
