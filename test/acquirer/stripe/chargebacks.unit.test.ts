import type Stripe from 'stripe';
import { disputeChargesToRead, settlementItemsOf, settlementLinesOf, withDisputeCharges } from '../../../src/acquirer/stripe/mapping';
import examples from './stripe-examples.json';

/**
 * A dispute's money in Stripe's balance (docs/disputes.md, "Settlement: the dispute's money"): an
 * `adjustment` whose source is the dispute, `dispute` (the debit, negative, with Stripe's dispute
 * fee) or `dispute_reversal` (the credit back). Built from Stripe's own example objects.
 */
const clone = <T>(o: unknown): T => JSON.parse(JSON.stringify(o)) as T;
const READER = 'tmr_FDOt2wlRZEdpd7';
const CHARGE = examples.objects.dispute.charge;

const exampleDispute = (changes: Partial<Stripe.Dispute> = {}): Stripe.Dispute => ({
  ...clone<Stripe.Dispute>(examples.objects.dispute),
  payment_intent: 'pi_disputed',
  ...changes,
});
const readerCharge = (): Stripe.Charge => ({
  ...clone<Stripe.Charge>(examples.objects.charge),
  id: CHARGE,
  payment_intent: 'pi_disputed',
  payment_method_details: { type: 'card_present', card_present: { reader: READER } } as Stripe.Charge.PaymentMethodDetails,
});
const adjustment = (amount: number, fee: number, reporting_category: string, source: Stripe.Dispute, id = 'txn_1'): Stripe.BalanceTransaction =>
  ({
    ...clone<Stripe.BalanceTransaction>(examples.objects.balance_transaction),
    id,
    type: 'adjustment',
    reporting_category,
    amount,
    fee,
    net: amount - fee,
    source,
  }) as Stripe.BalanceTransaction;

describe("Stripe's dispute adjustments as chargeback lines", () => {
  const debit = adjustment(-1000, 1500, 'dispute', exampleDispute(), 'txn_debit');
  const credit = adjustment(1000, 0, 'dispute_reversal', exampleDispute(), 'txn_credit');

  it("the debit is a CHARGEBACK and the credit a CHARGEBACK_REVERSAL, named by the dispute and its PaymentIntent, on the charge's reader", () => {
    expect(disputeChargesToRead([debit, credit])).toEqual([CHARGE]);
    const lines = settlementLinesOf(withDisputeCharges([debit, credit], new Map([[CHARGE, readerCharge()]])));
    const occurredAt = new Date(examples.objects.balance_transaction.created * 1000).toISOString();
    expect(lines).toEqual([
      {
        type: 'CHARGEBACK',
        acquirerRef: 'pi_disputed',
        deviceId: READER,
        disputeId: 'dp_1Pgc71B7WZ01zgkWMevJiAUx',
        bookingRef: 'txn_debit',
        amount: '10.00',
        feeAmount: '15.00',
        netAmount: '-25.00',
        currency: 'USD',
        occurredAt,
      },
      {
        type: 'CHARGEBACK_REVERSAL',
        acquirerRef: 'pi_disputed',
        deviceId: READER,
        disputeId: 'dp_1Pgc71B7WZ01zgkWMevJiAUx',
        bookingRef: 'txn_credit',
        amount: '10.00',
        feeAmount: '0.00',
        netAmount: '10.00',
        currency: 'USD',
        occurredAt,
      },
    ]);
    expect(settlementItemsOf(lines)).toEqual([
      {
        type: 'CHARGEBACK',
        acquirerRef: 'pi_disputed',
        disputeId: 'dp_1Pgc71B7WZ01zgkWMevJiAUx',
        bookingRef: 'txn_debit',
        amount: '10.00',
        currency: 'USD',
        feeAmount: '15.00',
        occurredAt,
      },
      {
        type: 'CHARGEBACK_REVERSAL',
        acquirerRef: 'pi_disputed',
        disputeId: 'dp_1Pgc71B7WZ01zgkWMevJiAUx',
        bookingRef: 'txn_credit',
        amount: '10.00',
        currency: 'USD',
        feeAmount: '0.00',
        occurredAt,
      },
    ]);
  });

  it('each adjustment of one dispute is a booking of its own, keyed by its balance transaction: a second debit is a second CHARGEBACK', () => {
    const charge = readerCharge();
    const again = adjustment(-1000, 0, 'dispute', exampleDispute({ charge }), 'txn_debit_again');
    const lines = settlementLinesOf([adjustment(-1000, 1500, 'dispute', exampleDispute({ charge }), 'txn_debit'), again]);
    expect(settlementItemsOf(lines).map((i) => [i.type, i.disputeId, i.bookingRef])).toEqual([
      ['CHARGEBACK', 'dp_1Pgc71B7WZ01zgkWMevJiAUx', 'txn_debit'],
      ['CHARGEBACK', 'dp_1Pgc71B7WZ01zgkWMevJiAUx', 'txn_debit_again'],
    ]);
  });

  it('a reversal that gives the dispute fee back carries it as a negative fee (the net is what came back)', () => {
    const [line] = settlementLinesOf([adjustment(1000, -1500, 'dispute_reversal', exampleDispute({ charge: readerCharge() }))]);
    expect(line).toMatchObject({ type: 'CHARGEBACK_REVERSAL', amount: '10.00', feeAmount: '-15.00', netAmount: '25.00', deviceId: READER });
  });

  it('the PaymentIntent comes from the charge when the dispute names none; a charge not read names no reader (no close reports it)', () => {
    const viaCharge = settlementLinesOf([adjustment(-1000, 1500, 'dispute', exampleDispute({ payment_intent: null, charge: readerCharge() }))]);
    expect(viaCharge[0]).toMatchObject({ acquirerRef: 'pi_disputed', deviceId: READER });
    expect(settlementLinesOf([debit])[0]).toMatchObject({ type: 'CHARGEBACK', deviceId: null });
  });

  it('other adjustments and unexpanded sources are not chargebacks', () => {
    const other = { ...debit, source: 'dp_unexpanded' } as Stripe.BalanceTransaction;
    const fee = { ...debit, source: { id: 'fee_1', object: 'application_fee' } } as unknown as Stripe.BalanceTransaction;
    expect(settlementLinesOf([other, fee])).toEqual([]);
    expect(disputeChargesToRead([other, fee])).toEqual([]);
  });
});
