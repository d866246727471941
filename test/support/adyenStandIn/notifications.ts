import { randomBytes } from 'node:crypto';
import { hmacValidator } from '../../../src/acquirer/adyen/library';
import { adyenFile, FIXTURE } from './fixtures';
import type { StandInModification } from './modifications';
import type { StandInReversal, StandInTransaction } from './terminals';
import { SUPPORTED_CURRENCIES } from '../../../src/money/currencies';

/**
 * What Adyen posts to the merchant's notification URL: the event notification (the Terminal API
 * answer of an /async request, `{ SaleToPOIResponse }` as in encrypted-event-notification.json,
 * here unencrypted) and the standard notification (`notificationItems[].NotificationRequestItem`
 * as in fixtures/notification/), signed in `additionalData.hmacSignature` with the library's own
 * HMAC calculation, so the service's validator is checked against Adyen's algorithm.
 */
export interface SentNotification {
  kind: 'event' | 'standard';
  body: any;
  /** Signed with a wrong key on purpose (forgeNextNotification). */
  forged: boolean;
  /** A copy of an earlier one sent again (replayNotification). */
  replay: boolean;
  /** The receiver's answer (Adyen expects `[accepted]`), or why there was none. */
  status?: number;
  answer?: string;
  error?: string;
}

export type NotificationItem = Record<string, any>;

const minorUnits = (currency: string) => SUPPORTED_CURRENCIES[currency]?.minorUnits ?? 2;
export const toMinor = (amount: number, currency: string) => Math.round(amount * 10 ** minorUnits(currency));

export class Notifier {
  readonly sent: SentNotification[] = [];
  readonly hmacKey: string;
  private forgeNext = false;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    /** Settable: the receiver's URL may be known only after the stand-in started (an account's notificationPath). */
    public url: string | undefined,
    hmacKey: string | undefined,
  ) {
    this.hmacKey = hmacKey ?? randomBytes(32).toString('hex').toUpperCase();
  }

  forgeNextNotification(): void {
    this.forgeNext = true;
  }

  /** An async request's outcome, as Adyen posts it to the event URL. */
  event(response: any): void {
    this.post({ kind: 'event', body: response, forged: false, replay: false });
  }

  /** AUTHORISATION for a payment the card scheme decided (approved or refused); none for cancelled, aborted or busy ones. */
  payment(tx: StandInTransaction): void {
    if (tx.state !== 'APPROVED' && tx.state !== 'DECLINED') return;
    const approved = tx.state === 'APPROVED';
    const reason = new URLSearchParams(tx.response?.SaleToPOIResponse?.PaymentResponse?.Response?.AdditionalResponse ?? '').get('refusalReason');
    this.standard({
      amount: { currency: tx.currency, value: toMinor(tx.amount, tx.currency) },
      eventCode: 'AUTHORISATION',
      eventDate: tx.decidedAt,
      merchantAccountCode: tx.merchantAccount,
      merchantReference: tx.saleTransactionId.TransactionID,
      operations: approved ? ['CANCEL', 'CAPTURE', 'REFUND'] : undefined,
      paymentMethod: tx.card?.brand ?? 'mc',
      pspReference: tx.pspReference,
      reason: approved ? `${tx.pspReference.slice(-6)}:${tx.card?.last4 ?? '3511'}:03/2030` : (reason ?? 'Refused'),
      success: approved ? 'true' : 'false',
      additionalData: tx.preAuth ? { authorisationType: 'PreAuth' } : undefined,
    });
  }

  /** A void is Adyen's CANCEL_OR_REFUND, a referenced refund its REFUND. */
  reversal(rev: StandInReversal): void {
    this.standard({
      amount: { currency: rev.currency, value: toMinor(rev.amount, rev.currency) },
      eventCode: rev.kind === 'void' ? 'CANCEL_OR_REFUND' : 'REFUND',
      eventDate: rev.at,
      merchantAccountCode: rev.merchantAccount,
      merchantReference: rev.merchantReference,
      originalReference: rev.originalPsp,
      pspReference: rev.pspReference,
      success: 'true',
    });
  }

  /** Adyen books a modification later and says so: CAPTURE or CANCELLATION, naming the payment (originalReference). */
  modification(tx: StandInTransaction, mod: StandInModification): void {
    this.standard({
      amount: mod.amount ?? { currency: tx.currency, value: toMinor(tx.amount, tx.currency) },
      eventCode: mod.kind === 'capture' ? 'CAPTURE' : 'CANCELLATION',
      eventDate: mod.at,
      merchantAccountCode: mod.merchantAccount,
      merchantReference: tx.saleTransactionId.TransactionID,
      originalReference: mod.paymentPspReference,
      pspReference: mod.pspReference,
      success: 'true',
    });
  }

  /** Any NotificationRequestItem (fields as in fixtures/notification/), signed, in Adyen's envelope. */
  standard(fields: NotificationItem): void {
    const item: NotificationItem = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
    const forged = this.forgeNext;
    this.forgeNext = false;
    const key = forged ? randomBytes(32).toString('hex') : this.hmacKey;
    item.additionalData = { ...item.additionalData, hmacSignature: new hmacValidator().calculateHmac(item as never, key) };
    const envelope = adyenFile(FIXTURE.authorisation);
    envelope.notificationItems = [{ NotificationRequestItem: item }];
    this.post({ kind: 'standard', body: envelope, forged, replay: false });
  }

  /** Sends an earlier notification again, unchanged (a replay the receiver must not act on twice). */
  replayNotification(index = this.sent.length - 1): void {
    const earlier = this.sent[index];
    if (!earlier) throw new Error(`no notification ${index} to replay`);
    this.post({ kind: earlier.kind, body: earlier.body, forged: earlier.forged, replay: true });
  }

  /** Resolves when every notification sent so far has its answer. */
  async idle(): Promise<void> {
    while (this.inFlight.size) await Promise.all([...this.inFlight]);
  }

  private post(n: SentNotification): void {
    this.sent.push(n);
    if (!this.url) return;
    const sending = fetch(this.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(n.body) })
      .then(async (res) => {
        n.status = res.status;
        n.answer = await res.text();
      })
      .catch((err: Error) => {
        n.error = err.message;
      })
      .finally(() => this.inFlight.delete(sending));
    this.inFlight.add(sending);
  }
}
