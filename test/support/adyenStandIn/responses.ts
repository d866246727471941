import { adyenFile, DECLINE_FIXTURES, FIXTURE, literalOf } from './fixtures';

/**
 * The Terminal API answers, each made from the fixture Adyen's mock terminal or library serves,
 * with the fixture's own ids (ServiceID, SaleID, POIID, TransactionIDs, timestamps, merchant
 * account) replaced by the request's, as a real answer echoes them.
 */
export interface TransactionID {
  TransactionID: string;
  TimeStamp: string;
}

/** What an answer about a payment needs from the payment. */
export interface PaymentFacts {
  header: any; // the request's MessageHeader
  merchantAccount: string;
  saleTransactionId: TransactionID;
  poiTransactionId: TransactionID;
  pspReference: string;
  amount: number;
  currency: string;
  /** The amount asked, when the card approved less (`amount`): a partial approval. */
  requestedAmount?: number;
  /** The tip inside `amount` (AmountsResp.TipAmount). */
  tip?: number;
  card?: { brand: string; last4: string };
}

export type Customer = 'pay' | 'decline' | 'cancel';

export const nowStamp = () => new Date().toISOString();

/** The request's header turned into its answer's: same ids, MessageType Response. */
export function answerHeader(request: any, category?: string): any {
  return {
    ProtocolVersion: request.ProtocolVersion ?? '3.0',
    MessageClass: request.MessageClass,
    MessageCategory: category ?? request.MessageCategory,
    MessageType: 'Response',
    ServiceID: request.ServiceID,
    SaleID: request.SaleID,
    POIID: request.POIID,
  };
}

/** The mock terminal's rule: the amount in minor units ending in 124, 125, ... selects that decline. */
export function declineDigits(amount: number): string | undefined {
  const minor = String(Math.round(amount * 100));
  return Object.keys(DECLINE_FIXTURES).find((d) => minor.endsWith(d));
}

function withIds(file: string, p: PaymentFacts): any {
  const doc = adyenFile(file);
  const r = doc.SaleToPOIResponse;
  r.MessageHeader = answerHeader(p.header);
  const body = r.PaymentResponse;
  body.POIData = { ...body.POIData, POITransactionID: { ...p.poiTransactionId } };
  body.SaleData = { ...body.SaleData, SaleTransactionID: { ...p.saleTransactionId } };
  const result = body.PaymentResult;
  if (result?.PaymentAcquirerData) {
    result.PaymentAcquirerData.MerchantID = p.merchantAccount;
    result.PaymentAcquirerData.AcquirerPOIID = p.header.POIID;
    if (result.PaymentAcquirerData.AcquirerTransactionID)
      result.PaymentAcquirerData.AcquirerTransactionID = { TransactionID: p.pspReference, TimeStamp: p.poiTransactionId.TimeStamp };
  }
  const card = result?.PaymentInstrumentData?.CardData;
  if (card && p.card) Object.assign(card, { PaymentBrand: p.card.brand, MaskedPan: `411111 **** ${p.card.last4}` });
  return doc;
}

/**
 * paymentResponse.json: the approval, with the card the customer presented (shaped as the decline
 * fixtures show a card). For less than asked (a partial authorisation) Result is `Partial`, which
 * Adyen's "Handle responses" guide defines as "The transaction amount has been partially approved",
 * with AuthorizedAmount the amount approved.
 */
export function approved(p: PaymentFacts): any {
  const doc = withIds(FIXTURE.paymentResponse, p);
  const body = doc.SaleToPOIResponse.PaymentResponse;
  if (p.requestedAmount !== undefined && p.amount < p.requestedAmount) body.Response.Result = 'Partial';
  const card = p.card ?? { brand: 'mc', last4: '3511' };
  body.PaymentResult.AmountsResp = { AuthorizedAmount: p.amount, Currency: p.currency, ...(p.tip !== undefined ? { TipAmount: p.tip } : {}) };
  body.PaymentResult.PaymentAcquirerData.AcquirerTransactionID = { TransactionID: p.pspReference, TimeStamp: p.poiTransactionId.TimeStamp };
  body.PaymentResult.PaymentInstrumentData = {
    PaymentInstrumentType: 'Card',
    CardData: { PaymentBrand: card.brand, MaskedPan: `411111 **** ${card.last4}`, EntryMode: ['Contactless'] },
  };
  // The fixture elides it ("..."); Adyen's is URL-encoded key=value pairs.
  body.Response.AdditionalResponse = new URLSearchParams({
    pspReference: p.pspReference,
    merchantReference: p.saleTransactionId.TransactionID,
    paymentMethod: card.brand,
    cardSummary: card.last4,
    posAuthAmountCurrency: p.currency,
    posAuthAmountValue: String(Math.round(p.amount * 100)),
  }).toString();
  return doc;
}

/** One of the mock terminal's decline fixtures (124_..., 134_...). */
export function declined(p: PaymentFacts, digits: string): any {
  return withIds(DECLINE_FIXTURES[digits], p);
}

