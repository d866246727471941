import fs from 'node:fs';
import path from 'node:path';
import type Stripe from 'stripe';
import type { BillState } from '../../../src/acquirer/port';
import {
  META,
  actionFor,
  billStateOf,
  billStatusOf,
  busyWithOther,
  captureParams,
  deviceOf,
  findRefund,
  fromStripeAmount,
  paymentIntentParams,
  refundOutcomeOf,
  refundParams,
  settlementLinesOf,
  settlementPeriodParams,
  toStripeAmount,
  unsupportedModes,
  voidStatusOf,
} from '../../../src/acquirer/stripe/mapping';
import examples from './stripe-examples.json';

/**
 * The Stripe mapping (docs/acquirers.md) against Stripe's own example objects, as stripe-mock ships
 * them (stripe-examples.json, copied by scripts/extract-stripe-fixtures.mjs), varied through every
 * status Stripe's OpenAPI description lists.
 */
const clone = <T>(o: unknown): T => JSON.parse(JSON.stringify(o)) as T;
const examplePi = (changes: Partial<Stripe.PaymentIntent> = {}): Stripe.PaymentIntent => ({
  ...clone<Stripe.PaymentIntent>(examples.objects.payment_intent),
  last_payment_error: null,
  ...changes,
});
const exampleReader = (): Stripe.Terminal.Reader => clone(examples.objects['terminal.reader']);
const exampleCharge = (): Stripe.Charge => clone(examples.objects.charge);
const exampleRefund = (changes: Partial<Stripe.Refund> = {}): Stripe.Refund => ({ ...clone<Stripe.Refund>(examples.objects.refund), ...changes });
const processing = (pi: string, status: Stripe.Terminal.Reader.Action['status'], failure_code: string | null = null): Stripe.Terminal.Reader.Action =>
  ({
    ...exampleReader().action!,
    type: 'process_payment_intent',
    status,
    failure_code,
    failure_message: failure_code ? `reader says ${failure_code}` : null,
    process_payment_intent: { payment_intent: pi },
  }) as Stripe.Terminal.Reader.Action;

describe('amounts', () => {
  it('are exact minor units both ways, by the currency', () => {
    expect(toStripeAmount('12.34', 'EUR')).toBe(1234);
    expect(toStripeAmount('0.1', 'usd')).toBe(10);
    expect(toStripeAmount('1500', 'JPY')).toBe(1500);
    expect(toStripeAmount('19999999.99', 'EUR')).toBe(1999999999);
    expect(fromStripeAmount(1234, 'EUR')).toBe('12.34');
    expect(fromStripeAmount(1500, 'JPY')).toBe('1500');
    expect(() => toStripeAmount('1.234', 'EUR')).toThrow(/decimals/);
  });
});

