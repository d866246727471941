import Decimal from 'decimal.js';
import { SaleToAcquirerDataParser } from './library';
import type {
  CloudDeviceApiAsyncResponse,
  CloudDeviceApiRequest,
  CloudDeviceApiResponse,
  ConnectedDevicesResponse,
  DeviceStatusResponse,
} from '@adyen/api-library/lib/src/typings/clouddevice/models';
import {
  DocumentQualifier,
  ErrorCondition,
  MessageCategory,
  MessageClass,
  MessageType,
  ReversalReason,
  Result,
  type MessageHeader,
  type PaymentResponse,
  type Response,
  type ReversalResponse,
  type SaleToPOIResponse,
  type TransactionIDType,
} from '@adyen/api-library/lib/src/typings/tapi/models';
import { supportedMinorUnitsOf } from '../../money/currencies';
import {
  AcquirerRejectedError,
  AcquirerUnreachableError,
  type BillState,
  type BillStatus,
  type DeviceCapabilities,
  type PaymentMode,
  type RefundStatus,
  type SendBillRequest,
  type TipOffer,
  type SendBillResult,
  type VoidStatus,
} from '../port';
import { SALE_ID, billRefOf, parseBillRef, serviceIdOf } from './references';

/**
 * The mapping between the acquirer port and Adyen's cloud Terminal API (Nexo JSON), as pure
 * functions (docs/acquirers.md has the same mapping as a table). Nothing here calls Adyen: the
 * adapter (./adapter.ts) sends what these build and answers what these read.
 */

/** Adyen terminals take cards and, where the merchant has them enabled, QR-code wallets. */
export const ADYEN_MODES: readonly PaymentMode[] = ['CARD', 'QR_CODE'];

/** An answer that claims an outcome it cannot prove (a success without its transaction): treated as no answer. */
export class UntrustedAnswerError extends AcquirerUnreachableError {
  constructor(message: string) {
    super(`adyen answer not trusted: ${message}`);
    this.name = 'UntrustedAnswerError';
  }
}

// ---------------------------------------------------------------------------------------------
// Amounts: Terminal API amounts are decimal numbers in major units; ours are exact strings.

const minorUnitsOf = (currency: string): number => supportedMinorUnitsOf(currency.toUpperCase(), () => new RangeError(`unsupported currency ${currency}`));

/** "12.34" -> 12.34, refused unless the JSON number is exactly the amount. */
export function toAdyenAmount(amount: string, currency: string): number {
  const exact = new Decimal(amount);
  if (exact.decimalPlaces() > minorUnitsOf(currency)) throw new RangeError(`${amount} ${currency} has more decimals than the currency allows`);
  const n = exact.toNumber();
  if (!new Decimal(n).equals(exact)) throw new RangeError(`${amount} cannot be sent exactly as a Terminal API amount`);
  return n;
}

/** 1.5 EUR -> "1.50". */
export function fromAdyenAmount(amount: number, currency: string): string {
  return new Decimal(String(amount)).toFixed(minorUnitsOf(currency));
}

// ---------------------------------------------------------------------------------------------
// Requests

const headerOf = (category: MessageCategory, serviceId: string, deviceId: string): MessageHeader => ({
  ProtocolVersion: '3.0',
  MessageClass: MessageClass.Service,
  MessageCategory: category,
  MessageType: MessageType.Request,
  ServiceID: serviceId,
  SaleID: SALE_ID,
  POIID: deviceId,
});

/**
 * What we tell Adyen's acquiring side with the sale (SaleToAcquirerData, as the library encodes
 * it): a two-step terminal's bill is a pre-authorisation (`authorisationType=PreAuth`), a payment
 * that allows partial authorisation carries the tender option `AllowPartialAuthorisation` (Adyen's
 * "Partial payments" and "Use tender options" guides: tender options go in SaleToAcquirerData), and
 * our ids go along as metadata so Adyen's reports and notifications name our payment.
 */
