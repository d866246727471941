import Decimal from 'decimal.js';
import type {
  PaymentCancelRequest,
  PaymentCancelResponse,
  PaymentCaptureRequest,
  PaymentCaptureResponse,
} from '@adyen/api-library/lib/src/typings/checkout/models';
import type { PaymentResponse } from '@adyen/api-library/lib/src/typings/tapi/models';
import { supportedMinorUnitsOf } from '../../money/currencies';
import { AcquirerRejectedError, type BillStatus } from '../port';
import { type StatusRead, UntrustedAnswerError, billStatusOfPayment, wordsOf } from './mapping';
import { parseBillRef } from './references';

/**
 * Two-step payments at Adyen, as pure functions: a pre-authorisation taken at the terminal is
 * completed or released through Adyen's Checkout modification calls (`/payments/{pspReference}/captures`
 * and `/cancels`), which name the payment by Adyen's pspReference and take Checkout amounts (minor
 * units). The adapter (./adapter.ts) reads the pre-authorisation at the terminal first, so it knows
 * the pspReference, the currency and the card; Adyen confirms a modification later by webhook
 * (CAPTURE, CAPTURE_FAILED, CANCELLATION), the answer itself says only `received`.
 */

const exponentOf = (currency: string): number => supportedMinorUnitsOf(currency.toUpperCase(), () => new RangeError(`unsupported currency ${currency}`));

/** "12.34" EUR -> 1234; refused when the amount has more decimals than the currency. */
export function toMinorUnits(amount: string, currency: string): number {
  const exact = new Decimal(amount);
  const exponent = exponentOf(currency);
  if (exact.decimalPlaces() > exponent) throw new RangeError(`${amount} ${currency} has more decimals than the currency allows`);
  return exact.times(new Decimal(10).pow(exponent)).toNumber();
}

/** 1234 EUR -> "12.34"; 500 JPY -> "500". */
export function fromMinorUnits(value: number, currency: string): string {
  const exponent = exponentOf(currency);
  return new Decimal(value).dividedBy(new Decimal(10).pow(exponent)).toFixed(exponent);
}

/**
 * Adyen's pspReference of a payment taken at the terminal: the POI TransactionID is
 * `<tenderReference>.<pspReference>`, and AdditionalResponse repeats it as `pspReference`. Where
 * both say it, they must agree; neither: the payment has none we can modify.
 */
export function pspReferenceOf(payment: PaymentResponse): string {
  const transactionId = payment.POIData?.POITransactionID?.TransactionID ?? '';
  const dot = transactionId.lastIndexOf('.');
  const fromTransaction = dot >= 0 ? transactionId.slice(dot + 1) : undefined;
  const fromAdditional = new URLSearchParams(payment.Response?.AdditionalResponse ?? '').get('pspReference') ?? undefined;
  if (fromTransaction && fromAdditional && fromTransaction !== fromAdditional) {
    throw new UntrustedAnswerError(`the payment names two pspReferences: ${fromTransaction} (POI transaction) and ${fromAdditional} (AdditionalResponse)`);
  }
  const psp = fromAdditional ?? fromTransaction;
  if (!psp) throw new UntrustedAnswerError('an approved payment without a pspReference (POI TransactionID tenderReference.pspReference)');
  return psp;
}

/** What a modification needs of the pre-authorisation, from the terminal's read of the bill. */
export interface PreAuthorisation {
  pspReference: string;
  currency: string;
  /** The bill as the read shows it (AUTHORIZED, with its card): what a modification's answer builds on. */
  bill: BillStatus;
}