/** A refusal the customer's own card brings (no amount rule): the 124 fixture's shape, Adyen's generic refusal reason. */
export function refused(p: PaymentFacts): any {
  const doc = withIds(DECLINE_FIXTURES['124'], p);
  doc.SaleToPOIResponse.PaymentResponse.Response.AdditionalResponse = 'message=DECLINED&refusalReason=2%20Refused';
  return doc;
}

/** abortPayment fixture: the payment withdrawn by the merchant (AbortRequest), or cancelled by the shopper. */
export function aborted(p: PaymentFacts, by: 'merchant' | 'shopper'): any {
  const doc = withIds(FIXTURE.abortPayment, p);
  const response = doc.SaleToPOIResponse.PaymentResponse.Response;
  if (by === 'merchant') response.AdditionalResponse = literalOf(response.AdditionalResponse, 'message=104%20Merchant%20cancelled');
  else Object.assign(response, { ErrorCondition: 'Cancel', AdditionalResponse: 'message=108%20Shopper%20cancelled%20tx' });
  return doc;
}

/** paymentBusy fixture: another transaction is on the device. */
export function busy(header: any, saleTransactionId: TransactionID): any {
  const doc = adyenFile(FIXTURE.paymentBusy);
  const r = doc.SaleToPOIResponse;
  r.MessageHeader = answerHeader(header);
  r.PaymentResponse.SaleData.SaleTransactionID = { ...saleTransactionId };
  r.PaymentResponse.POIData.POITransactionID = { TransactionID: saleTransactionId.TransactionID, TimeStamp: nowStamp() };
  r.PaymentResponse.Response.AdditionalResponse = literalOf(r.PaymentResponse.Response.AdditionalResponse, 'message=Terminal+busy');
  return doc;
}

/** payment-sync-error fixture: the cloud cannot reach the terminal (a /sync answer). */
export function unreachableHost(header: any): any {
  const doc = adyenFile(FIXTURE.syncError);
  doc.SaleToPOIResponse.MessageHeader = answerHeader(header);
  return doc;
}

/** payment-async-error fixture: the EventNotification Reject the cloud answers on /async, with the rejected message. */
export function rejected(header: any, rawRequest: string, details = 'message=Did+not+receive+a+response+from+the+POI.'): any {
  const doc = adyenFile(FIXTURE.asyncError);
  const r = doc.SaleToPOIRequest;
  Object.assign(r.MessageHeader, { POIID: header.POIID, SaleID: header.SaleID, ServiceID: header.ServiceID });
  Object.assign(r.EventNotification, { EventDetails: details, RejectedMessage: Buffer.from(rawRequest).toString('base64'), TimeStamp: nowStamp() });
  return doc;
}

/**
 * paymentTransactionStatus fixture. `found` is the answer the named transaction got (its whole
 * SaleToPOIResponse), 'InProgress' while it waits on the device, or 'NotFound'.
 */
export function transactionStatus(header: any, reference: any, found: any | 'InProgress' | 'NotFound'): any {
  const doc = adyenFile(FIXTURE.transactionStatus);
  const r = doc.SaleToPOIResponse;
  r.MessageHeader = answerHeader(header);
  const status = r.TransactionStatusResponse;
  status.MessageReference = { ...reference };
  if (typeof found === 'string') {
    delete status.RepeatedMessageResponse;
    status.Response = {
      Result: 'Failure',
      ErrorCondition: found,
      AdditionalResponse: found === 'InProgress' ? 'message=Transaction+in+progress' : 'message=Transaction+not+found',
    };
    return doc;
  }
  const { MessageHeader, ...body } = found.SaleToPOIResponse;
  status.Response = { Result: 'Success' };
  status.RepeatedMessageResponse = { MessageHeader, RepeatedResponseMessageBody: body };
  return doc;
}

/** reversal fixture: a void (whole amount) or referenced refund (ReversedAmount), or its refusal. */
export function reversal(
  header: any,
  outcome:
    | { poiTransactionId: TransactionID; pspReference: string; originalPsp: string; amount: number }
    | { error: 'NotFound' | 'NotAllowed' | 'MessageFormat'; message: string },
): any {
  const doc = adyenFile(FIXTURE.reversal);
  const r = doc.SaleToPOIResponse;
  r.MessageHeader = answerHeader(header);
  if ('error' in outcome) {
    r.ReversalResponse = {
      Response: { Result: 'Failure', ErrorCondition: outcome.error, AdditionalResponse: `message=${encodeURIComponent(outcome.message)}` },
    };
    return doc;
  }
  r.ReversalResponse.POIData.POITransactionID = { ...outcome.poiTransactionId };
  r.ReversalResponse.ReversedAmount = outcome.amount;
  r.ReversalResponse.Response.AdditionalResponse = new URLSearchParams({
    pspReference: outcome.pspReference,
    originalReference: outcome.originalPsp,
  }).toString();
  return doc;
}
