import fs from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { PaymentCancelResponse, PaymentCaptureResponse } from '@adyen/api-library/lib/src/typings/checkout/models';
import type { PaymentResponse } from '@adyen/api-library/lib/src/typings/tapi/models';
import { AcquirerRejectedError } from '../../../src/acquirer/port';
import { type StatusRead, UntrustedAnswerError } from '../../../src/acquirer/adyen/mapping';
import {
  cancelRequestOf,
  captureRequestOf,
  capturedBillOf,
  fromMinorUnits,
  preAuthorisationOf,
  pspReferenceOf,
  releaseReferenceOf,
  releasedBillOf,
  toMinorUnits,
} from '../../../src/acquirer/adyen/modifications';
import { rebase } from '../../../src/acquirer/adyen/transport';

/**
 * Two-step payments at Adyen (docs/acquirers.md, "Adyen Terminal API (cloud)"): the pre-authorisation
 * read at the terminal (Adyen's own paymentResponse.json), the capture and cancel requests we build
 * (validated against CheckoutService-v72.json), and their `received` answers as the port's states.
 */
const ADYEN = path.resolve(__dirname, '../../fixtures/adyen');
const read = <T>(file: string): T => JSON.parse(fs.readFileSync(path.join(ADYEN, file), 'utf8')) as T;

const checkout = read<any>('openapi/CheckoutService-v72.json');
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
ajv.addFormat('int32', { type: 'number', validate: Number.isInteger });
ajv.addFormat('int64', { type: 'number', validate: Number.isSafeInteger });
ajv.addSchema({ $id: 'checkout', components: checkout.components });
const schemaOf = (name: string) => ajv.compile({ $ref: `checkout#/components/schemas/${name}` });

/** Adyen's approved paymentResponse.json, its AdditionalResponse filled as a real answer has it. */
function approvedPayment(additional = 'pspReference=RM4ZVZ7LFTGLNK82&merchantReference=pay_1'): PaymentResponse {
  const payment = read<any>('fixtures/terminal-api/payment/paymentResponse.json').SaleToPOIResponse.PaymentResponse;
  payment.Response.AdditionalResponse = additional;
  payment.PaymentResult.PaymentInstrumentData.CardData = { PaymentBrand: 'visa', MaskedPan: '411111 **** 1111' };
  return payment as PaymentResponse;
}
const PREAUTH = 'pay_1:preauth';
const readOf = (payment: PaymentResponse): StatusRead => ({ found: 'payment', payment });

describe('amounts in minor units, by the currency exponent', () => {
  it.each([
    ['12.34', 'EUR', 1234, '12.34'],
    ['0.01', 'EUR', 1, '0.01'],
    ['30', 'GBP', 3000, '30.00'],
    ['500', 'JPY', 500, '500'],
  ])('%s %s is %d, and back %s', (amount, currency, minor, back) => {
    expect(toMinorUnits(amount, currency)).toBe(minor);
    expect(fromMinorUnits(minor, currency)).toBe(back);
  });
  it('more decimals than the currency has, or an unknown currency, is refused', () => {
    expect(() => toMinorUnits('1.234', 'EUR')).toThrow(RangeError);
    expect(() => toMinorUnits('1.5', 'JPY')).toThrow(RangeError);
    expect(() => toMinorUnits('1', 'XXX')).toThrow(RangeError);
  });
});

describe("the pre-authorisation's pspReference", () => {
  it('is the POI TransactionID after its tender reference, as AdditionalResponse repeats it', () => {
    expect(pspReferenceOf(approvedPayment())).toBe('RM4ZVZ7LFTGLNK82');
    expect(pspReferenceOf(approvedPayment('merchantReference=pay_1'))).toBe('RM4ZVZ7LFTGLNK82');
  });
  it('two that disagree, or none, are not believed', () => {
    expect(() => pspReferenceOf(approvedPayment('pspReference=OTHERPSP00000000'))).toThrow(UntrustedAnswerError);
    const bare = approvedPayment('');
    bare.POIData.POITransactionID.TransactionID = 'v4W5001707426906003';
    expect(() => pspReferenceOf(bare)).toThrow(UntrustedAnswerError);
  });
});

describe('what a modification needs of the bill', () => {
  it('an approved pre-authorisation: its pspReference, currency and the AUTHORIZED bill with its card', () => {
    expect(preAuthorisationOf(readOf(approvedPayment()), PREAUTH)).toEqual({
      pspReference: 'RM4ZVZ7LFTGLNK82',
      currency: 'EUR',
      bill: expect.objectContaining({ acquirerRef: PREAUTH, state: 'AUTHORIZED', cardBrand: 'VISA', last4: '1111' }),
    });
  });
  it('a one-step bill, nothing at the terminal, a payment still waiting or declined: 409 with Adyen words, nothing to modify', () => {
    const refused = (r: StatusRead, ref = PREAUTH) => {
      try {
        preAuthorisationOf(r, ref);
      } catch (err) {
        expect(err).toBeInstanceOf(AcquirerRejectedError);
        return (err as AcquirerRejectedError).status;
      }
      throw new Error('not refused');
    };
    expect(refused(readOf(approvedPayment()), 'pay_1')).toBe(409);
    expect(refused({ found: 'nothing', words: 'NotFound' })).toBe(409);
    expect(refused({ found: 'in-progress' })).toBe(409);
    const declined = read<any>('fixtures/terminal-api/payment/124_paymentNotEnoughBalanceResponse.json').SaleToPOIResponse.PaymentResponse;
    expect(refused(readOf(declined))).toBe(409);
  });
});

