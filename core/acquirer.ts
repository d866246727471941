/**
 * What the service and an acquirer say to each other: the acquirer port's requests and answers,
 * as plain types. The deterministic core: workflows read these, src/acquirer/port.ts says how
 * an adapter is called with them.
 */
import type { PaymentMode } from './payment/statuses';

export type { PaymentMode };

/** What the acquirer says about a bill it holds (or held) on a device. */
export type BillState =
  | 'WAITING' // on the device, customer has not acted
  | 'AUTHORIZED' // approved and held (two-step devices only)
  | 'CAPTURED' // paid
  | 'DECLINED' // customer or issuer declined
  | 'CANCELLED' // cancelled on the device by cashier or customer
  | 'ERROR' // the device reported a problem
  | 'EXPIRED' // the device's own timeout ran out
  | 'WITHDRAWN' // taken off the device by the service (cancel / clear / expiry)
  | 'RELEASED'; // a two-step authorisation released at the service's request: the hold is gone

export interface BillStatus {
  acquirerRef: string;
  state: BillState;
  paymentMethod?: PaymentMode;
  cardBrand?: string;
  last4?: string;
  errorMessage?: string;
  /** ISO timestamp the acquirer recorded for capture/authorisation. */
  decidedAt?: string;
  /** Exact decimal the acquirer captured (a two-step completion may take less than authorised). */
  capturedAmount?: string;
  /** ISO timestamp of the completion of a two-step authorisation. */
  capturedAt?: string;
  /**
   * Exact decimal the card approved, when the acquirer says (a partial authorisation approves less
   * than asked: a prepaid, gift or debit card with a smaller balance). Absent: all of it.
   */
  authorizedAmount?: string;
  /**
   * Exact decimal tip the customer added on the device (docs/tips.md), when the bill asked for
   * one. It is inside `authorizedAmount` and `capturedAmount`: what the card was charged.
   */
  tipAmount?: string;
}

/** What the terminal offers a customer when a payment asks for a tip (the store's settings at creation). */
export interface TipOffer {
  /** 1 to 3 whole percentages of the amount. */
  percentages: number[];
  /** The customer may also type an amount of their own. */
  allowCustom: boolean;
}

export interface SendBillRequest {
  deviceId: string;
  /**
   * The terminal's configuration (`terminal:link --two-step`): authorise only, and capture on
   * completion (Stripe: a manual-capture PaymentIntent). Absent in payments started before it was
   * passed: one-step. The sandbox's simulated device keeps its own setting and is not sent this.
   */
  twoStep?: boolean;
  paymentId: string;
  pspReference: string;
  amount: string; // exact decimal as a string
  currency: string;
  /**
   * The card may approve less than `amount` (partial authorisation); absent or false: a card with
   * a smaller balance declines. Absent in payments started before it was passed.
   */
  allowPartialAuthorisation?: boolean;
  /**
   * A tip the POS already knows (exact decimal): the card is charged `amount` plus it. Absent: no
   * tip, or one asked with `askTip`.
   */
  tipAmount?: string;
  /** Ask the customer for a tip on the device with these options; the tip comes back in BillStatus.tipAmount. */
  askTip?: TipOffer;
  reference?: string | null;
  modes: PaymentMode[]; // modes allowed for this bill (never empty)
  timeoutSeconds: number; // the device's own timeout
  /** Passed through for the receipt (cashierId, customerMobile, customerEmail: docs/payments.md, "Creation body"); absent when none was given. */
  receipt?: ReceiptDetails;
}

export interface ReceiptDetails {
  cashierId?: string;
  customerMobile?: string;
  customerEmail?: string;
}

export type SendBillResult =
  | { outcome: 'ON_DEVICE'; acquirerRef: string }
  /** Another bill is on the device; carries the reference of the bill occupying it. */
  | { outcome: 'DEVICE_BUSY'; currentReference: string | null }
  | { outcome: 'MODE_UNSUPPORTED'; supportedModes: PaymentMode[] };

export type VoidState = 'CONFIRMED' | 'PENDING' | 'REJECTED';
export interface VoidStatus {
  voidReference: string;
  state: VoidState;
  message?: string;
}

/** Completion of a two-step authorisation: idempotent per bill (a repeat answers the first completion). */
export interface CompleteAuthorizationRequest {
  /** Exact decimal, at most the authorised amount. */
  amount: string;
  /** Our stable reference of this completion. */
  captureReference: string;
}

export type RefundState = 'PENDING' | 'SUCCEEDED' | 'FAILED';
export interface RefundRequest {
  /**
   * The service's stable reference of this refund: the acquirer keeps one refund per reference, so
   * a retried submission (its answer lost) answers the same refund and never pays twice.
   */
  refundReference: string;
  amount: string; // exact decimal as a string
  currency: string;
}
export interface RefundStatus {
  refundReference: string;
  state: RefundState;
  amount: string;
  /** Why the acquirer failed the refund. */
  message?: string;
  decidedAt?: string;
}

export interface DeviceCapabilities {
  deviceId: string;
  modes: PaymentMode[];
  twoStep: boolean;
  voidSupported: boolean;
}

