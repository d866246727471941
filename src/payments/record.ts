import type { Payment, PaymentHistory } from '../generated/prisma/client';
import type { PaymentView } from '../fees/visibility';

/**
 * The payment record (docs/payments.md, "The payment record"), as every endpoint returns it. Amount is a JSON number
 * produced from the exact decimal (trailing zeros trimmed); unset fields are null.
 */
export interface PaymentRecord {
  id: string;
  pspReference: string;
  status: string;
  /** What the card approved: the amount asked, or less after a partial authorisation. */
  amount: number;
  /** The amount asked; equals amount unless a card approved less. */
  requestedAmount: number;
  allowPartialAuthorisation: boolean;
  /** The tip charged on top of amount (docs/tips.md); 0 when none. */
  tipAmount: number;
  /** amount + tipAmount: what the card was charged. */
  totalAmount: number;
  /** The payment asked the terminal for a tip. */
  tipAsked: boolean;
  currency: string;
  reference: string | null;
  sequenceNumber: number | null;
  /** The bill it is a tender of (docs/bills.md); null for a payment of its own. */
  billId: string | null;
  storeExternalId: string;
  terminalExternalId: string;
  paymentMethod: string | null;
  cardBrand: string | null;
  last4: string | null;
  previousStatus: string | null;
  reason: string | null;
  refusalReason: string | null;
  createdAt: string;
  updatedAt: string;
  capturedAt: string | null;
  /** null until captured; what the card was charged (the tip included): totalAmount for one-step payments. */
  capturedAmount: number | null;
  /** The sum of succeeded refunds (0 until one succeeds). */
  refundedAmount: number;
  settledAt: string | null;
  mode: string;
  origin: string;
  /** Passed through for the receipt and the records; null when not given. */
  cashierId: string | null;
  customerMobile: string | null;
  customerEmail: string | null;
  /** The acquirer account its route chose (docs/acquirers.md); null: the installation default. */
  acquirerAccountId: string | null;
  /** The acquirer that took it: sandbox, stripe, ... */
  acquirerName: string;
  /** The route rule that chose the account: its name, `default`, or `installation`. */
  routeRule: string;
  /**
   * The account's cost contract's fee for the capture (docs/payouts-and-fees.md); null without one.
   * Only for callers who may read cost contracts (src/fees/visibility.ts); absent for the others.
   */
  expectedFee?: number | null;
  /** The status of its latest dispute (docs/disputes.md, "The payment side"); null when it has none. */
  disputeStatus: string | null;
}

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** The record as `view`'s caller may see it: `expectedFee` only with `costs` (src/fees/visibility.ts). */
export function toPaymentRecord(p: Payment, view: PaymentView): PaymentRecord {
  return {
    id: p.id,
    pspReference: p.pspReference,
    status: p.status,
    // Decimal -> shortest exact decimal text -> JSON number (amounts have at most 4 decimals).
    amount: Number(p.amount.toFixed()),
    requestedAmount: Number((p.requestedAmount ?? p.amount).toFixed()),
    allowPartialAuthorisation: p.allowPartialAuthorisation,
    tipAmount: Number(p.tipAmount.toFixed()),
    totalAmount: Number(p.amount.plus(p.tipAmount).toFixed()),
    tipAsked: p.tipOffer !== null,
    currency: p.currency,
    reference: p.reference,
    sequenceNumber: p.sequenceNumber,
    billId: p.billId,
    storeExternalId: p.storeExternalId,
    terminalExternalId: p.terminalExternalId,
    paymentMethod: p.paymentMethod,
    cardBrand: p.cardBrand,
    last4: p.last4,
    previousStatus: p.previousStatus,
    reason: p.reason,
    refusalReason: p.refusalReason,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
    capturedAt: iso(p.capturedAt),
    capturedAmount: p.capturedAmount === null ? null : Number(p.capturedAmount.toFixed()),
    refundedAmount: Number(p.refundedAmount.toFixed()),
    settledAt: iso(p.settledAt),
    mode: p.mode,
    origin: p.origin,
    cashierId: p.cashierId,
    customerMobile: p.customerMobile,
    customerEmail: p.customerEmail,
    acquirerAccountId: p.acquirerAccountId,
    acquirerName: p.acquirerName,
    // Payments from before routes (migration 0019) went to the installation default.
    routeRule: p.routeRule ?? 'installation',
    ...(view.costs ? { expectedFee: p.expectedFee === null ? null : Number(p.expectedFee.toFixed()) } : {}),
    disputeStatus: p.disputeStatus,
  };
}

/** One status history entry (docs/payments.md, "Reading payments"). */
export function toHistoryEntry(h: PaymentHistory): {
  status: string;
  previousStatus: string | null;
  actionReference: string;
  source: string;
  occurredAt: string;
} {
  return { status: h.status, previousStatus: h.previousStatus, actionReference: h.actionReference, source: h.source, occurredAt: h.occurredAt.toISOString() };
}
