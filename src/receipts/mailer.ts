import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';

/**
 * The SMTP client (Nodemailer) receipts are sent with, one per relay URL (SMTP_URL, or the
 * development mailbox). Short timeouts: a mail server that does not answer is a failed attempt the
 * workflow retries (docs/receipts.md, "When the mail server is down"), never a hung activity.
 */
const transports = new Map<string, Transporter<SMTPTransport.SentMessageInfo>>();

/** `limitMs`: the attempt's own limit (RECEIPT_ATTEMPT_TIMEOUT_SECONDS); the client gives up well before it, so no late send follows a timed-out attempt. */
export function mailTransport(smtpUrl: string, limitMs: number): Transporter<SMTPTransport.SentMessageInfo> {
  const key = `${limitMs} ${smtpUrl}`;
  let t = transports.get(key);
  if (!t) {
    const within = (ms: number) => Math.max(1000, Math.min(ms, Math.floor(limitMs / 3)));
    t = nodemailer.createTransport({
      url: smtpUrl,
      connectionTimeout: within(10_000),
      greetingTimeout: within(10_000),
      socketTimeout: within(30_000),
    } as SMTPTransport.Options);
    transports.set(key, t);
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

export async function sendMail(smtpUrl: string, limitMs: number, mail: OutgoingMail): Promise<void> {
  await mailTransport(smtpUrl, limitMs).sendMail({
    from: { name: mail.fromName, address: mail.fromAddress },
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    messageId: mail.messageId,
  });
}