/** One settled item of an acquirer's settlement report: a captured payment or a succeeded refund. */
/**
 * A report's item (docs/settlement.md; docs/disputes.md, "Settlement: the dispute's money"): a payment, a refund, or a dispute's money: CHARGEBACK when the
 * acquirer debits a dispute's amount (at its opening), CHARGEBACK_REVERSAL when it credits it back
 * (the dispute WON).
 */
export interface SettlementReportItem {
  type: 'PAYMENT' | 'REFUND' | 'CHARGEBACK' | 'CHARGEBACK_REVERSAL';
  /** The bill the item belongs to (for a refund: the refunded bill; for a chargeback: the disputed bill). */
  acquirerRef: string;
  /** A refund's own reference, as the service sent it; absent for payments. */
  refundReference?: string;
  /** A chargeback's or reversal's dispute, by the acquirer's own id. */
  disputeId?: string;
  /**
   * A chargeback's or reversal's booking, by the acquirer's key for it (docs/disputes.md
   * "Settlement"): a dispute can be debited more than once (Adyen's SecondChargeback after a
   * ChargebackReversed), so each booking is recorded once by this key, not once per dispute and
   * type. Stripe: the balance transaction id; Adyen: record type, dispute and booking time; the
   * sandbox: the item's type (it books one debit and one reversal per dispute). Absent: the type.
   */
  bookingRef?: string;
  /** The service's payment id and pspReference as sent with the bill; absent for payments taken outside the service. */
  paymentId?: string;
  pspReference?: string;
  reference?: string | null;
  amount: string; // exact decimal, positive (a refund's amount is what went back, a chargeback's what was debited or credited back)
  currency: string;
  feeAmount: string; // exact decimal; 0 for refunds (and the sandbox's chargebacks)
  paymentMethod?: PaymentMode;
  cardBrand?: string;
  last4?: string;
  /** When the acquirer captured the payment, paid the refund, debited the dispute's amount or credited it back. */
  occurredAt: string;
}

export interface SettlementReport {
  deviceId: string;
  batchReference: string;
  closedAt: string;
  items: SettlementReportItem[];
}

/** A dispute as the acquirer reports it (docs/disputes.md): opened by the cardholder's bank on a captured bill. */
export interface AcquirerDispute {
  /** The acquirer's own id of the dispute. */
  disputeId: string;
  /** The disputed bill. */
  acquirerRef: string;
  status: 'NEEDS_RESPONSE' | 'UNDER_REVIEW' | 'WON' | 'LOST' | 'ACCEPTED';
  reason: 'FRAUD' | 'NOT_RECEIVED' | 'DUPLICATE' | 'CREDIT_NOT_PROCESSED' | 'GENERAL';
  amount: string; // exact decimal
  currency: string;
  openedAt: string; // ISO
  dueBy: string; // ISO
}

/** What the service sends the acquirer as its answer to a dispute. */
export interface DisputeEvidence {
  /** The merchant's statement. */
  text: string;
  /** The facts the service assembled from its own records (docs/disputes.md). */
  transaction: Record<string, unknown>;
}

/**
 * A payout as the acquirer reports it (docs/payouts-and-fees.md, "Payouts"): money paid to the merchant's bank. What it
 * pays is one of two kinds: one settlement report (the sandbox: its batch reference and device), or
 * the account's balance (Stripe: the balance transactions booked since the previous payout, across
 * every reader, listed with their net).
 */
export type AcquirerPayout = ReportPayout | BalancePayout;

interface PayoutFacts {
  /** The acquirer's own id of the payout. */
  payoutId: string;
  status: 'IN_TRANSIT' | 'PAID' | 'FAILED';
  amount: string; // exact decimal
  currency: string;
  /** YYYY-MM-DD: when the bank is expected to (or did) credit it. */
  arrivalDate: string;
  /** A failed payout: what the bank said. */
  failureReason?: string;
}

/** Pays one settlement report: its batch reference and device. */
export interface ReportPayout extends PayoutFacts {
  pays: 'REPORT';
  batchReference: string;
  deviceId: string;
}

/** Pays the account's balance: every balance transaction in it. */
export interface BalancePayout extends PayoutFacts {
  pays: 'BALANCE';
  transactions: PayoutTransaction[];
}

/**
 * One movement a balance payout pays: a payment, a refund or a dispute's money of a bill (with the
 * references our settlement lines carry), or anything else (the acquirer's own fees, transfers,
 * adjustments: `OTHER`, only its net).
 */
export interface PayoutTransaction {
  type: 'PAYMENT' | 'REFUND' | 'CHARGEBACK' | 'CHARGEBACK_REVERSAL' | 'OTHER';
  /** The bill (for a refund or a dispute: the refunded or disputed bill). */
  acquirerRef?: string;
  /** Ours, from what we sent with the bill or the refund: the movement is one of our payments or refunds. */
  paymentId?: string;
  refundReference?: string;
  /** A dispute's money: the acquirer's id of the dispute. */
  disputeId?: string;
  /** A dispute's money: the acquirer's key of the booking, as on the settlement item (`SettlementReportItem.bookingRef`). */
  bookingRef?: string;
  /** Exact decimal, signed: what it added to (or took from) the payout. */
  net: string;
  currency: string;
}