describe('placing a bill', () => {
  const request = {
    deviceId: 'tmr_1',
    paymentId: 'pay-1',
    pspReference: 'PSP1',
    amount: '12.34',
    currency: 'EUR',
    reference: 'ORDER-7',
    modes: ['CARD' as const],
    timeoutSeconds: 300,
  };

  it('is a card_present PaymentIntent in minor units, automatic capture on a one-step reader', () => {
    expect(paymentIntentParams(request)).toEqual({
      amount: 1234,
      currency: 'eur',
      payment_method_types: ['card_present'],
      capture_method: 'automatic',
      description: 'PSP1 ORDER-7',
      metadata: { [META.paymentId]: 'pay-1', [META.pspReference]: 'PSP1', [META.deviceId]: 'tmr_1', [META.reference]: 'ORDER-7' },
    });
  });

  it('asks for partial authorisation where the payment allows it (card_present request_partial_authorization if_available), never otherwise', () => {
    expect(paymentIntentParams({ ...request, allowPartialAuthorisation: true }).payment_method_options).toEqual({
      card_present: { request_partial_authorization: 'if_available' },
    });
    expect(paymentIntentParams({ ...request, allowPartialAuthorisation: false })).not.toHaveProperty('payment_method_options');
    expect(paymentIntentParams(request)).not.toHaveProperty('payment_method_options');
  });

  it("is manual capture when the bill's terminal is two-step, whatever the reader's metadata says", () => {
    expect(paymentIntentParams({ ...request, twoStep: true }).capture_method).toBe('manual');
    expect(paymentIntentParams({ ...request, twoStep: false }).capture_method).toBe('automatic');
    // The reader's own record does not decide: a reader marked otherwise changes nothing.
    const reader = { ...exampleReader(), metadata: { isp_two_step: 'true' } };
    expect(deviceOf(reader)).toEqual({ deviceId: reader.id, modes: ['CARD'], twoStep: true, voidSupported: true });
    expect(paymentIntentParams({ ...request, twoStep: false }).capture_method).toBe('automatic');
  });

  it('refuses a QR-code-only bill (Stripe readers take cards), accepts a choice that includes cards', () => {
    expect(unsupportedModes(['QR_CODE'])).toEqual({ outcome: 'MODE_UNSUPPORTED', supportedModes: ['CARD'] });
    expect(unsupportedModes(['CARD', 'QR_CODE'])).toBeNull();
  });

  it('finds the reader busy with another payment, naming that bill', () => {
    const other = examplePi({ id: 'pi_other', metadata: { [META.paymentId]: 'pay-2', [META.reference]: 'ORDER-9' } });
    const reader = {
      ...exampleReader(),
      action: { ...processing('x', 'in_progress'), process_payment_intent: { payment_intent: other } },
    } as Stripe.Terminal.Reader;
    expect(busyWithOther(reader, 'pay-1')).toEqual({ currentReference: 'ORDER-9' });
    expect(busyWithOther(reader, 'pay-2')).toBeNull(); // our own bill: a repeated send
    expect(busyWithOther({ ...reader, action: processing('pi_other', 'succeeded') }, 'pay-1')).toBeNull();
    expect(busyWithOther(exampleReader(), 'pay-1')).toBeNull(); // the example's last action failed: idle
  });
});

