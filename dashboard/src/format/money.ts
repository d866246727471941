/**
 * Money as people read it (issue 31): the currency's symbol and minor units (JPY 0, EUR 2, BHD 3)
 * in the browser's locale, by Intl.NumberFormat. The amount is formatted from its decimal text, so
 * no binary fraction creeps in; exports (CSV) keep the exact values and never come through here.
 */
const formats = new Map<string, Intl.NumberFormat>();

function formatOf(currency: string, locale: string | undefined): Intl.NumberFormat | null {
  const key = `${locale ?? ''} ${currency}`;
  let f = formats.get(key);
  if (!f) {
    try {
      f = new Intl.NumberFormat(locale, { style: 'currency', currency });
    } catch {
      return null; // not an ISO 4217 code: shown as the API sent it
    }
    formats.set(key, f);
  }
  return f;
}

/** `locale` is the browser's unless given (tests name one). */
export function formatMoney(amount: number | string | null | undefined, currency: string | null | undefined, locale?: string): string {
  if (amount === null || amount === undefined || amount === '') return '—';
  const f = currency ? formatOf(currency, locale) : null;
  if (!f) return `${amount} ${currency ?? ''}`.trim();
  // A decimal string keeps every digit (Intl.NumberFormat v3); the currency's minor units round it for display only.
  return f.format(String(amount) as unknown as number);
}
