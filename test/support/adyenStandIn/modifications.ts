import { randomBytes } from 'node:crypto';
import type { CheckoutOperation } from './checkoutValidation';
import { toMinor } from './notifications';
import type { Terminals, StandInTransaction } from './terminals';

/**
 * Adyen's Checkout modifications of a payment taken at a terminal, as the stand-in plays them:
 * the capture or cancel of a pre-authorisation named by its pspReference. Adyen answers 201
 * `received` at once and books the modification later (CAPTURE / CANCELLATION webhooks); a
 * refusal is 422 (403 for another merchant account) in Adyen's error shape. The same
 * Idempotency-Key (per API key) answers the same response, and changes nothing.
 */
export interface StandInModification {
  kind: 'capture' | 'cancel';
  /** Adyen's reference of the modification itself. */
  pspReference: string;
  paymentPspReference: string;
  merchantAccount: string;
  reference?: string;
  idempotencyKey?: string;
  /** A capture's amount, as sent (minor units). */
  amount?: { value: number; currency: string };
  at: string;
}

export interface ModificationAnswer {
  status: number;
  body: any;
  /** A repeat of an earlier request with the same Idempotency-Key: the first one's answer. */
  repeated: boolean;
  /** The modification this request made (none for a refusal or a repeat). */
  made?: { tx: StandInTransaction; modification: StandInModification };
}

export interface ModificationRequest {
  operation: CheckoutOperation;
  paymentPspReference: string;
  apiKey?: string;
  idempotencyKey?: string;
  body: any;
}

const modificationPsp = () =>
  randomBytes(12)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '')
    .toUpperCase()
    .slice(0, 16)
    .padEnd(16, 'M');

/** Adyen's ServiceError shape. */
const refusal = (status: number, errorCode: string, message: string, errorType = 'validation') => ({ status, errorCode, message, errorType });

export class Modifications {
  private readonly byKey = new Map<string, { request: string; answer: ModificationAnswer }>();

  constructor(private readonly terminals: Terminals) {}

  handle(req: ModificationRequest): ModificationAnswer {
    const key = req.idempotencyKey !== undefined ? `${req.apiKey ?? ''}\u0000${req.idempotencyKey}` : undefined;
    const request = JSON.stringify([req.operation, req.paymentPspReference, req.body]);
    const earlier = key ? this.byKey.get(key) : undefined;
    if (earlier) {
      if (earlier.request === request) return { ...earlier.answer, repeated: true, made: undefined };
      return { status: 422, body: refusal(422, '704', 'Idempotency-Key already used for another request'), repeated: false };
    }
    const answer = this.decide(req);
    if (key) this.byKey.set(key, { request, answer });
    return answer;
  }

  private decide(req: ModificationRequest): ModificationAnswer {
    const tx = [...this.terminals.devices.values()].flatMap((d) => d.transactions).find((t) => t.pspReference === req.paymentPspReference);
    const refuse = (message: string, errorCode = '167') => ({ status: 422, body: refusal(422, errorCode, message), repeated: false });
    if (!tx || tx.state !== 'APPROVED') return refuse('Original pspReference required for this operation');
    if (req.body.merchantAccount !== tx.merchantAccount)
      return { status: 403, body: refusal(403, '901', 'Invalid Merchant Account', 'security'), repeated: false };
    if (!tx.preAuth) return refuse(`Payment ${tx.pspReference} was captured at authorisation (not a pre-authorisation)`, '907');
    if (tx.cancelled) return refuse(`Payment ${tx.pspReference} is cancelled`, '907');
    if (tx.captured !== undefined) return refuse(`Payment ${tx.pspReference} is already captured`, '907');
    const modification: StandInModification = {
      kind: req.operation === 'captures' ? 'capture' : 'cancel',
      pspReference: modificationPsp(),
      paymentPspReference: tx.pspReference,
      merchantAccount: tx.merchantAccount,
      ...(req.body.reference !== undefined ? { reference: req.body.reference } : {}),
      ...(req.idempotencyKey !== undefined ? { idempotencyKey: req.idempotencyKey } : {}),
      at: new Date().toISOString(),
    };
    if (req.operation === 'captures') {
      const { value, currency } = req.body.amount;
      const authorised = toMinor(tx.amount, tx.currency);
      if (String(currency).toUpperCase() !== tx.currency.toUpperCase()) return refuse(`Modification in ${currency}, the payment is in ${tx.currency}`, '137');
      if (value <= 0 || value > authorised) return refuse(`Invalid amount specified: ${value} (authorised ${authorised})`, '137');
      modification.amount = { value, currency: tx.currency };
      tx.captured = value / toMinor(1, tx.currency);
    } else {
      tx.cancelled = true;
    }
    tx.modifications.push(modification);
    const body = {
      merchantAccount: tx.merchantAccount,
      paymentPspReference: tx.pspReference,
      pspReference: modification.pspReference,
      ...(modification.reference !== undefined ? { reference: modification.reference } : {}),
      status: 'received',
      ...(modification.amount ? { amount: modification.amount } : {}),
    };
    return { status: 201, body, repeated: false, made: { tx, modification } };
  }
}
