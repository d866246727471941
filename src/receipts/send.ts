import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Logger } from '../logger';
import type { ReceiptWorkflowInput } from '../../core/receipt/messages';
import { receiptEmail, receiptMessageId } from './email';
import { sendMail } from './mailer';
import { maskEmail } from './mask';
import { buildReceipt } from './receipt';

/**
 * One attempt at a receipt email (docs/receipts.md, "Emails"): the receipt as it stands now, to
 * the dashboard's address (REQUESTED) or the payment's customerEmail. Resolves false when there is
 * no address to send to; throws when the mail server refuses or cannot be reached (the workflow
 * retries). The Message-ID is the receipt's own, the same for every attempt.
 */
export async function sendReceipt(deps: { db: Db; config: Config; logger: Logger }, input: ReceiptWorkflowInput): Promise<boolean> {
  const payment = await deps.db.payment.findUniqueOrThrow({ where: { id: input.paymentId } });
  const to = input.to ?? payment.customerEmail;
  if (!to) return false;
  const receipt = await buildReceipt(deps.db, payment);
  const { subject, text, html } = receiptEmail(receipt, input.event);
  const log = deps.logger.child({ paymentId: payment.id, receiptId: input.receiptId, to: maskEmail(to) });
  try {
    await sendMail(deps.config.smtpUrl, deps.config.RECEIPT_ATTEMPT_TIMEOUT_SECONDS * 1000, {
      fromName: receipt.merchantName,
      fromAddress: deps.config.RECEIPT_FROM_ADDRESS,
      to,
      subject,
      text,
      html,
      messageId: receiptMessageId(input.receiptId, deps.config.RECEIPT_FROM_ADDRESS),
    });
  } catch (err) {
    // The server's answer names no address of ours beyond what the log line masks; the address itself never goes in.
    const message = err instanceof Error ? err.message.replaceAll(to, maskEmail(to)) : String(err);
    log.warn({ event: input.event, error: message }, 'receipt email not accepted; retried');
    throw new Error(message);
  }
  log.info({ event: input.event }, 'receipt email sent');
  return true;
}