describe('reading a bill: every PaymentIntent status of Stripe OpenAPI description', () => {
  const expected: Record<string, BillState> = {
    requires_payment_method: 'WAITING',
    requires_confirmation: 'WAITING',
    requires_action: 'WAITING',
    processing: 'WAITING',
    requires_capture: 'AUTHORIZED',
    succeeded: 'CAPTURED',
    canceled: 'WITHDRAWN',
  };

  it('has a mapping for each status Stripe lists, and no other', () => {
    expect(Object.keys(expected).sort()).toEqual([...examples.enums.payment_intent_status].sort());
  });

  it.each(examples.enums.payment_intent_status)('%s', (status) => {
    const pi = examplePi({ status: status as Stripe.PaymentIntent.Status });
    expect(billStateOf(pi, null)).toBe(expected[status]);
    expect(billStateOf(pi, processing(pi.id, 'in_progress'))).toBe(expected[status]);
  });

  it('the reader action failing decides a waiting bill: customer cancel, decline, reader error', () => {
    const pi = examplePi();
    expect(billStateOf(pi, processing(pi.id, 'failed', 'customer_canceled'))).toBe('CANCELLED');
    expect(billStateOf(pi, processing(pi.id, 'failed', 'card_declined'))).toBe('DECLINED');
    const error = billStatusOf(pi, processing(pi.id, 'failed', 'terminal_reader_hardware_fault'));
    expect(error).toEqual({ acquirerRef: pi.id, state: 'ERROR', errorMessage: 'reader says terminal_reader_hardware_fault' });
    // A PaymentIntent cancelled after the customer cancelled on the reader stays the customer's cancel.
    expect(billStateOf(examplePi({ status: 'canceled' }), processing(pi.id, 'failed', 'customer_canceled'))).toBe('CANCELLED');
  });

  it('a cancelled PaymentIntent: released at our request (or lapsed) is RELEASED, withdrawn is WITHDRAWN', () => {
    expect(billStateOf(examplePi({ status: 'canceled', cancellation_reason: 'requested_by_customer' }), null)).toBe('RELEASED');
    expect(billStateOf(examplePi({ status: 'canceled', cancellation_reason: 'expired' }), null)).toBe('RELEASED');
    expect(billStateOf(examplePi({ status: 'canceled', cancellation_reason: 'abandoned' }), null)).toBe('WITHDRAWN');
  });

  it('a decline recorded on the PaymentIntent alone is DECLINED; the example object (an API error) is ERROR', () => {
    const declined = examplePi({
      last_payment_error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' } as Stripe.PaymentIntent.LastPaymentError,
    });
    expect(billStatusOf(declined, null)).toMatchObject({ state: 'DECLINED', errorMessage: 'Your card was declined.' });
    expect(billStateOf(clone<Stripe.PaymentIntent>(examples.objects.payment_intent), null)).toBe('ERROR');
  });

  it('a captured bill carries the card from its charge and when it was decided', () => {
    const charge = exampleCharge();
    charge.payment_method_details = { type: 'card_present', card_present: { brand: 'visa', last4: '4242' } } as Stripe.Charge.PaymentMethodDetails;
    const status = billStatusOf(examplePi({ status: 'succeeded', latest_charge: charge }), null);
    expect(status).toEqual({
      acquirerRef: examples.objects.payment_intent.id,
      state: 'CAPTURED',
      paymentMethod: 'CARD',
      cardBrand: 'VISA',
      last4: '4242',
      decidedAt: new Date(charge.created * 1000).toISOString(),
    });
  });

  it("a partly approved bill carries what the card approved (the charge's card_present.amount_authorized)", () => {
    const charge = exampleCharge();
    charge.currency = 'eur';
    charge.payment_method_details = {
      type: 'card_present',
      card_present: { brand: 'visa', last4: '4242', amount_authorized: 2500 },
    } as Stripe.Charge.PaymentMethodDetails;
    expect(billStatusOf(examplePi({ status: 'requires_capture', latest_charge: charge }), null)).toMatchObject({
      state: 'AUTHORIZED',
      authorizedAmount: '25.00',
    });
    expect(billStatusOf(examplePi({ status: 'succeeded', latest_charge: charge }), null)).toMatchObject({ state: 'CAPTURED', authorizedAmount: '25.00' });
  });

  it("a tip added on the reader is read from the PaymentIntent's amount_details.tip.amount (docs/tips.md); none or 0 is no tip", () => {
    const charge = exampleCharge();
    charge.currency = 'eur';
    charge.payment_method_details = {
      type: 'card_present',
      card_present: { brand: 'visa', last4: '4242', amount_authorized: 4600 },
    } as Stripe.Charge.PaymentMethodDetails;
    const tipped = examplePi({
      status: 'succeeded',
      amount: 4600,
      latest_charge: charge,
      amount_details: { tip: { amount: 600 } },
    } as Partial<Stripe.PaymentIntent>);
    expect(billStatusOf(tipped, null)).toMatchObject({ state: 'CAPTURED', authorizedAmount: '46.00', tipAmount: '6.00' });
    const untipped = examplePi({ status: 'succeeded', latest_charge: charge, amount_details: { tip: { amount: 0 } } } as Partial<Stripe.PaymentIntent>);
    expect(billStatusOf(untipped, null)).not.toHaveProperty('tipAmount');
  });

  it('a tip the POS knows is inside the PaymentIntent amount, named in its metadata', () => {
    const params = paymentIntentParams({
      deviceId: 'tmr_1',
      paymentId: 'p',
      pspReference: 'PSP',
      amount: '40.00',
      currency: 'EUR',
      tipAmount: '6',
      modes: ['CARD'],
      timeoutSeconds: 60,
    });
    expect(params).toMatchObject({ amount: 4600, metadata: { [META.tipAmount]: '6' } });
  });

  it('an action of another PaymentIntent says nothing about this bill', () => {
    const pi = examplePi();
    const reader = { ...exampleReader(), action: processing('pi_other', 'failed', 'card_declined') };
    expect(actionFor(reader, pi.id)).toBeNull();
    expect(billStateOf(pi, actionFor(reader, pi.id))).toBe('WAITING');
    expect(actionFor(reader, 'pi_other')?.failure_code).toBe('card_declined');
  });
});

