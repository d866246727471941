import type { PayoutTransaction } from '../../src/acquirer/port';
import { type CandidateLine, matchBalancePayout } from '../../src/payouts/balanceMatch';

/**
 * A payout of an account's balance (Stripe) tied to our batches (docs/payouts-and-fees.md,
 * "Stripe's payouts"): each transaction found in a line of a reconciled batch by bill, refund
 * reference or dispute; complete once every transaction of ours is; expected the lines' net.
 */
const line = (l: Partial<CandidateLine> & Pick<CandidateLine, 'batchId' | 'type' | 'netAmount'>): CandidateLine => ({
  settled: true,
  acquirerRef: null,
  refundReference: null,
  acquirerDisputeId: null,
  ...l,
});
const payment = (acquirerRef: string, net: string, ours = true): PayoutTransaction => ({
  type: 'PAYMENT',
  acquirerRef,
  ...(ours ? { paymentId: `pay-${acquirerRef}` } : {}),
  net,
  currency: 'EUR',
});

describe('a balance payout against our batches', () => {
  // Two stores' closes: batch A (two payments, one refund), batch B (one payment, a chargeback).
  const lines = [
    line({ batchId: 'A', type: 'PAYMENT', acquirerRef: 'pi_1', netAmount: '9.76' }),
    line({ batchId: 'A', type: 'PAYMENT', acquirerRef: 'pi_2', netAmount: '19.62' }),
    line({ batchId: 'A', type: 'REFUND', acquirerRef: 'pi_1', refundReference: 'REFUND-r1', netAmount: '-5' }),
    line({ batchId: 'B', type: 'PAYMENT', acquirerRef: 'pi_3', netAmount: '48.9' }),
    line({ batchId: 'B', type: 'CHARGEBACK', acquirerRef: 'pi_3', acquirerDisputeId: 'dp_1', netAmount: '-25.5' }),
  ];
  const paid: PayoutTransaction[] = [
    payment('pi_1', '9.76'),
    payment('pi_2', '19.62'),
    { type: 'REFUND', acquirerRef: 'pi_1', refundReference: 'REFUND-r1', net: '-5.00', currency: 'EUR' },
    payment('pi_3', '48.90'),
    { type: 'CHARGEBACK', acquirerRef: 'pi_3', disputeId: 'dp_1', net: '-25.50', currency: 'EUR' },
  ];

  it('pays lines of several batches: each batch once, the sum of their net expected', () => {
    expect(matchBalancePayout(paid, lines)).toEqual({ complete: true, batchIds: ['A', 'B'], expectedAmount: '47.78' });
  });

  it("Stripe's own fees and a payment taken outside the service are paid but not expected: the amounts then differ", () => {
    const more = [...paid, { type: 'OTHER', net: '-3.00', currency: 'EUR' } as PayoutTransaction, payment('pi_offline', '4.88', false)];
    expect(matchBalancePayout(more, lines)).toEqual({ complete: true, batchIds: ['A', 'B'], expectedAmount: '47.78' });
  });

  it('one of ours not yet in a reconciled batch (its close still running, or not yet closed): not complete', () => {
    const closing = lines.map((l) => (l.batchId === 'B' ? { ...l, settled: false } : l));
    expect(matchBalancePayout(paid, closing).complete).toBe(false);
    expect(matchBalancePayout(paid, lines.slice(0, 3)).complete).toBe(false);
    // ... and complete once it is.
    expect(matchBalancePayout(paid, lines).complete).toBe(true);
  });

  it('a refund matches by its reference, a chargeback by its dispute and direction, never a payment of the same bill', () => {
    const reversal: PayoutTransaction = { type: 'CHARGEBACK_REVERSAL', acquirerRef: 'pi_3', disputeId: 'dp_1', net: '25.50', currency: 'EUR' };
    expect(matchBalancePayout([reversal], lines)).toEqual({ complete: true, batchIds: [], expectedAmount: '0' });
    const otherRefund: PayoutTransaction = { type: 'REFUND', acquirerRef: 'pi_1', refundReference: 'REFUND-r2', net: '-1.00', currency: 'EUR' };
    expect(matchBalancePayout([otherRefund], lines)).toEqual({ complete: false, batchIds: [], expectedAmount: '0' });
  });

  it('a dispute debited twice: each debit matches its own line by its booking; a line recorded before booking keys matches by dispute and direction', () => {
    const keyed = [
      line({ batchId: 'D1', type: 'CHARGEBACK', acquirerRef: 'pi_4', acquirerDisputeId: 'dp_4', bookingRef: 'txn_a', netAmount: '-10' }),
      line({ batchId: 'D2', type: 'CHARGEBACK', acquirerRef: 'pi_4', acquirerDisputeId: 'dp_4', bookingRef: 'txn_b', netAmount: '-10' }),
      // migration 0027 gave an earlier line its type as key
      line({ batchId: 'D0', type: 'CHARGEBACK', acquirerRef: 'pi_5', acquirerDisputeId: 'dp_5', bookingRef: 'CHARGEBACK', netAmount: '-7' }),
    ];
    const debit = (disputeId: string, bookingRef: string): PayoutTransaction => ({
      type: 'CHARGEBACK',
      acquirerRef: 'pi',
      disputeId,
      bookingRef,
      net: '-1',
      currency: 'EUR',
    });
    expect(matchBalancePayout([debit('dp_4', 'txn_a'), debit('dp_4', 'txn_b')], keyed)).toEqual({
      complete: true,
      batchIds: ['D1', 'D2'],
      expectedAmount: '-20',
    });
    expect(matchBalancePayout([debit('dp_4', 'txn_b')], keyed)).toEqual({ complete: true, batchIds: ['D2'], expectedAmount: '-10' });
    expect(matchBalancePayout([debit('dp_5', 'txn_c')], keyed)).toEqual({ complete: true, batchIds: ['D0'], expectedAmount: '-7' });
  });

  it('one of ours no batch will hold (voided after Stripe booked it), as the caller says: not waited for', () => {
    const voided = payment('pi_voided', '9.70');
    expect(matchBalancePayout([...paid, voided], lines).complete).toBe(false);
    expect(matchBalancePayout([...paid, voided], lines, (t) => t !== voided && (t.paymentId !== undefined || t.refundReference !== undefined))).toEqual({
      complete: true,
      batchIds: ['A', 'B'],
      expectedAmount: '47.78',
    });
  });

  it('nothing of ours in it: complete at once, nothing expected', () => {
    expect(matchBalancePayout([payment('pi_x', '4.88', false)], lines)).toEqual({ complete: true, batchIds: [], expectedAmount: '0' });
  });

  it('exact decimals: no binary rounding in the sum', () => {
    const cents = Array.from({ length: 10 }, (_, i) => line({ batchId: 'C', type: 'PAYMENT', acquirerRef: `pi_c${i}`, netAmount: '0.1' }));
    const txs = cents.map((l) => payment(l.acquirerRef!, '0.10'));
    expect(matchBalancePayout(txs, cents).expectedAmount).toBe('1');
  });
});
