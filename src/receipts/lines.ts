/**
 * The printable receipt (docs/receipts.md, "The printed receipt"): plain text lines of at most
 * RECEIPT_WIDTH characters, the width of an 80 mm receipt printer's normal font. Pure: the read
 * (./receipt.ts) gives it the words and the money already written.
 */
export const RECEIPT_WIDTH = 48;

export interface ReceiptLayout {
  merchantName: string;
  storeName: string;
  storeAddress: string | null;
  /** Label and value rows, in order; a null value row is dropped. */
  details: [string, string | null][];
  card: string | null;
  /** Money rows (label, money written), the total last among them. */
  amounts: [string, string][];
  /** Each refund: label and money written. */
  refunds: [string, string][];
  /** The closing words (status, thanks). */
  footer: string[];
}

const RULE = '-'.repeat(RECEIPT_WIDTH);

/** Characters as a printer counts them (code points, not UTF-16 units). */
const len = (s: string): number => [...s].length;

/** Words wrapped to `width`; a word longer than the width is cut. Whitespace runs collapse. */
export function wrap(text: string, width = RECEIPT_WIDTH): string[] {
  const words = text.replace(/\s+/g, ' ').trim().split(' ').filter(Boolean);
  const out: string[] = [];
  let line = '';
  for (let word of words) {
    while (len(word) > width) {
      if (line) {
        out.push(line);
        line = '';
      }
      const chars = [...word];
      out.push(chars.slice(0, width).join(''));
      word = chars.slice(width).join('');
    }
    if (!word) continue;
    if (!line) line = word;
    else if (len(line) + 1 + len(word) <= width) line += ` ${word}`;
    else {
      out.push(line);
      line = word;
    }
  }
  if (line) out.push(line);
  return out;
}

export function center(text: string, width = RECEIPT_WIDTH): string[] {
  return wrap(text, width).map((l) => `${' '.repeat(Math.floor((width - len(l)) / 2))}${l}`);
}

/** A label on the left and a value on the right; when both do not fit, the value on lines of its own, to the right. */
export function row(label: string, value: string, width = RECEIPT_WIDTH): string[] {
  const gap = width - len(label) - len(value);
  if (gap >= 1) return [`${label}${' '.repeat(gap)}${value}`];
  return [...wrap(label, width), ...wrap(value, width).map((l) => `${' '.repeat(width - len(l))}${l}`)];
}

export function layoutReceipt(r: ReceiptLayout): string[] {
  const lines: string[] = [];
  lines.push(...center(r.merchantName));
  if (r.storeName !== r.merchantName) lines.push(...center(r.storeName));
  if (r.storeAddress) lines.push(...center(r.storeAddress));
  lines.push(RULE);
  for (const [label, value] of r.details) if (value !== null && value !== '') lines.push(...row(label, value));
  lines.push(RULE);
  if (r.card) lines.push(...wrap(r.card));
  for (const [label, value] of r.amounts) lines.push(...row(label, value));
  if (r.refunds.length) {
    lines.push(RULE);
    for (const [label, value] of r.refunds) lines.push(...row(label, value));
  }
  lines.push(RULE);
  for (const f of r.footer) lines.push(...center(f));
  return lines;
}