describe('voids and refunds: every refund status', () => {
  const outcome: Record<string, string> = { pending: 'PENDING', requires_action: 'PENDING', succeeded: 'SUCCEEDED', failed: 'FAILED', canceled: 'FAILED' };
  const voidState: Record<string, string> = {
    pending: 'PENDING',
    requires_action: 'PENDING',
    succeeded: 'CONFIRMED',
    failed: 'REJECTED',
    canceled: 'REJECTED',
  };

  it('covers each status Stripe documents for a refund', () => {
    for (const s of examples.enums.refund_status) expect(examples.enums.refund_status_description).toContain(`\`${s}\``);
    expect(Object.keys(outcome).sort()).toEqual([...examples.enums.refund_status].sort());
  });

  it.each(examples.enums.refund_status)('%s', (status) => {
    const refund = exampleRefund({ status, failure_reason: status === 'failed' ? 'expired_or_canceled_card' : undefined });
    expect(refundOutcomeOf(refund)).toBe(outcome[status]);
    expect(voidStatusOf(refund, 'VOID-1').state).toBe(voidState[status]);
  });

  it("a refund carries its stable reference, found again among the payment's refunds", () => {
    expect(refundParams('pi_1', 'REFUND-abc', '2.50', 'EUR', 'tmr_1')).toEqual({
      payment_intent: 'pi_1',
      amount: 250,
      reason: 'requested_by_customer',
      metadata: { [META.refundReference]: 'REFUND-abc', [META.deviceId]: 'tmr_1' },
    });
    // The reader in its metadata is what puts the refund's balance transaction in that reader's close.
    const txn = { ...clone<Stripe.BalanceTransaction>(examples.objects.balance_transaction), type: 'refund', amount: -250, fee: 0, net: -250 };
    const source = { ...exampleRefund(), metadata: refundParams('pi_1', 'REFUND-abc', '2.50', 'EUR', 'tmr_1').metadata };
    expect(settlementLinesOf([{ ...txn, source } as Stripe.BalanceTransaction])[0]).toMatchObject({
      type: 'REFUND',
      deviceId: 'tmr_1',
      refundReference: 'REFUND-abc',
    });
    const ours = exampleRefund({ id: 're_ours', metadata: { [META.refundReference]: 'REFUND-abc' } });
    expect(findRefund([exampleRefund(), ours], META.refundReference, 'REFUND-abc')).toBe(ours);
    expect(findRefund([exampleRefund()], META.refundReference, 'REFUND-abc')).toBeNull();
  });

  it('completing an authorisation captures all of it, or the amount given', () => {
    expect(captureParams(undefined, 'EUR')).toEqual({});
    expect(captureParams('7.5', 'EUR')).toEqual({ amount_to_capture: 750 });
  });
});

