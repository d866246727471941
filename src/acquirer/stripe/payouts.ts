import type Stripe from 'stripe';
import type { BalancePayout, PayoutTransaction } from '../port';
import { fromStripeAmount, settlementLineOf } from './mapping';

/**
 * Stripe's payouts as ours (docs/payouts-and-fees.md, "Stripe's payouts"), pure. A Stripe payout pays the account's balance: the
 * balance transactions booked since the previous payout, of every reader (and of payments not
 * taken through the service, and Stripe's own fees); `transactions` lists them for the
 * reconciliation (src/payouts/balanceMatch.ts). The status table is also in docs/payouts-and-fees.md.
 */
export const STRIPE_PAYOUT_STATUS: Readonly<Record<string, BalancePayout['status']>> = {
  pending: 'IN_TRANSIT',
  in_transit: 'IN_TRANSIT',
  paid: 'PAID',
  failed: 'FAILED',
  // Cancelled before it left Stripe: the money stays in the balance, as with a failed payout.
  canceled: 'FAILED',
};
/** A status Stripe adds later: not decided, keep following it. */
const STATUS_FALLBACK: BalancePayout['status'] = 'IN_TRANSIT';

export type ReadablePayout = Pick<Stripe.Payout, 'id' | 'status' | 'amount' | 'currency' | 'arrival_date' | 'failure_code' | 'failure_message'>;

export function acquirerPayoutOf(p: ReadablePayout, transactions: Stripe.BalanceTransaction[]): BalancePayout {
  const status = STRIPE_PAYOUT_STATUS[p.status] ?? STATUS_FALLBACK;
  const failureReason = status === 'FAILED' ? failureReasonOf(p) : undefined;
  return {
    pays: 'BALANCE',
    payoutId: p.id,
    status,
    amount: fromStripeAmount(p.amount, p.currency),
    currency: p.currency.toUpperCase(),
    arrivalDate: new Date(p.arrival_date * 1000).toISOString().slice(0, 10),
    ...(failureReason ? { failureReason } : {}),
    transactions: payoutTransactionsOf(transactions),
  };
}

/** What the bank (or Stripe) said: the message and its code; a cancelled payout says so. */
function failureReasonOf(p: ReadablePayout): string {
  const said = [p.failure_message, p.failure_code ? `(${p.failure_code})` : null].filter(Boolean).join(' ');
  return said || (p.status === 'canceled' ? 'canceled' : 'failed');
}

/**
 * The payout's balance transactions (their source expanded) as what it pays: card payments and
 * refunds as the settlement lines read them (./mapping.ts), a dispute's debit or credit by its
 * dispute, anything else by its net only. The payout's own transaction is not something it pays.
 */
export function payoutTransactionsOf(transactions: Stripe.BalanceTransaction[]): PayoutTransaction[] {
  return transactions.filter((t) => t.type !== 'payout').map(payoutTransactionOf);
}

function payoutTransactionOf(t: Stripe.BalanceTransaction): PayoutTransaction {
  const currency = t.currency.toUpperCase();
  const net = fromStripeAmount(t.net, currency);
  // Payments, refunds and a dispute's debit or credit (by its dispute), as the closes read them.
  const line = settlementLineOf(t);
  if (!line) return { type: 'OTHER', net, currency };
  return {
    type: line.type,
    ...(line.acquirerRef ? { acquirerRef: line.acquirerRef } : {}),
    ...(line.paymentId ? { paymentId: line.paymentId } : {}),
    ...(line.refundReference ? { refundReference: line.refundReference } : {}),
    ...(line.disputeId ? { disputeId: line.disputeId } : {}),
    ...(line.bookingRef ? { bookingRef: line.bookingRef } : {}),
    net,
    currency,
  };
}
