import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';

/**
 * The SMTP client (Nodemailer) receipts are sent with, one per relay URL (SMTP_URL, or the
 * development mailbox). Short timeouts: a mail server that does not answer is a failed attempt the
 * workflow retries (docs/receipts.md, "When the mail server is down"), never a hung activity.
 */
const transports = new Map<string, Transporter<SMTPTransport.SentMessageInfo>>();

export function mailTransport(smtpUrl: string): Transporter<SMTPTransport.SentMessageInfo> {
  let t = transports.get(smtpUrl);
  if (!t) {
    t = nodemailer.createTransport({
      url: smtpUrl,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    } as SMTPTransport.Options);
    transports.set(smtpUrl, t);
  }
  return t;
}

export interface OutgoingMail {
  fromName: string;
  fromAddress: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Stable per receipt: a resent attempt carries the same id, so mail systems see one message. */
  messageId: string;
}

export async function sendMail(smtpUrl: string, mail: OutgoingMail): Promise<void> {
  await mailTransport(smtpUrl).sendMail({
    from: { name: mail.fromName, address: mail.fromAddress },
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    messageId: mail.messageId,
  });
}