function saleToAcquirerDataOf(request: SendBillRequest): string {
  // Several tender options are one comma-separated value (Adyen's "Use tender options" guide).
  const tenderOptions = [
    ...(request.allowPartialAuthorisation === true ? ['AllowPartialAuthorisation'] : []),
    // Tipping from the terminal (Adyen's "Tipping from the terminal" guide): the terminal asks for a tip.
    ...(request.askTip ? ['AskGratuity'] : []),
  ];
  return SaleToAcquirerDataParser.toBase64({
    ...(request.twoStep === true ? { authorisationType: 'PreAuth' } : {}),
    ...(tenderOptions.length > 0 ? { tenderOption: tenderOptions.join(',') } : {}),
    metadata: { ispPaymentId: request.paymentId, ispPspReference: request.pspReference, ...(request.reference ? { ispReference: request.reference } : {}) },
  });
}

/**
 * The store's tip options for the terminal (Adyen's "Override configured tipping options", terminal
 * software 1.101 and later): a Base64-encoded Operation object in SaleData.SaleToPOIData, with up to
 * three percentages (Percentage1..3) and TipCustom for an amount of the customer's own.
 */
export function tipOptionsOf(offer: TipOffer): string {
  const suggestions = Object.fromEntries(offer.percentages.slice(0, 3).map((p, i) => [`Percentage${i + 1}`, p]));
  const operation = { Operation: [{ Type: 'Payment', TipOptions: { TipSuggestions: { ...suggestions, TipCustom: offer.allowCustom } } }] };
  return Buffer.from(JSON.stringify(operation), 'utf8').toString('base64');
}

/** The bill: a PaymentRequest for the exact amount, identified by our payment id (a retry is the same pair). */
export function paymentRequestOf(request: SendBillRequest, now: Date): CloudDeviceApiRequest {
  return {
    SaleToPOIRequest: {
      MessageHeader: headerOf(MessageCategory.Payment, serviceIdOf('payment', request.paymentId), request.deviceId),
      PaymentRequest: {
        SaleData: {
          SaleTransactionID: { TransactionID: request.paymentId, TimeStamp: now },
          SaleReferenceID: request.pspReference,
          SaleToAcquirerData: saleToAcquirerDataOf(request),
          ...(request.askTip ? { SaleToPOIData: tipOptionsOf(request.askTip) } : {}),
          ...(request.receipt?.cashierId ? { OperatorID: request.receipt.cashierId } : {}),
        },
        PaymentTransaction: {
          AmountsReq: {
            Currency: request.currency.toUpperCase(),
            RequestedAmount: toAdyenAmount(request.amount, request.currency),
            // A tip the POS knows (Adyen's "Tipping from the POS app"): shown on the terminal on top of the amount.
            ...(request.tipAmount !== undefined ? { TipAmount: toAdyenAmount(request.tipAmount, request.currency) } : {}),
          },
        },
      },
    },
  };
}

/** A message pair: our SaleID and the pair's ServiceID. An answer must echo the pair it answers. */
export interface Pair {
  saleId: string;
  serviceId: string;
}
export const ourPair = (serviceId: string): Pair => ({ saleId: SALE_ID, serviceId });

/** What a status read or an abort names: the original message pair and its category. */
export interface MessageRef extends Pair {
  category: MessageCategory.Payment | MessageCategory.Reversal;
}
export const paymentMessageOf = (acquirerRef: string): MessageRef => ({
  category: MessageCategory.Payment,
  ...ourPair(serviceIdOf('payment', parseBillRef(acquirerRef).paymentId)),
});
export const voidMessageOf = (voidReference: string): MessageRef => ({ category: MessageCategory.Reversal, ...ourPair(serviceIdOf('void', voidReference)) });
export const refundMessageOf = (refundReference: string): MessageRef => ({
  category: MessageCategory.Reversal,
  ...ourPair(serviceIdOf('refund', refundReference)),
});