describe('the capture and cancel requests, valid for CheckoutService-v72.json', () => {
  const preAuth = preAuthorisationOf(readOf(approvedPayment()), PREAUTH);
  it('capture: the amount in minor units, our captureReference as reference', () => {
    const request = captureRequestOf('ShopMID', preAuth, '7.25', 'CAPTURE-PSP1');
    expect(request).toEqual({ merchantAccount: 'ShopMID', amount: { value: 725, currency: 'EUR' }, reference: 'CAPTURE-PSP1' });
    const valid = schemaOf('PaymentCaptureRequest');
    expect([valid(request), valid.errors]).toEqual([true, null]);
  });
  it('cancel: RELEASE-<paymentId> as reference, the same for every retry', () => {
    const request = cancelRequestOf('ShopMID', PREAUTH);
    expect(request).toEqual({ merchantAccount: 'ShopMID', reference: 'RELEASE-pay_1' });
    expect(releaseReferenceOf(PREAUTH)).toBe('RELEASE-pay_1');
    const valid = schemaOf('PaymentCancelRequest');
    expect([valid(request), valid.errors]).toEqual([true, null]);
  });
});

describe("Adyen's answers as the bill", () => {
  const preAuth = preAuthorisationOf(readOf(approvedPayment()), PREAUTH);
  const now = new Date('2026-11-26T10:00:00Z');
  const captured = (over: Partial<PaymentCaptureResponse> = {}) =>
    ({
      merchantAccount: 'ShopMID',
      paymentPspReference: 'RM4ZVZ7LFTGLNK82',
      pspReference: 'CAPTUREPSP000001',
      reference: 'CAPTURE-PSP1',
      status: 'received',
      amount: { value: 725, currency: 'EUR' },
      ...over,
    }) as PaymentCaptureResponse;

  it('capture received (a valid PaymentCaptureResponse): CAPTURED for the amount Adyen names, with the card', () => {
    const valid = schemaOf('PaymentCaptureResponse');
    expect(valid(captured())).toBe(true);
    expect(capturedBillOf(captured(), preAuth, 'CAPTURE-PSP1', now)).toEqual({
      ...preAuth.bill,
      state: 'CAPTURED',
      capturedAmount: '7.25',
      capturedAt: '2026-11-26T10:00:00.000Z',
    });
  });
  it('cancel received (a valid PaymentCancelResponse): RELEASED', () => {
    const answer = {
      merchantAccount: 'ShopMID',
      paymentPspReference: 'RM4ZVZ7LFTGLNK82',
      pspReference: 'CANCELPSP0000001',
      reference: 'RELEASE-pay_1',
      status: 'received',
    };
    expect(schemaOf('PaymentCancelResponse')(answer)).toBe(true);
    expect(releasedBillOf(answer as PaymentCancelResponse, preAuth, PREAUTH, now)).toMatchObject({
      acquirerRef: PREAUTH,
      state: 'RELEASED',
      cardBrand: 'VISA',
    });
  });
  it('an answer for another payment or reference, another currency, or not received, is not believed', () => {
    for (const wrong of [
      captured({ paymentPspReference: 'SOMEONEELSE00000' }),
      captured({ reference: 'CAPTURE-OTHER' }),
      captured({ amount: { value: 725, currency: 'USD' } }),
      captured({ status: 'refused' as never }),
    ]) {
      expect(() => capturedBillOf(wrong, preAuth, 'CAPTURE-PSP1', now)).toThrow(UntrustedAnswerError);
    }
  });
});

describe('ADYEN_API_BASE routes Checkout too', () => {
  it("the TEST host's /v72 path and a LIVE prefixed host's /checkout/v72 path keep Adyen's path on the base", () => {
    expect(rebase('https://checkout-test.adyen.com/v72/payments/PSP1/captures', 'http://127.0.0.1:4010').toString()).toBe(
      'http://127.0.0.1:4010/v72/payments/PSP1/captures',
    );
    expect(
      rebase('https://1797a841fbb37ca7-AdyenDemo-checkout-live.adyenpayments.com/checkout/v72/payments/PSP1/cancels', 'http://127.0.0.1:4010').toString(),
    ).toBe('http://127.0.0.1:4010/checkout/v72/payments/PSP1/cancels');
  });
});
