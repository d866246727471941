import crypto from 'node:crypto';
import type { Receipt } from './receipt';

const STYLE =
  'body{margin:0;padding:16px;background:#fff;color:#000}pre{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px;line-height:1.35;margin:0 auto;width:48ch}@media print{body{padding:0}}';
/** The page's one inline style, allowed by its hash in the page's Content-Security-Policy. */
export const RECEIPT_STYLE_HASH = `sha256-${crypto.createHash('sha256').update(STYLE).digest('base64')}`;

/** Text for HTML: every character that could open markup or an attribute escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * The receipt as a page to print (docs/receipts.md): the printable lines in a monospace block, no
 * script and nothing loaded from elsewhere; every value escaped. The email's HTML part is the same.
 */
export function receiptHtml(receipt: Receipt): string {
  const title = escapeHtml(`Receipt ${receipt.merchantName} ${receipt.pspReference}`);
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${title}</title>`,
    `<style>${STYLE}</style>`,
    '</head><body>',
    `<pre aria-label="Receipt">${receipt.lines.map(escapeHtml).join('\n')}</pre>`,
    '</body></html>',
    '',
  ].join('\n');
}