/** A status read of an earlier pair (sent on /sync); `readServiceId` is this read's own pair. */
export function transactionStatusRequestOf(deviceId: string, original: MessageRef, readServiceId: string): CloudDeviceApiRequest {
  return {
    SaleToPOIRequest: {
      MessageHeader: headerOf(MessageCategory.TransactionStatus, readServiceId, deviceId),
      TransactionStatusRequest: {
        MessageReference: { MessageCategory: original.category, SaleID: original.saleId, ServiceID: original.serviceId },
        DocumentQualifier: [DocumentQualifier.CashierReceipt, DocumentQualifier.CustomerReceipt],
        ReceiptReprintFlag: false,
      },
    },
  };
}

/** Withdrawing a bill: abort its payment (only works before the customer approves; a read follows). */
export function abortRequestOf(deviceId: string, acquirerRef: string): CloudDeviceApiRequest {
  const original = paymentMessageOf(acquirerRef);
  return {
    SaleToPOIRequest: {
      MessageHeader: headerOf(MessageCategory.Abort, serviceIdOf('abort', parseBillRef(acquirerRef).paymentId), deviceId),
      AbortRequest: {
        MessageReference: { MessageCategory: original.category, SaleID: original.saleId, ServiceID: original.serviceId },
        AbortReason: 'MerchantAbort',
      },
    },
  };
}

/**
 * A reversal of a captured payment (`original`: its POITransactionID, from a status read). Without
 * an amount it reverses the whole payment (a void); with `amount` it is a referenced refund of that
 * much. Its SaleTransactionID is our void or refund reference, its ServiceID derived from it.
 *
 * A refund names its currency as Adyen's referenced-refund material shows a partial refund:
 * `"ReversedAmount": 6.00` with `"SaleData": { "SaleToAcquirerData": "currency=EUR", ... }`
 * (Adyen's partial referenced refund request, docs.adyen.com/unified-commerce/referenced-refunds;
 * the Terminal API guide's "Referenced refund", partial refund tab, asks for the same two fields).
 * ReversedAmount is a bare number, so without the currency Adyen is left to assume it.
 */
/** A referenced refund's SaleToAcquirerData: `currency=EUR`, the key=value form Adyen's partial refund example uses. */
export const refundAcquirerDataOf = (currency: string): string => new URLSearchParams({ currency: currency.toUpperCase() }).toString();

