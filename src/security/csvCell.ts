/**
 * CSV as this service writes it (settlement lines.csv, the dashboard's payments export): RFC 4180
 * quoting, and a cell a spreadsheet could take for a formula kept as text by a leading `'`
 * (CSV injection, OWASP). Pure and free of Node modules, so the dashboard bundle uses this same
 * file: one rule for every export.
 *
 * Neutralised starts: `=`, `+`, `-`, `@` (formula starts); `;` (a field separator in locales whose
 * spreadsheets split on it, so what follows starts a new cell); the full-width look-alikes
 * `＝ ＋ － ＠ ；` (U+FF1D, U+FF0B, U+FF0D, U+FF20, U+FF1B), which some spreadsheets fold to the
 * ASCII ones; and any leading white space (tab, carriage return, line feed, no-break and other
 * Unicode spaces, the byte-order mark), which spreadsheets may trim before looking at the first
 * character. A plain decimal number (`-30.25`) stays a number: amounts must stay summable.
 */
const FORMULA_START = /^[=+\-@;\uFF1D\uFF0B\uFF0D\uFF20\uFF1B]|^\s/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

export type CsvValue = string | number | null | undefined;

/** One cell: empty for null, `'` before a formula-like start, quoted when it holds `"`, `,` or a line break. */
export function csvCell(value: CsvValue): string {
  let s = value === null || value === undefined ? '' : String(value);
  if (FORMULA_START.test(s) && !PLAIN_NUMBER.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** A header row and the rows, CRLF after each line. */
export function csvText(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return [header, ...rows].map((row) => `${row.map(csvCell).join(',')}\r\n`).join('');
}
