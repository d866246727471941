import type { ReceiptEvent } from '../../core/receipt/messages';
import { receiptHtml } from './html';
import type { Receipt } from './receipt';

/**
 * The receipt email (docs/receipts.md, "Emails"): a plain-text part (the printable lines) and an
 * HTML part (the same lines as the printable page), the business's name as sender name. It holds
 * what the receipt holds and no more: the card's brand and last four digits at most.
 */
const OPENING: Record<ReceiptEvent, string> = {
  CAPTURED: 'Thank you for your payment. Your receipt:',
  REFUNDED: 'A refund was made to your card. Your receipt as it stands now:',
  VOIDED: 'Your payment was cancelled and the amount given back to your card. Your receipt:',
  REQUESTED: 'A copy of your receipt, as asked for:',
};

const SUBJECT: Record<ReceiptEvent, string> = {
  CAPTURED: 'Your receipt',
  REFUNDED: 'Refund receipt',
  VOIDED: 'Payment cancelled',
  REQUESTED: 'Your receipt',
};

export function receiptEmail(receipt: Receipt, event: ReceiptEvent): { subject: string; text: string; html: string } {
  const subject = `${SUBJECT[event]} from ${receipt.merchantName} (${receipt.pspReference})`;
  const text = [OPENING[event], '', ...receipt.lines, ''].join('\n');
  const page = receiptHtml(receipt);
  const html = page.replace('<body>', `<body><p>${OPENING[event]}</p>`);
  return { subject, text, html };
}

/** The Message-ID of a receipt: the same for every attempt of it. */
export function receiptMessageId(receiptId: string, fromAddress: string): string {
  const domain = fromAddress.slice(fromAddress.lastIndexOf('@') + 1) || 'localhost';
  return `<receipt-${receiptId}@${domain}>`;
}

/** The inverse of receiptMessageId: the receipt id a Message-ID names, or null for another message. */
export function receiptIdOfMessageId(messageId: string | null | undefined): string | null {
  return /^<?receipt-(.+)@[^@>]+>?$/.exec(messageId ?? '')?.[1] ?? null;
}
