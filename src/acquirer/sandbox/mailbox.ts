import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * The development mailbox (docs/receipts.md, "The development mailbox"): a real SMTP server the
 * service sends its receipt emails to when SMTP_URL is unset, read back at GET /sim/mailbox. It
 * can refuse mail (SMTP 421, "try again later") to play a mail server that is down. Messages are
 * kept in memory, newest first, at most MAX_MESSAGES.
 */
export interface MailboxMessage {
  to: string[];
  subject: string;
  text: string;
  html: string | null;
  from: string;
  messageId: string | null;
  receivedAt: string;
}

export interface Mailbox {
  /** The port it listens on (MAIL_PORT, or the one picked for 0). */
  port: number;
  messages(): MailboxMessage[];
  accepting(): boolean;
  /** Sessions refused since the mailbox started. */
  refused(): number;
  setAccepting(accepting: boolean): void;
  close(): Promise<void>;
}

const MAX_MESSAGES = 10_000;
const MAX_MESSAGE_BYTES = 1024 * 1024;

export async function startMailbox(opts: { host: string; port: number }): Promise<Mailbox> {
  const received: MailboxMessage[] = [];
  let accepting = true;
  let refused = 0;
  const refusal = (): Error => {
    refused += 1;
    return Object.assign(new Error('mailbox not accepting mail right now, try again later'), { responseCode: 421 });
  };
  const server = new SMTPServer({
    // A loopback development server: no TLS, no sign-in (an smtp://user:pass@ URL's credentials are accepted as given).
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    onAuth: (_auth, _session, callback) => callback(null, { user: 'development' }),
    size: MAX_MESSAGE_BYTES,
    logger: false,
    onConnect: (_session, callback) => callback(accepting ? null : refusal()),
    onMailFrom: (_address, _session, callback) => callback(accepting ? null : refusal()),
    onData: (stream, session, callback) => {
      // mailparser loaded with the first message: most starts never receive one (0.1 s a process).
      void import('mailparser')
        .then(({ simpleParser }) => simpleParser(stream))
        .then((mail) => {
          if (!accepting) return callback(refusal());
          received.unshift({
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            html: typeof mail.html === 'string' ? mail.html : null,
            from: mail.from?.text ?? '',
            messageId: mail.messageId ?? null,
            receivedAt: new Date().toISOString(),
          });
          if (received.length > MAX_MESSAGES) received.length = MAX_MESSAGES;
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  server.on('error', () => undefined); // a client that drops its connection is its own problem
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    messages: () => received.slice(),
    accepting: () => accepting,
    refused: () => refused,
    setAccepting(value) {
      accepting = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