export function reversalRequestOf(
  deviceId: string,
  original: TransactionIDType,
  reversal: { kind: 'void'; voidReference: string } | { kind: 'refund'; refundReference: string; amount: string; currency: string },
  now: Date,
): CloudDeviceApiRequest {
  const reference = reversal.kind === 'void' ? reversal.voidReference : reversal.refundReference;
  return {
    SaleToPOIRequest: {
      MessageHeader: headerOf(MessageCategory.Reversal, serviceIdOf(reversal.kind, reference), deviceId),
      ReversalRequest: {
        OriginalPOITransaction: { POITransactionID: { TransactionID: original.TransactionID, TimeStamp: original.TimeStamp } },
        ReversalReason: ReversalReason.MerchantCancel,
        SaleData: {
          SaleTransactionID: { TransactionID: reference, TimeStamp: now },
          ...(reversal.kind === 'refund' ? { SaleToAcquirerData: refundAcquirerDataOf(reversal.currency) } : {}),
        },
        ...(reversal.kind === 'refund' ? { ReversedAmount: toAdyenAmount(reversal.amount, reversal.currency) } : {}),
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Answers

/** Adyen's own words for a failure: the refusal reason and message in AdditionalResponse, else the error condition. */
export function wordsOf(response: Response | undefined | null): string {
  if (!response) return 'no response';
  const extra = new URLSearchParams(response.AdditionalResponse ?? '');
  const said = [extra.get('refusalReason'), extra.get('message')].filter((s): s is string => !!s && !/^[.*+]+$/.test(s));
  const condition = response.ErrorCondition ?? response.Result;
  return said.length ? `${said.join(': ')} (${condition})` : String(condition);
}

const isFailure = (r: Response | undefined | null): boolean => r?.Result === Result.Failure;

/** An answer must echo the pair it answers (SaleID and ServiceID); another pair's answer is not ours. */
function checkEcho(header: MessageHeader | undefined, pair: Pair): void {
  if (!header || header.SaleID !== pair.saleId || header.ServiceID !== pair.serviceId) {
    throw new UntrustedAnswerError(
      `the answer names SaleID ${header?.SaleID ?? 'none'} / ServiceID ${header?.ServiceID ?? 'none'}, not ${pair.saleId} / ${pair.serviceId}`,
    );
  }
}

/**
 * An event notification in place of an answer (EventToNotify `Reject`). "Did not receive a
 * response from the POI", a timeout or an unreachable terminal: unknown, retry (a read tells).
 * Any other rejection (a malformed message): refused.
 */
const UNDELIVERED = /response from the POI|not reachable|unreachable|time ?out|timed out/i;
function eventFailure(
  envelope: { SaleToPOIRequest?: { EventNotification?: { EventToNotify?: string; EventDetails?: string } | null } },
  what: string,
): Error | null {
  const event = envelope?.SaleToPOIRequest?.EventNotification;
  if (!event) return null;
  const details = new URLSearchParams(event.EventDetails ?? '').get('message') ?? event.EventDetails ?? '';
  const words = `${event.EventToNotify} ${details}`.trim();
  if (UNDELIVERED.test(details) || !details) return new AcquirerUnreachableError(`adyen did not deliver ${what}: ${words}`);
  return new AcquirerRejectedError(`adyen rejected ${what}: ${words}`, 400, event.EventToNotify);
}

/** Adyen's encrypted envelope (NexoBlob): our accounts hold no terminal encryption key, so it proves nothing. */
function refuseEncrypted(envelope: object | undefined | null): void {
  for (const message of Object.values(envelope ?? {})) {
    if (message && typeof message === 'object' && 'NexoBlob' in message) {
      throw new UntrustedAnswerError('an encrypted (NexoBlob) answer; adyen accounts here use unencrypted Terminal API messages');
    }
  }
}

/** Conditions in answer to our own message that mean the terminal could not be asked: retry. */
const DEVICE_UNREACHABLE = new Set<string>([
  ErrorCondition.UnreachableHost,
  ErrorCondition.UnavailableDevice,
  ErrorCondition.DeviceOut,
  ErrorCondition.UnavailableService,
]);

/**
 * The answer of /async to our PaymentRequest. `ok`: the terminal has the bill (the outcome comes
 * later by notification or status read). An event notification instead: not delivered (retry,
 * the pre-send read makes the retry safe). A payment response: only a refusal can come this
 * way (Busy: another transaction is on the terminal); a claimed success is not believed.
 */
export function sendBillResultOf(answer: CloudDeviceApiAsyncResponse | CloudDeviceApiResponse, acquirerRef: string): SendBillResult {
  if ('Result' in answer && typeof answer.Result === 'string' && answer.Result.trim().toLowerCase() === 'ok') return { outcome: 'ON_DEVICE', acquirerRef };
  refuseEncrypted(answer);
  const failed = eventFailure(answer as CloudDeviceApiResponse, 'the payment request');
  if (failed) throw failed;
  const envelope = answer as { SaleToPOIResponse?: SaleToPOIResponse; SaleToPOIRequest?: { PaymentResponse?: PaymentResponse } };
  const payment = envelope.SaleToPOIResponse?.PaymentResponse ?? envelope.SaleToPOIRequest?.PaymentResponse;
  if (payment && isFailure(payment.Response)) {
    const condition = payment.Response.ErrorCondition;
    if (condition === ErrorCondition.Busy) return { outcome: 'DEVICE_BUSY', currentReference: null };
    if (DEVICE_UNREACHABLE.has(condition ?? '')) throw new AcquirerUnreachableError(`adyen could not reach the terminal: ${wordsOf(payment.Response)}`);
    throw new AcquirerRejectedError(`adyen refused the payment request: ${wordsOf(payment.Response)}`, 422, condition);
  }
  throw new UntrustedAnswerError(`/async answered neither "ok" nor an error: ${JSON.stringify(answer).slice(0, 200)}`);
}

/** Card brand as we show it ("mc" -> "MC"), last 4 from the masked PAN ("411111 **** 1111"). */
function cardOf(payment: PaymentResponse): { cardBrand?: string; last4?: string; paymentMethod?: PaymentMode } {
  const instrument = payment.PaymentResult?.PaymentInstrumentData;
  const card = instrument?.CardData;
  const out: { cardBrand?: string; last4?: string; paymentMethod?: PaymentMode } = {};
  out.paymentMethod = instrument?.PaymentInstrumentType === 'Mobile' ? 'QR_CODE' : 'CARD';
  if (card?.PaymentBrand) out.cardBrand = card.PaymentBrand.toUpperCase();
  const digits = card?.MaskedPan?.replace(/\D/g, '');
  if (digits && digits.length >= 4) out.last4 = digits.slice(-4);
  return out;
}

const iso = (t: Date | string | undefined): string | undefined => (t ? new Date(t).toISOString() : undefined);

/** The payment's own result as a bill state; the reasons failures are which state. */
function failureStateOf(condition: string | undefined): BillState {
  switch (condition) {
    case ErrorCondition.InProgress:
      return 'WAITING';
    case ErrorCondition.Cancel: // cancelled on the terminal by the customer or cashier
      return 'CANCELLED';
    case ErrorCondition.Aborted: // our AbortRequest (withdrawal)
      return 'WITHDRAWN';
    case ErrorCondition.Refusal:
    case ErrorCondition.InvalidCard:
    case ErrorCondition.WrongPin:
    case ErrorCondition.PaymentRestriction:
    case ErrorCondition.NotAllowed:
      return 'DECLINED';
    default: // Busy, UnreachableHost, DeviceOut, MessageFormat, ...: the terminal reported a problem
      return 'ERROR';
  }
}

/**
 * An approval: `Success`, or `Partial`, which Adyen's "Handle responses" guide
 * (docs.adyen.com/point-of-sale/error-scenarios) defines as "The transaction amount has been
 * partially approved" (a partial authorisation, AllowPartialAuthorisation): the card approved
 * AmountsResp.AuthorizedAmount, less than asked. Either is an approval of what was authorised,
 * never a refusal or an unknown outcome.
 */
const isApproval = (r: Response | undefined | null): boolean => r?.Result === Result.Success || r?.Result === Result.Partial;

/**
 * A PaymentResponse (from a status read, or an event notification) as the bill's status. An
 * approval (Success or Partial) must carry its POI transaction and the authorised amount; one
 * that does not is not believed (UntrustedAnswerError), never CAPTURED.
 *
 * A partial approval of a payment that did not allow it (no tender option sent) should not
 * happen: the tender option is what asks the issuer for the available amount instead of a
 * decline. The read cannot tell (it names only the acquirer reference), so it is read the same
 * way, as an approval of what Adyen authorised: the payment's amount becomes that and its
 * requestedAmount keeps what was asked (docs/acquirers.md, "Partial authorisation"), which is
 * what Adyen holds or captured; a refusal or an error would hide money Adyen took.
 */
export function billStatusOfPayment(payment: PaymentResponse, acquirerRef: string): BillStatus {
  const response = payment.Response;
  if (isApproval(response)) {
    const transaction = payment.POIData?.POITransactionID;
    const amounts = payment.PaymentResult?.AmountsResp;
    if (!transaction?.TransactionID || typeof amounts?.AuthorizedAmount !== 'number') {
      throw new UntrustedAnswerError(`an approved (${response?.Result}) payment without its POI transaction or authorised amount`);
    }
    if (response?.Result === Result.Partial && (!amounts.Currency || !(amounts.AuthorizedAmount > 0))) {
      throw new UntrustedAnswerError('a partially approved payment without a positive authorised amount and its currency');
    }
    const twoStep = parseBillRef(acquirerRef).twoStep;
    const status: BillStatus = { acquirerRef, state: twoStep ? 'AUTHORIZED' : 'CAPTURED', ...cardOf(payment) };
    const decidedAt = iso(payment.PaymentResult?.PaymentAcquirerData?.AcquirerTransactionID?.TimeStamp ?? transaction.TimeStamp);
    if (decidedAt) status.decidedAt = decidedAt;
    if (amounts.Currency) {
      // What the card approved: less than asked after a partial authorisation (AllowPartialAuthorisation).
      status.authorizedAmount = fromAdyenAmount(amounts.AuthorizedAmount, amounts.Currency);
      if (!twoStep) status.capturedAmount = status.authorizedAmount;
      // The tip the customer added (AskGratuity), inside AuthorizedAmount: AmountsResp.TipAmount "qualifies the tip part of the amount".
      if (typeof amounts.TipAmount === 'number' && amounts.TipAmount > 0) status.tipAmount = fromAdyenAmount(amounts.TipAmount, amounts.Currency);
    }
    return status;
  }
  const state: BillState = failureStateOf(response?.ErrorCondition);
  const status: BillStatus = { acquirerRef, state };
  if (state === 'DECLINED' || state === 'ERROR') status.errorMessage = wordsOf(response);
  return status;
}

/**
 * An envelope carrying a payment's answer (a /sync PaymentResponse, or the payment's event
 * notification), checked against the pair it must answer. The terminal not reached: unknown
 * (retry); an encrypted or unproven success: not believed; else the bill's status.
 */
export function paymentAnswerOf(answer: CloudDeviceApiResponse, pair: Pair, acquirerRef: string): BillStatus {
  refuseEncrypted(answer);
  const failed = eventFailure(answer, 'the payment request');
  if (failed) throw failed;
  const envelope = answer.SaleToPOIResponse;
  const payment = envelope?.PaymentResponse;
  if (!payment) throw new UntrustedAnswerError('a payment answer without a PaymentResponse');
  checkEcho(envelope.MessageHeader, pair);
  if (isFailure(payment.Response) && DEVICE_UNREACHABLE.has(payment.Response.ErrorCondition ?? '')) {
    throw new AcquirerUnreachableError(`adyen could not reach the terminal: ${wordsOf(payment.Response)}`);
  }
  return billStatusOfPayment(payment, acquirerRef);
}

/** What a status read found: the original pair's answer, still running, or nothing at the terminal. */
export type StatusRead =
  | { found: 'payment'; payment: PaymentResponse }
  | { found: 'reversal'; reversal: ReversalResponse }
  | { found: 'in-progress' }
  | { found: 'nothing'; words: string };

/**
 * The answer to a TransactionStatusRequest (`read` the read's own pair, `original` the pair it
 * names). NotFound: the terminal never had that pair. InProgress: it is still running. The
 * terminal unreachable: unknown (retry). Success: the original answer, which must echo the pair.
 */
export function statusReadOf(answer: CloudDeviceApiResponse, read: Pair, original: MessageRef): StatusRead {
  refuseEncrypted(answer);
  const failed = eventFailure(answer, 'the status read');
  if (failed) throw failed;
  const envelope = answer.SaleToPOIResponse;
  checkEcho(envelope?.MessageHeader, read);
  const status = envelope?.TransactionStatusResponse;
  const other = envelope?.PaymentResponse?.Response ?? envelope?.ReversalResponse?.Response;
  const response = status?.Response ?? other;
  if (!response) throw new UntrustedAnswerError('a status read answered without a TransactionStatusResponse');
  if (isFailure(response)) {
    const condition = response.ErrorCondition ?? '';
    if (condition === ErrorCondition.InProgress) return { found: 'in-progress' };
    if (condition === ErrorCondition.NotFound) return { found: 'nothing', words: wordsOf(response) };
    if (DEVICE_UNREACHABLE.has(condition) || condition === ErrorCondition.Busy)
      throw new AcquirerUnreachableError(`adyen could not read the terminal: ${wordsOf(response)}`);
    throw new AcquirerRejectedError(`adyen refused the status read: ${wordsOf(response)}`, 422, condition);
  }
  const repeated = status?.RepeatedMessageResponse;
  checkEcho(repeated?.MessageHeader, original);
  const body = repeated?.RepeatedResponseMessageBody;
  if (original.category === MessageCategory.Payment && body?.PaymentResponse) return { found: 'payment', payment: body.PaymentResponse };
  if (original.category === MessageCategory.Reversal && body?.ReversalResponse) return { found: 'reversal', reversal: body.ReversalResponse };
  throw new UntrustedAnswerError(`a status read answered without the ${original.category} response it names`);
}

/**
 * Before sending a bill: what the terminal already has of this payment's pair. Nothing: send it
 * (null). Our own earlier send refused as Busy: still busy. Anything else: the bill is there.
 */
export function priorSendOf(read: StatusRead, acquirerRef: string): SendBillResult | null {
  if (read.found === 'nothing') return null;
  if (read.found === 'payment' && read.payment.Response?.ErrorCondition === ErrorCondition.Busy) return { outcome: 'DEVICE_BUSY', currentReference: null };
  return { outcome: 'ON_DEVICE', acquirerRef };
}

/** The bill's status from a status read. Nothing at the terminal yet after an `ok`: still WAITING (a withdrawal ends it). */
export function billStatusOfRead(read: StatusRead, acquirerRef: string, withdrawn = false): BillStatus {
  if (read.found === 'payment') return billStatusOfPayment(read.payment, acquirerRef);
  if (read.found === 'in-progress') return { acquirerRef, state: 'WAITING' };
  if (read.found === 'nothing') return { acquirerRef, state: withdrawn ? 'WITHDRAWN' : 'WAITING' };
  throw new UntrustedAnswerError('a reversal where the payment was read');
}

/** The POI transaction a reversal names, from the payment's read; only an approved payment has one to reverse. */
export function reversibleTransactionOf(read: StatusRead): TransactionIDType {
  if (read.found === 'payment' && isApproval(read.payment.Response) && read.payment.POIData?.POITransactionID?.TransactionID) {
    return read.payment.POIData.POITransactionID;
  }
  const why = read.found === 'payment' ? wordsOf(read.payment.Response) : read.found;
  throw new AcquirerRejectedError(`adyen has no approved payment to reverse (${why})`, 409);
}

/** Reversal outcome, shared by voids and refunds: Success done, InProgress pending, else refused with Adyen's words. */
function reversalOutcomeOf(reversal: ReversalResponse): { outcome: 'DONE' | 'PENDING' | 'REFUSED'; words?: string } {
  const response = reversal.Response;
  if (response?.Result === Result.Success) {
    if (!reversal.POIData?.POITransactionID?.TransactionID) throw new UntrustedAnswerError('a successful reversal without its POI transaction');
    return { outcome: 'DONE' };
  }
  if (response?.ErrorCondition === ErrorCondition.InProgress) return { outcome: 'PENDING' };
  return { outcome: 'REFUSED', words: wordsOf(response) };
}

/** The answer of a ReversalRequest (on /sync), or of a status read naming it, checked against our pair. */
export function reversalOf(answer: CloudDeviceApiResponse, pair: Pair): ReversalResponse {
  refuseEncrypted(answer);
  const failed = eventFailure(answer, 'the reversal');
  if (failed) throw failed;
  checkEcho(answer.SaleToPOIResponse?.MessageHeader, pair);
  const reversal = answer.SaleToPOIResponse?.ReversalResponse;
  if (!reversal) throw new UntrustedAnswerError('a reversal answered without a ReversalResponse');
  if (isFailure(reversal.Response) && DEVICE_UNREACHABLE.has(reversal.Response.ErrorCondition ?? '')) {
    throw new AcquirerUnreachableError(`adyen could not reach the terminal: ${wordsOf(reversal.Response)}`);
  }
  return reversal;
}

export function voidStatusOf(reversal: ReversalResponse, voidReference: string): VoidStatus {
  const { outcome, words } = reversalOutcomeOf(reversal);
  const state = outcome === 'DONE' ? 'CONFIRMED' : outcome === 'PENDING' ? 'PENDING' : 'REJECTED';
  return { voidReference, state, ...(words && state === 'REJECTED' ? { message: words } : {}) };
}

/** `amount`: what we asked for; Adyen's ReversedAmount when it says. */
export function refundStatusOf(reversal: ReversalResponse, refundReference: string, amount: string | undefined, currency?: string): RefundStatus {
  const { outcome, words } = reversalOutcomeOf(reversal);
  const state = outcome === 'DONE' ? 'SUCCEEDED' : outcome === 'PENDING' ? 'PENDING' : 'FAILED';
  const reversed = typeof reversal.ReversedAmount === 'number' && currency ? fromAdyenAmount(reversal.ReversedAmount, currency) : undefined;
  const status: RefundStatus = {
    refundReference,
    state,
    amount: reversed ?? amount ?? (typeof reversal.ReversedAmount === 'number' ? String(reversal.ReversedAmount) : '0'),
  };
  if (words && state === 'FAILED') status.message = words;
  const decidedAt = iso(reversal.POIData?.POITransactionID?.TimeStamp);
  if (state !== 'PENDING' && decidedAt) status.decidedAt = decidedAt;
  return status;
}

/**
 * A device from the cloud device API's status: every Adyen terminal the account knows offers
 * cards and QR wallets, can pre-authorise (two-step) and reverse (void). Online or not, it exists.
 */
export function deviceOf(status: DeviceStatusResponse, deviceId: string): DeviceCapabilities {
  if (status.deviceId && status.deviceId !== deviceId) throw new UntrustedAnswerError(`device status of ${status.deviceId}, not ${deviceId}`);
  return { deviceId, modes: [...ADYEN_MODES], twoStep: true, voidSupported: true };
}

/**
 * The answer of an AbortRequest: nothing (the abort itself has no body), or the aborted payment's
 * own response (ErrorCondition Aborted, as Adyen's mock terminal answers). A read follows either way.
 */
export function abortAnswerOf(
  answer: CloudDeviceApiResponse | string | undefined | null,
  acquirerRef: string,
  original: Pair = paymentMessageOf(acquirerRef),
): BillStatus | null {
  if (!answer || typeof answer === 'string') return null;
  const failed = eventFailure(answer, 'the abort');
  if (failed) throw failed;
  const envelope = answer.SaleToPOIResponse;
  if (!envelope?.PaymentResponse) return null;
  checkEcho(envelope.MessageHeader, original);
  return billStatusOfPayment(envelope.PaymentResponse, acquirerRef);
}

/** The terminals (POIIDs) connected to the account (cloud device API `connectedDevices`). */
export const connectedDevicesOf = (answer: ConnectedDevicesResponse): string[] => [...(answer.uniqueDeviceIds ?? [])];

/** The acquirer reference a placed bill gets. */
export const acquirerRefOf = (request: SendBillRequest): string => billRefOf({ paymentId: request.paymentId, twoStep: request.twoStep === true });
