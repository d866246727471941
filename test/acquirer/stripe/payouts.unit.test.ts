import type Stripe from 'stripe';
import { META } from '../../../src/acquirer/stripe/mapping';
import { STRIPE_PAYOUT_STATUS, acquirerPayoutOf, payoutTransactionsOf } from '../../../src/acquirer/stripe/payouts';
import { STRIPE_PAYOUT_EVENTS, payoutNudgeOf } from '../../../src/acquirer/stripe/webhooks';
import examples from './stripe-examples.json';

/**
 * Stripe's payouts as ours (docs/payouts-and-fees.md, "Stripe's payouts"), on Stripe's
 * own example objects (stripe-examples.json, from stripe-mock), through every payout status Stripe's
 * OpenAPI description names.
 */
const clone = <T>(o: unknown): T => JSON.parse(JSON.stringify(o)) as T;
const examplePayout = (changes: Partial<Stripe.Payout> = {}): Stripe.Payout => ({ ...clone<Stripe.Payout>(examples.objects.payout), ...changes });
const txn = (changes: Partial<Stripe.BalanceTransaction>): Stripe.BalanceTransaction =>
  ({ ...clone<Stripe.BalanceTransaction>(examples.objects.balance_transaction), ...changes }) as Stripe.BalanceTransaction;

describe("a Stripe payout's status", () => {
  it('every status Stripe names has a row', () => {
    expect(examples.enums.payout_status.filter((s) => !(s in STRIPE_PAYOUT_STATUS))).toEqual([]);
  });

  it.each([
    ['pending', 'IN_TRANSIT'],
    ['in_transit', 'IN_TRANSIT'],
    ['paid', 'PAID'],
    ['failed', 'FAILED'],
    ['canceled', 'FAILED'],
    ['a_status_stripe_adds_later', 'IN_TRANSIT'],
  ])('%s reads as %s', (status, ours) => {
    expect(acquirerPayoutOf(examplePayout({ status }), []).status).toBe(ours);
  });

  it("reads Stripe's example payout: amount exact, currency upper case, arrival date as YYYY-MM-DD, no failure", () => {
    const payout = acquirerPayoutOf(examplePayout(), []);
    expect(payout).toEqual({
      pays: 'BALANCE',
      payoutId: examples.objects.payout.id,
      status: 'IN_TRANSIT', // the example is in_transit
      amount: '11.00',
      currency: 'USD',
      arrivalDate: '2009-02-13', // 1234567890
      transactions: [],
    });
  });

  it("a failed payout says what the bank said: Stripe's message and code", () => {
    const failed = acquirerPayoutOf(
      examplePayout({ status: 'failed', failure_code: 'account_closed', failure_message: 'The bank account has been closed.' }),
      [],
    );
    expect(failed).toMatchObject({ status: 'FAILED', failureReason: 'The bank account has been closed. (account_closed)' });
    expect(acquirerPayoutOf(examplePayout({ status: 'canceled' }), []).failureReason).toBe('canceled');
    expect(acquirerPayoutOf(examplePayout({ status: 'paid', failure_code: 'ignored' }), [])).not.toHaveProperty('failureReason');
  });

  it('a zero-decimal currency keeps its whole units', () => {
    expect(acquirerPayoutOf(examplePayout({ amount: 5000, currency: 'jpy' }), []).amount).toBe('5000');
  });
});

describe('what a Stripe payout pays: its balance transactions', () => {
  const charge = { ...clone<Stripe.Charge>(examples.objects.charge), payment_intent: 'pi_ours', metadata: { [META.paymentId]: 'pay-1' } };
  const offline = { ...clone<Stripe.Charge>(examples.objects.charge), payment_intent: 'pi_offline', metadata: {} };
  const refund = { ...clone<Stripe.Refund>(examples.objects.refund), payment_intent: 'pi_ours', metadata: { [META.refundReference]: 'REFUND-r1' } };
  const dispute = { ...clone<Stripe.Dispute>(examples.objects.dispute), payment_intent: 'pi_ours' };

  it('payments and refunds as settlement lines read them, disputes by their id and direction, the rest by net; the payout itself left out', () => {
    const transactions = payoutTransactionsOf([
      txn({ type: 'charge', amount: 1234, fee: 27, net: 1207, source: charge }),
      txn({ type: 'charge', amount: 500, fee: 12, net: 488, source: offline }),
      txn({ type: 'refund', amount: -200, fee: 0, net: -200, source: refund }),
      txn({ id: 'txn_debit', type: 'adjustment', amount: -1000, fee: 1500, net: -2500, source: dispute }),
      txn({ id: 'txn_credit', type: 'adjustment', amount: 1000, fee: 0, net: 1000, source: dispute }),
      txn({ type: 'stripe_fee', amount: -300, fee: 0, net: -300, source: null }),
      txn({ type: 'payout', amount: -2000, fee: 0, net: -2000, source: examples.objects.payout as unknown as Stripe.Payout }),
    ]);
    expect(transactions).toEqual([
      { type: 'PAYMENT', acquirerRef: 'pi_ours', paymentId: 'pay-1', net: '12.07', currency: 'USD' },
      { type: 'PAYMENT', acquirerRef: 'pi_offline', net: '4.88', currency: 'USD' },
      { type: 'REFUND', acquirerRef: 'pi_ours', refundReference: 'REFUND-r1', net: '-2.00', currency: 'USD' },
      { type: 'CHARGEBACK', acquirerRef: 'pi_ours', disputeId: examples.objects.dispute.id, bookingRef: 'txn_debit', net: '-25.00', currency: 'USD' },
      { type: 'CHARGEBACK_REVERSAL', acquirerRef: 'pi_ours', disputeId: examples.objects.dispute.id, bookingRef: 'txn_credit', net: '10.00', currency: 'USD' },
      { type: 'OTHER', net: '-3.00', currency: 'USD' },
    ]);
  });

  it("Stripe's example balance transaction (its source not expanded): a payment of nobody's we know", () => {
    expect(payoutTransactionsOf([clone(examples.objects.balance_transaction)])).toEqual([{ type: 'PAYMENT', net: '1.00', currency: 'USD' }]);
  });
});

describe('payout.* events', () => {
  it.each(STRIPE_PAYOUT_EVENTS)('%s names the payout', (type) => {
    expect(payoutNudgeOf({ type, data: { object: examplePayout() } } as never)).toEqual({ payoutId: examples.objects.payout.id });
  });

  it('another event, or another object, names none', () => {
    expect(payoutNudgeOf({ type: 'charge.succeeded', data: { object: examplePayout() } } as never)).toBeNull();
    expect(payoutNudgeOf({ type: 'payout.paid', data: { object: clone(examples.objects.charge) } } as never)).toBeNull();
    expect(payoutNudgeOf({ type: 'payout.paid', data: {} } as never)).toBeNull();
  });
});