describe('the settlement report', () => {
  it("turns a payout's balance transactions into payment and refund lines with fees, skipping the rest", () => {
    const txn = clone<Stripe.BalanceTransaction>(examples.objects.balance_transaction);
    const charge = exampleCharge();
    charge.payment_intent = 'pi_paid';
    charge.payment_method_details = { type: 'card_present', card_present: { reader: 'tmr_1' } } as Stripe.Charge.PaymentMethodDetails;
    const payment = { ...txn, amount: 1234, fee: 27, net: 1207, source: charge } as Stripe.BalanceTransaction;
    const refund = {
      ...txn,
      type: 'refund',
      amount: -500,
      fee: 0,
      net: -500,
      source: exampleRefund({ payment_intent: 'pi_paid', metadata: { [META.deviceId]: 'tmr_1' } }),
    } as Stripe.BalanceTransaction;
    const payout = { ...txn, type: 'payout', amount: -1000, fee: 0, net: -1000 } as Stripe.BalanceTransaction;
    const lines = settlementLinesOf([payment, refund, payout]);
    expect(lines).toEqual([
      {
        type: 'PAYMENT',
        acquirerRef: 'pi_paid',
        deviceId: 'tmr_1',
        amount: '12.34',
        feeAmount: '0.27',
        netAmount: '12.07',
        currency: 'USD',
        occurredAt: new Date(txn.created * 1000).toISOString(),
      },
      {
        type: 'REFUND',
        acquirerRef: 'pi_paid',
        deviceId: 'tmr_1',
        amount: '5.00',
        feeAmount: '0.00',
        netAmount: '-5.00',
        currency: 'USD',
        occurredAt: new Date(txn.created * 1000).toISOString(),
      },
    ]);
  });

  it("reads Stripe's example balance transaction (a charge whose source is not expanded)", () => {
    expect(settlementLinesOf([clone(examples.objects.balance_transaction)])).toEqual([
      {
        type: 'PAYMENT',
        acquirerRef: null,
        deviceId: null,
        amount: '1.00',
        feeAmount: '0.00',
        netAmount: '1.00',
        currency: 'USD',
        occurredAt: '2009-02-13T23:31:30.000Z',
      },
    ]);
  });
});

describe('the settlement period', () => {
  it('is exactly after the previous close up to this one, in whole seconds cut the same way', () => {
    const first = settlementPeriodParams('2026-11-23T02:00:00.900Z', '2026-11-22T02:00:00.100Z');
    const next = settlementPeriodParams('2026-11-24T02:00:00.000Z', '2026-11-23T02:00:00.900Z');
    expect(first.created).toEqual({ gt: 1795312800, lte: 1795399200 });
    // The next close starts where this one ended: no second is in both, none in neither.
    expect((next.created as Stripe.RangeQueryParam).gt).toBe((first.created as Stripe.RangeQueryParam).lte);
    expect(settlementPeriodParams('2026-11-23T02:00:00Z', null).created).toEqual({ lte: 1795399200 });
  });
});

describe('docs/acquirers.md', () => {
  it('maps a Stripe state to every two-step, refund and settlement status', () => {
    const docs = fs.readFileSync(path.resolve(__dirname, '../../../docs/acquirers.md'), 'utf8');
    const table = docs.slice(docs.indexOf('### States: what Stripe says'), docs.indexOf('There is no `EXPIRED` bill at Stripe'));
    const statuses = [
      // two-step payments (docs/payments.md, "Two-step completion")
      'AUTHORIZED',
      'CAPTURED',
      'CANCELLED',
      'AUTHORIZATION_EXPIRED',
      'capturedAmount',
      'PAYMENT_CAPTURED',
      'PAYMENT_CANCELLED',
      // refunds (docs/refunds.md)
      'PENDING',
      'SUCCEEDED',
      'FAILED',
      'PARTIALLY_REFUNDED',
      'REFUNDED',
      'PAYMENT_REFUNDED',
      'PAYMENT_REFUND_FAILED',
      // settlement (docs/settlement.md)
      'SETTLED',
      'DISCREPANCY',
      'MISSING_FROM_REPORT',
      'NOT_IN_PLATFORM',
      'AMOUNT_MISMATCH',
      'SETTLEMENT_REPORT',
      'PAYMENT_SETTLED',
    ];
    const rightColumn = table
      .split('\n')
      .filter((l) => l.startsWith('| ') && !l.startsWith('| ---'))
      .map((l) => l.split(' | ').at(-1)!)
      .join('\n');
    expect(statuses.filter((s) => !new RegExp(`(^|[^A-Za-z_])${s}([^A-Za-z_]|$)`).test(rightColumn))).toEqual([]);
  });
});
