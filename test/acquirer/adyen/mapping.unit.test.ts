import fs from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { SaleToAcquirerDataParser } from '@adyen/api-library';
import type { CloudDeviceApiRequest, CloudDeviceApiResponse } from '@adyen/api-library/lib/src/typings/clouddevice/models';
import { MessageCategory } from '@adyen/api-library/lib/src/typings/tapi/models';
import { AcquirerRejectedError, AcquirerUnreachableError, type SendBillRequest } from '../../../src/acquirer/port';
import {
  UntrustedAnswerError,
  abortAnswerOf,
  abortRequestOf,
  acquirerRefOf,
  billStatusOfRead,
  connectedDevicesOf,
  deviceOf,
  fromAdyenAmount,
  paymentAnswerOf,
  paymentMessageOf,
  paymentRequestOf,
  priorSendOf,
  refundMessageOf,
  refundStatusOf,
  reversalOf,
  reversalRequestOf,
  reversibleTransactionOf,
  sendBillResultOf,
  statusReadOf,
  toAdyenAmount,
  transactionStatusRequestOf,
  voidMessageOf,
  voidStatusOf,
  wordsOf,
  type MessageRef,
  type Pair,
  type StatusRead,
} from '../../../src/acquirer/adyen/mapping';
import { SALE_ID, billRefOf, parseBillRef, readServiceIdOf, serviceIdOf } from '../../../src/acquirer/adyen/references';
import { rebase } from '../../../src/acquirer/adyen/transport';
import { translate } from '../../../src/acquirer/adyen/adapter';

/**
 * The Adyen mapping (docs/acquirers.md, "Adyen Terminal API (cloud)") against Adyen's own material
 * in test/fixtures/adyen (copied unchanged, its README names the sources): every fixture file maps to a port state (a file
 * without an entry below, or one that maps to none, fails), and every request we build validates
 * against TerminalAPI-v1.json.
 */
const ADYEN = path.resolve(__dirname, '../../fixtures/adyen'); // Adyen's own files, copied unchanged (its README)
const read = (file: string): unknown => JSON.parse(fs.readFileSync(path.join(ADYEN, file), 'utf8'));

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(path.join(ADYEN, dir), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : e.name.endsWith('.json') ? [path.join(dir, e.name)] : []))
    .sort();
}

// ---------------------------------------------------------------------------------------------
// A fixture as a port outcome: a request as the port call that sends it, an answer as the state.

type Envelope = {
  SaleToPOIRequest?: { MessageHeader?: { MessageType?: string; SaleID?: string; ServiceID?: string }; [body: string]: unknown };
  SaleToPOIResponse?: {
    MessageHeader?: { SaleID?: string; ServiceID?: string };
    TransactionStatusResponse?: { MessageReference?: { SaleID?: string; ServiceID?: string } };
    [body: string]: unknown;
  };
};
const pairOf = (header: { SaleID?: string; ServiceID?: string } | undefined): Pair => ({ saleId: header?.SaleID ?? '', serviceId: header?.ServiceID ?? '' });
const REF = 'pay_fixture';

/** The port call a request fixture is, by its body (and for a reversal, whether it names an amount). */
function portCallOfRequest(body: Record<string, unknown>): string {
  if (body.PaymentRequest) return 'sendBill';
  if (body.TransactionStatusRequest) return 'getBillStatus';
  if (body.AbortRequest) return 'withdrawBill';
  if (body.ReversalRequest) return (body.ReversalRequest as { ReversedAmount?: number }).ReversedAmount === undefined ? 'submitVoid' : 'refund';
  throw new Error('a request no port call sends');
}

/** Maps one fixture; a thrown port error is an outcome too (unreachable: retry; untrusted: not believed). */
function outcomeOf(json: unknown): string {
  try {
    return mapFixture(json as Envelope);
  } catch (err) {
    if (err instanceof UntrustedAnswerError) return 'untrusted';
    if (err instanceof AcquirerUnreachableError) return 'unreachable';
    if (err instanceof AcquirerRejectedError) return `rejected ${err.status}`;
    throw err;
  }
}

