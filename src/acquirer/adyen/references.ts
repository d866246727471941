import { createHash } from 'node:crypto';

/**
 * The identifiers our Terminal API messages carry (docs/acquirers.md, "Adyen Terminal API").
 * A write's ServiceID is derived from our own id, so a retried write is the same message pair at
 * the terminal and a later TransactionStatusRequest can name it; reads get a fresh one each time
 * (Adyen wants a ServiceID unique per terminal for 48 hours).
 */

/** MessageHeader.SaleID: our sale system, the same in every process so a status read names the original pair. */
export const SALE_ID = 'isp-payments';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** 10 alphanumeric characters (Adyen's limit) from a hash: about 59 bits, no collision in practice. */
function base62Of(text: string, length = 10): string {
  let n = BigInt('0x' + createHash('sha256').update(text).digest('hex'));
  let out = '';
  for (let i = 0; i < length; i++) {
    out += BASE62[Number(n % 62n)];
    n /= 62n;
  }
  return out;
}

/** The ServiceID of a write: the payment, its abort, a void or a refund, each from our id for it. */
export type WriteKind = 'payment' | 'abort' | 'void' | 'refund';
export const serviceIdOf = (kind: WriteKind, ourId: string): string => base62Of(`${kind}:${ourId}`);

/** A read's ServiceID: any unused one; the adapter passes randomness in, so this stays pure. */
export const readServiceIdOf = (seed: string): string => base62Of(`read:${seed}`);

/**
 * The acquirer reference of a bill: our payment id (the PaymentRequest's SaleTransactionID, from
 * which its ServiceID follows), marked when the bill is a pre-authorisation so a read knows that an
 * approval is AUTHORIZED and not CAPTURED.
 */
const PREAUTH = ':preauth';
export interface BillRef {
  paymentId: string;
  twoStep: boolean;
}
export const billRefOf = ({ paymentId, twoStep }: BillRef): string => (twoStep ? paymentId + PREAUTH : paymentId);
export function parseBillRef(acquirerRef: string): BillRef {
  const twoStep = acquirerRef.endsWith(PREAUTH);
  return { paymentId: twoStep ? acquirerRef.slice(0, -PREAUTH.length) : acquirerRef, twoStep };
}