/** The approved pre-authorisation the read found; anything else cannot be completed or released (409, with Adyen's words). */
export function preAuthorisationOf(read: StatusRead, acquirerRef: string): PreAuthorisation {
  if (!parseBillRef(acquirerRef).twoStep)
    throw new AcquirerRejectedError(`${acquirerRef} is not a pre-authorisation at adyen (a one-step payment is captured)`, 409);
  if (read.found !== 'payment')
    throw new AcquirerRejectedError(`adyen has no approved pre-authorisation for ${acquirerRef} (${read.found === 'nothing' ? read.words : read.found})`, 409);
  const bill = billStatusOfPayment(read.payment, acquirerRef);
  if (bill.state !== 'AUTHORIZED') {
    throw new AcquirerRejectedError(`adyen has no approved pre-authorisation for ${acquirerRef} (${bill.state}: ${wordsOf(read.payment.Response)})`, 409);
  }
  const currency = read.payment.PaymentResult?.AmountsResp?.Currency;
  if (!currency) throw new UntrustedAnswerError('an approved pre-authorisation without its currency');
  return { pspReference: pspReferenceOf(read.payment), currency, bill };
}

/**
 * The release's reference and Idempotency-Key: one per bill, from our payment id, so a release
 * retried after a lost answer is the same cancel at Adyen.
 */
export const releaseReferenceOf = (acquirerRef: string): string => `RELEASE-${parseBillRef(acquirerRef).paymentId}`;

/** The capture: `amount` (at most the authorised) in minor units, our captureReference as its reference (and Idempotency-Key). */
export function captureRequestOf(merchantAccount: string, preAuth: PreAuthorisation, amount: string, captureReference: string): PaymentCaptureRequest {
  return { merchantAccount, amount: { value: toMinorUnits(amount, preAuth.currency), currency: preAuth.currency.toUpperCase() }, reference: captureReference };
}

/** The release: a cancel of the pre-authorisation. */
export function cancelRequestOf(merchantAccount: string, acquirerRef: string): PaymentCancelRequest {
  return { merchantAccount, reference: releaseReferenceOf(acquirerRef) };
}

/** An answer must be `received` for the payment and reference we named; any other is not believed. */
function checkReceived(
  answer: { status?: string; paymentPspReference?: string; reference?: string },
  preAuth: PreAuthorisation,
  reference: string,
  what: string,
) {
  if (answer?.status !== 'received') throw new UntrustedAnswerError(`the ${what} was answered ${answer?.status ?? 'without a status'}, not received`);
  if (answer.paymentPspReference !== preAuth.pspReference) {
    throw new UntrustedAnswerError(`the ${what} answer names payment ${answer.paymentPspReference ?? 'none'}, not ${preAuth.pspReference}`);
  }
  if (answer.reference !== undefined && answer.reference !== reference) {
    throw new UntrustedAnswerError(`the ${what} answer names reference ${answer.reference}, not ${reference}`);
  }
}

/**
 * A capture `received`: the bill CAPTURED for the amount Adyen names (exact decimal), at `now`.
 * Adyen books it and says so by CAPTURE (or CAPTURE_FAILED) webhook; the terminal's status read
 * keeps showing the approved pre-authorisation, so this answer is what the workflow records.
 */
export function capturedBillOf(answer: PaymentCaptureResponse, preAuth: PreAuthorisation, captureReference: string, now: Date): BillStatus {
  checkReceived(answer, preAuth, captureReference, 'capture');
  const amount = answer.amount;
  if (!amount || typeof amount.value !== 'number' || amount.currency?.toUpperCase() !== preAuth.currency.toUpperCase()) {
    throw new UntrustedAnswerError(`the capture answer names ${JSON.stringify(amount ?? null)}, not an amount in ${preAuth.currency}`);
  }
  const { errorMessage: _none, ...bill } = preAuth.bill;
  return { ...bill, state: 'CAPTURED', capturedAmount: fromMinorUnits(amount.value, preAuth.currency), capturedAt: now.toISOString() };
}

/** A cancel `received`: the hold released (RELEASED), at `now`; Adyen confirms by CANCELLATION webhook. */
export function releasedBillOf(answer: PaymentCancelResponse, preAuth: PreAuthorisation, acquirerRef: string, now: Date): BillStatus {
  checkReceived(answer, preAuth, releaseReferenceOf(acquirerRef), 'cancel');
  return { ...preAuth.bill, state: 'RELEASED', decidedAt: now.toISOString() };
}