function mapFixture(json: Envelope & { uniqueDeviceIds?: string[]; deviceId?: string; status?: string }): string {
  if (json.uniqueDeviceIds) return `devices ${connectedDevicesOf(json).join(',')}`;
  if (json.deviceId) {
    const d = deviceOf(json as never, json.deviceId);
    return `device ${d.modes.join('+')} twoStep=${d.twoStep} void=${d.voidSupported}`;
  }
  const request = json.SaleToPOIRequest;
  if (request?.MessageHeader?.MessageType === 'Request') return `request ${portCallOfRequest(request)}`;
  if (request) return `send ${sendBillResultOf(json as CloudDeviceApiResponse, REF).outcome}`; // what /async answers
  const response = json.SaleToPOIResponse!;
  const pair = pairOf(response.MessageHeader);
  if (response.TransactionStatusResponse) {
    const original: MessageRef = { category: MessageCategory.Payment, ...pairOf(response.TransactionStatusResponse.MessageReference) };
    const bill = billStatusOfRead(statusReadOf(json as CloudDeviceApiResponse, pair, original), REF);
    return `bill ${bill.state} ${bill.cardBrand ?? ''} ${bill.last4 ?? ''}`.trim();
  }
  if (response.ReversalResponse) {
    const reversal = reversalOf(json as CloudDeviceApiResponse, pair);
    return `void ${voidStatusOf(reversal, 'v1').state}, refund ${refundStatusOf(reversal, 'r1', '10.99', 'EUR').state}`;
  }
  const body = (response as { PaymentResponse?: { Response?: { ErrorCondition?: string } } }).PaymentResponse;
  if (body?.Response?.ErrorCondition === 'Busy') return `send ${sendBillResultOf(json as CloudDeviceApiResponse, REF).outcome}`;
  if (body?.Response?.ErrorCondition === 'Aborted') return `bill ${abortAnswerOf(json as CloudDeviceApiResponse, REF, pair)!.state}`;
  const bill = paymentAnswerOf(json as CloudDeviceApiResponse, pair, REF);
  return `bill ${bill.state}${bill.errorMessage ? `: ${bill.errorMessage}` : ''}`;
}

/** Every fixture file and what it must map to. */
const EXPECTED: Record<string, string> = {
  'clouddevice/connected-devices.json': 'devices P400Plus-123456789,V400m-123456789',
  'clouddevice/encrypted-event-notification.json': 'untrusted',
  'clouddevice/payment-async-error.json': 'unreachable',
  'clouddevice/payment-async-forged-success.json': 'untrusted',
  'clouddevice/payment-sync-encrypted-success.json': 'untrusted',
  'clouddevice/payment-sync-error.json': 'unreachable',
  'clouddevice/payment-sync-forged-success.json': 'untrusted',
  'clouddevice/payment-sync-success.json': 'bill CAPTURED',
  'clouddevice/status-device.json': 'device CARD+QR_CODE twoStep=true void=true',
  'terminal-api/abortPayment/abortPaymentRequest.json': 'request withdrawBill',
  'terminal-api/abortPayment/abortPaymentResponse.json': 'bill WITHDRAWN',
  'terminal-api/notification/invalidJsonObjectNotificationResponse.json': 'rejected 400',
  'terminal-api/payment/124_paymentNotEnoughBalanceRequest.json': 'request sendBill',
  'terminal-api/payment/124_paymentNotEnoughBalanceResponse.json': 'bill DECLINED: 210 Not enough balance: NOT_ENOUGH_BALANCE (Refusal)',
  'terminal-api/payment/125_paymentCardBlockedRequest.json': 'request sendBill',
  'terminal-api/payment/125_paymentCardBlockedResponse.json': 'bill DECLINED: 199 Card blocked: BLOCK_CARD (Refusal)',
  'terminal-api/payment/126_paymentCardExpiredRequest.json': 'request sendBill',
  'terminal-api/payment/126_paymentCardExpiredResponse.json': 'bill DECLINED: 228 Card expired: CARD_EXPIRED (Refusal)',
  'terminal-api/payment/127_paymentInvalidAmountRequest.json': 'request sendBill',
  'terminal-api/payment/127_paymentInvalidAmountResponse.json': 'bill DECLINED: 214 Declined online: INVALID_AMOUNT (Refusal)',
  'terminal-api/payment/128_paymentInvalidCardRequest.json': 'request sendBill',
  'terminal-api/payment/128_paymentInvalidCardResponse.json': 'bill DECLINED: 214 Declined online: INVALID_CARD (InvalidCard)',
  'terminal-api/payment/134_paymentWrongPinRequest.json': 'request sendBill',
  'terminal-api/payment/134_paymentWrongPinResponse.json': 'bill DECLINED: 129 Invalid online PIN: INVALID_PIN (WrongPIN)',
  'terminal-api/payment/paymentRequest.json': 'request sendBill',
  'terminal-api/payment/paymentResponse.json': 'bill CAPTURED',
  'terminal-api/paymentBusy/paymentBusyResponse.json': 'send DEVICE_BUSY',
  'terminal-api/paymentTransactionStatus/paymentTransactionStatusRequest.json': 'request getBillStatus',
  'terminal-api/paymentTransactionStatus/paymentTransactionStatusResponse.json': 'bill CAPTURED MC 6789',
  'terminal-api/reversal/reversalRequest.json': 'request submitVoid',
  'terminal-api/reversal/reversalResponse.json': 'void CONFIRMED, refund SUCCEEDED',
};

describe('every fixture maps to a port state', () => {
  const files = [...filesUnder('fixtures/terminal-api'), ...filesUnder('fixtures/clouddevice')].map((f) => f.replace(/^fixtures\//, ''));

  it('finds the fixtures (test/fixtures/adyen)', () => {
    expect(files.length).toBeGreaterThanOrEqual(Object.keys(EXPECTED).length);
  });

  it.each(files)('%s', (file) => {
    expect(EXPECTED).toHaveProperty([file]); // a new fixture needs its row here (and in the docs' table)
    expect(outcomeOf(read(`fixtures/${file}`))).toBe(EXPECTED[file]);
  });

  it('reads a captured payment completely: brand, last 4, amount, when', () => {
    const json = read('fixtures/clouddevice/payment-sync-success.json') as CloudDeviceApiResponse;
    const pair = pairOf(json.SaleToPOIResponse!.MessageHeader);
    expect(paymentAnswerOf(json, pair, 'pay_1')).toEqual({
      acquirerRef: 'pay_1',
      state: 'CAPTURED',
      paymentMethod: 'CARD',
      cardBrand: 'MC',
      last4: '1111',
      decidedAt: '2019-04-29T09:19:51.000Z',
      authorizedAmount: '1.00',
      capturedAmount: '1.00',
    });
    // The same approval of a pre-authorisation is held, not paid.
    expect(paymentAnswerOf(json, pair, billRefOf({ paymentId: 'pay_1', twoStep: true })).state).toBe('AUTHORIZED');
  });

  it("refuses another pair's answer and a success that proves nothing", () => {
    const json = read('fixtures/clouddevice/payment-sync-success.json') as CloudDeviceApiResponse;
    expect(() => paymentAnswerOf(json, { saleId: SALE_ID, serviceId: 'other' }, 'pay_1')).toThrow(UntrustedAnswerError);
    const forged = read('fixtures/clouddevice/payment-sync-forged-success.json') as CloudDeviceApiResponse;
    expect(() => paymentAnswerOf(forged, pairOf(forged.SaleToPOIResponse!.MessageHeader), 'pay_1')).toThrow(UntrustedAnswerError);
    const asyncForged = read('fixtures/clouddevice/payment-async-forged-success.json') as CloudDeviceApiResponse;
    expect(() => sendBillResultOf(asyncForged, 'pay_1')).toThrow(UntrustedAnswerError);
  });
});

// ---------------------------------------------------------------------------------------------
// What we send: valid Terminal API messages.

const doc = read('openapi/TerminalAPI-v1.json') as object;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(doc, 'terminal-api');
const validateRequest = ajv.getSchema('terminal-api#/components/schemas/SaleToPOIRequest')!;

/** As it goes on the wire (Dates as ISO strings), then against the document's SaleToPOIRequest. */
function expectValid(message: CloudDeviceApiRequest): Record<string, unknown> {
  const wire = JSON.parse(JSON.stringify(message)) as { SaleToPOIRequest: Record<string, unknown> };
  const ok = validateRequest(wire.SaleToPOIRequest);
  expect(ajv.errorsText(validateRequest.errors)).toBe('No errors');
  expect(ok).toBe(true);
  return wire.SaleToPOIRequest;
}

const bill = (changes: Partial<SendBillRequest> = {}): SendBillRequest => ({
  deviceId: 'V400m-123456789',
  paymentId: 'pay_01JABCDEF',
  pspReference: 'PSP-2026-000123',
  amount: '12.34',
  currency: 'EUR',
  reference: 'order 42',
  modes: ['CARD'],
  timeoutSeconds: 120,
  ...changes,
});
const NOW = new Date('2026-11-25T12:00:00.000Z');
const ORIGINAL = { TransactionID: 'v4W5001707426906003.RM4ZVZ7LFTGLNK82', TimeStamp: new Date('2026-11-25T12:01:00.000Z') };

describe('requests', () => {
  it('the schema check refuses what Adyen would (ServiceID over 10 characters, as in the mock terminal)', () => {
    const fixture = read('fixtures/terminal-api/payment/paymentRequest.json') as { SaleToPOIRequest: object };
    expect(validateRequest(fixture.SaleToPOIRequest)).toBe(false);
  });

  it('PaymentRequest: header, our ids, the exact amount; a retry is the same message', () => {
    const message = expectValid(paymentRequestOf(bill(), NOW));
    expect(message.MessageHeader).toEqual({
      ProtocolVersion: '3.0',
      MessageClass: 'Service',
      MessageCategory: 'Payment',
      MessageType: 'Request',
      ServiceID: serviceIdOf('payment', 'pay_01JABCDEF'),
      SaleID: SALE_ID,
      POIID: 'V400m-123456789',
    });
    expect(message.PaymentRequest).toMatchObject({
      SaleData: { SaleTransactionID: { TransactionID: 'pay_01JABCDEF', TimeStamp: NOW.toISOString() }, SaleReferenceID: 'PSP-2026-000123' },
      PaymentTransaction: { AmountsReq: { Currency: 'EUR', RequestedAmount: 12.34 } },
    });
    expect(paymentRequestOf(bill(), NOW)).toEqual(paymentRequestOf(bill(), NOW));
  });

  it('two-step: a pre-authorisation (SaleToAcquirerData authorisationType=PreAuth); one-step: none', () => {
    const data = (b: SendBillRequest) => SaleToAcquirerDataParser.parse(paymentRequestOf(b, NOW).SaleToPOIRequest.PaymentRequest!.SaleData.SaleToAcquirerData!);
    expect(data(bill({ twoStep: true }))).toMatchObject({ authorisationType: 'PreAuth', metadata: { ispPaymentId: 'pay_01JABCDEF' } });
    expect(data(bill())).not.toHaveProperty('authorisationType');
    expectValid(paymentRequestOf(bill({ twoStep: true, receipt: { cashierId: 'c-7' } }), NOW));
    expect(acquirerRefOf(bill({ twoStep: true }))).toBe('pay_01JABCDEF:preauth');
    expect(parseBillRef('pay_01JABCDEF:preauth')).toEqual({ paymentId: 'pay_01JABCDEF', twoStep: true });
  });

  it('partial authorisation: the tender option AllowPartialAuthorisation in SaleToAcquirerData when allowed; none otherwise', () => {
    const data = (b: SendBillRequest) => SaleToAcquirerDataParser.parse(paymentRequestOf(b, NOW).SaleToPOIRequest.PaymentRequest!.SaleData.SaleToAcquirerData!);
    expect(data(bill({ allowPartialAuthorisation: true }))).toMatchObject({ tenderOption: 'AllowPartialAuthorisation' });
    expect(data(bill({ allowPartialAuthorisation: true, twoStep: true }))).toMatchObject({
      tenderOption: 'AllowPartialAuthorisation',
      authorisationType: 'PreAuth',
    });
    expect(data(bill())).not.toHaveProperty('tenderOption');
    expect(data(bill({ allowPartialAuthorisation: false }))).not.toHaveProperty('tenderOption');
    expectValid(paymentRequestOf(bill({ allowPartialAuthorisation: true }), NOW));
  });

  it('partial authorisation: an approval for less than asked reads the AuthorizedAmount as approved (and captured, one-step)', () => {
    const json = read('fixtures/clouddevice/payment-sync-success.json') as CloudDeviceApiResponse;
    json.SaleToPOIResponse!.PaymentResponse!.PaymentResult!.AmountsResp = { AuthorizedAmount: 0.4, Currency: 'EUR' };
    const pair = pairOf(json.SaleToPOIResponse!.MessageHeader);
    expect(paymentAnswerOf(json, pair, 'pay_1')).toMatchObject({ state: 'CAPTURED', authorizedAmount: '0.40', capturedAmount: '0.40' });
    const held = paymentAnswerOf(json, pair, billRefOf({ paymentId: 'pay_1', twoStep: true }));
    expect(held).toMatchObject({ state: 'AUTHORIZED', authorizedAmount: '0.40' });
    expect(held).not.toHaveProperty('capturedAmount');
  });

  it('partial authorisation: Result Partial ("partially approved", Adyen) is an approval of the AuthorizedAmount, never a refusal or an error', () => {
    const json = read('fixtures/clouddevice/payment-sync-success.json') as CloudDeviceApiResponse;
    const payment = json.SaleToPOIResponse!.PaymentResponse!;
    payment.Response.Result = 'Partial' as never;
    payment.PaymentResult!.AmountsResp = { AuthorizedAmount: 25, Currency: 'EUR' };
    const pair = pairOf(json.SaleToPOIResponse!.MessageHeader);
    const paid = paymentAnswerOf(json, pair, 'pay_1');
    expect(paid).toMatchObject({ state: 'CAPTURED', authorizedAmount: '25.00', capturedAmount: '25.00' });
    expect(paid).not.toHaveProperty('errorMessage');
    expect(paymentAnswerOf(json, pair, billRefOf({ paymentId: 'pay_1', twoStep: true }))).toMatchObject({ state: 'AUTHORIZED', authorizedAmount: '25.00' });
    // a status read finds the same, and the partially approved payment is the one a void or refund reverses
    const found: StatusRead = { found: 'payment', payment };
    expect(billStatusOfRead(found, 'pay_1')).toMatchObject({ state: 'CAPTURED', authorizedAmount: '25.00' });
    expect(reversibleTransactionOf(found)).toBe(payment.POIData!.POITransactionID);
    // a partial approval that names no amount, no currency or nothing approved proves nothing: not believed (read again)
    for (const amounts of [{ AuthorizedAmount: 25 }, { AuthorizedAmount: 0, Currency: 'EUR' }]) {
      payment.PaymentResult!.AmountsResp = amounts as never;
      expect(() => paymentAnswerOf(json, pair, 'pay_1')).toThrow(UntrustedAnswerError);
    }
    delete (payment.PaymentResult as { AmountsResp?: unknown }).AmountsResp;
    expect(() => paymentAnswerOf(json, pair, 'pay_1')).toThrow(UntrustedAnswerError);
  });

  it('TransactionStatusRequest names the original SaleID/ServiceID in a pair of its own', () => {
    const readId = readServiceIdOf('seed');
    const message = expectValid(transactionStatusRequestOf('V400m-123456789', paymentMessageOf('pay_01JABCDEF'), readId));
    expect(message.MessageHeader).toMatchObject({ MessageCategory: 'TransactionStatus', ServiceID: readId });
    expect(message.TransactionStatusRequest).toMatchObject({
      MessageReference: { MessageCategory: 'Payment', SaleID: SALE_ID, ServiceID: serviceIdOf('payment', 'pay_01JABCDEF') },
    });
    expectValid(transactionStatusRequestOf('V400m-123456789', voidMessageOf('void-1'), readId));
    expectValid(transactionStatusRequestOf('V400m-123456789', refundMessageOf('refund-1'), readId));
  });

  it('AbortRequest names the payment; its own pair is derived too', () => {
    const message = expectValid(abortRequestOf('V400m-123456789', 'pay_01JABCDEF:preauth'));
    expect(message.AbortRequest).toEqual({
      MessageReference: { MessageCategory: 'Payment', SaleID: SALE_ID, ServiceID: serviceIdOf('payment', 'pay_01JABCDEF') },
      AbortReason: 'MerchantAbort',
    });
    expect((message.MessageHeader as { ServiceID: string }).ServiceID).toBe(serviceIdOf('abort', 'pay_01JABCDEF'));
  });

  it('ReversalRequest: the whole payment (void) without an amount, a referenced refund with ReversedAmount and its currency', () => {
    const voided = expectValid(reversalRequestOf('V400m-123456789', ORIGINAL, { kind: 'void', voidReference: 'VOID-1' }, NOW));
    expect(voided.ReversalRequest).toEqual({
      OriginalPOITransaction: { POITransactionID: { TransactionID: ORIGINAL.TransactionID, TimeStamp: ORIGINAL.TimeStamp.toISOString() } },
      ReversalReason: 'MerchantCancel',
      SaleData: { SaleTransactionID: { TransactionID: 'VOID-1', TimeStamp: NOW.toISOString() } },
    });
    const refunded = expectValid(
      reversalRequestOf('V400m-123456789', ORIGINAL, { kind: 'refund', refundReference: 'REF-1', amount: '5.5', currency: 'EUR' }, NOW),
    );
    // Adyen's partial referenced refund: ReversedAmount, and the currency in SaleData.SaleToAcquirerData ("currency=EUR").
    expect(refunded.ReversalRequest).toEqual({
      OriginalPOITransaction: { POITransactionID: { TransactionID: ORIGINAL.TransactionID, TimeStamp: ORIGINAL.TimeStamp.toISOString() } },
      ReversalReason: 'MerchantCancel',
      SaleData: { SaleTransactionID: { TransactionID: 'REF-1', TimeStamp: NOW.toISOString() }, SaleToAcquirerData: 'currency=EUR' },
      ReversedAmount: 5.5,
    });
    expect((refunded.MessageHeader as { ServiceID: string }).ServiceID).toBe(serviceIdOf('refund', 'REF-1'));
    const jpy = reversalRequestOf('V400m-123456789', ORIGINAL, { kind: 'refund', refundReference: 'REF-2', amount: '300', currency: 'jpy' }, NOW);
    expect(jpy.SaleToPOIRequest.ReversalRequest?.SaleData?.SaleToAcquirerData).toBe('currency=JPY');
  });

  it('ServiceIDs: 10 alphanumeric characters, the same for the same id, different across kinds', () => {
    for (const id of ['pay_1', 'pay_2', 'x'.repeat(200)]) expect(serviceIdOf('payment', id)).toMatch(/^[0-9A-Za-z]{10}$/);
    expect(serviceIdOf('payment', 'pay_1')).toBe(serviceIdOf('payment', 'pay_1'));
    expect(new Set(['payment', 'abort', 'void', 'refund'].map((k) => serviceIdOf(k as 'payment', 'pay_1'))).size).toBe(4);
  });

  it('amounts are exact both ways, by the currency', () => {
    expect(toAdyenAmount('12.34', 'EUR')).toBe(12.34);
    expect(toAdyenAmount('1500', 'JPY')).toBe(1500);
    expect(toAdyenAmount('19999999.99', 'EUR')).toBe(19999999.99);
    expect(() => toAdyenAmount('1.234', 'EUR')).toThrow(/decimals/);
    expect(fromAdyenAmount(1, 'EUR')).toBe('1.00');
    expect(fromAdyenAmount(10.99, 'EUR')).toBe('10.99');
  });
});

// ---------------------------------------------------------------------------------------------
// Status reads and the adapter's plumbing.

const statusAnswer = (read: Pair, body: object): CloudDeviceApiResponse =>
  ({ SaleToPOIResponse: { MessageHeader: { SaleID: read.saleId, ServiceID: read.serviceId }, TransactionStatusResponse: body } }) as never;

describe('status reads', () => {
  const readPair = { saleId: SALE_ID, serviceId: 'R123456789' };
  const original = paymentMessageOf('pay_1');

  it('InProgress is WAITING; NotFound is WAITING (after an ok) or WITHDRAWN (after an abort), and nothing to send again', () => {
    const inProgress = statusReadOf(statusAnswer(readPair, { Response: { Result: 'Failure', ErrorCondition: 'InProgress' } }), readPair, original);
    expect(billStatusOfRead(inProgress, 'pay_1').state).toBe('WAITING');
    expect(priorSendOf(inProgress, 'pay_1')).toEqual({ outcome: 'ON_DEVICE', acquirerRef: 'pay_1' });
    const nothing = statusReadOf(statusAnswer(readPair, { Response: { Result: 'Failure', ErrorCondition: 'NotFound' } }), readPair, original);
    expect(billStatusOfRead(nothing, 'pay_1').state).toBe('WAITING');
    expect(billStatusOfRead(nothing, 'pay_1', true).state).toBe('WITHDRAWN');
    expect(priorSendOf(nothing, 'pay_1')).toBeNull();
  });

  it('a terminal Adyen cannot reach is unknown (retry), never a state', () => {
    const answer = statusAnswer(readPair, { Response: { Result: 'Failure', ErrorCondition: 'UnreachableHost' } });
    expect(() => statusReadOf(answer, readPair, original)).toThrow(AcquirerUnreachableError);
  });

  it('a customer cancelling on the terminal is CANCELLED; our abort WITHDRAWN; Busy an ERROR after placement', () => {
    const payment = (condition: string) =>
      statusReadOf(
        statusAnswer(readPair, {
          Response: { Result: 'Success' },
          RepeatedMessageResponse: {
            MessageHeader: { SaleID: SALE_ID, ServiceID: original.serviceId },
            RepeatedResponseMessageBody: {
              PaymentResponse: { Response: { Result: 'Failure', ErrorCondition: condition, AdditionalResponse: 'message=said' } },
            },
          },
        }),
        readPair,
        original,
      );
    expect(billStatusOfRead(payment('Cancel'), 'pay_1').state).toBe('CANCELLED');
    expect(billStatusOfRead(payment('Aborted'), 'pay_1').state).toBe('WITHDRAWN');
    expect(billStatusOfRead(payment('Busy'), 'pay_1')).toMatchObject({ state: 'ERROR', errorMessage: 'said (Busy)' });
    expect(priorSendOf(payment('Busy'), 'pay_1')).toEqual({ outcome: 'DEVICE_BUSY', currentReference: null });
  });

  it("Adyen's own words, decoded", () => {
    expect(wordsOf({ Result: 'Failure', ErrorCondition: 'Refusal', AdditionalResponse: 'refusalReason=210%20Not%20enough%20balance' } as never)).toBe(
      '210 Not enough balance (Refusal)',
    );
    expect(wordsOf({ Result: 'Failure', ErrorCondition: 'Busy', AdditionalResponse: '.*' } as never)).toBe('Busy');
  });
});

describe('transport and errors', () => {
  it("ADYEN_API_BASE swaps the origin and keeps Adyen's path", () => {
    const url = 'https://device-api-test.adyen.com/v1/merchants/MID/devices/V400m-1/sync';
    expect(rebase(url, 'http://127.0.0.1:4010').toString()).toBe('http://127.0.0.1:4010/v1/merchants/MID/devices/V400m-1/sync');
    expect(rebase(url, 'http://127.0.0.1:4010/adyen/').toString()).toBe('http://127.0.0.1:4010/adyen/v1/merchants/MID/devices/V400m-1/sync');
  });

  it('no answer or a 5xx is unreachable, a 4xx a refusal; the API key never appears', () => {
    const key = 'AQEyhmfxSECRETKEY1234';
    const { HttpClientException } = jest.requireActual('@adyen/api-library');
    const refused = translate(new HttpClientException({ message: 'x', statusCode: 401, responseBody: `bad key ${key}` }), 'read', key);
    expect(refused).toBeInstanceOf(AcquirerRejectedError);
    expect(refused.message).not.toContain(key);
    expect(refused.message).toContain('••••1234');
    expect(translate(new HttpClientException({ message: 'x', statusCode: 503 }), 'read', key)).toBeInstanceOf(AcquirerUnreachableError);
    expect(translate(new Error(`socket hang up ${key}`), 'read', key).message).not.toContain(key);
  });
});
