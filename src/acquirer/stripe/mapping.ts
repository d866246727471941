import Decimal from 'decimal.js';
import type Stripe from 'stripe';
import { supportedMinorUnitsOf } from '../../money/currencies';
import type {
  BillState,
  BillStatus,
  DeviceCapabilities,
  PaymentMode,
  RefundStatus,
  SendBillRequest,
  SendBillResult,
  SettlementReportItem,
  VoidStatus,
} from '../port';

/**
 * The mapping between the acquirer port and Stripe Terminal's server-driven API, as pure
 * functions (docs/acquirers.md has the same mapping as a table). Nothing here calls Stripe: the
 * adapter (./adapter.ts) sends what these build and answers what these read.
 */

/** Stripe readers take cards (contactless, chip, swipe); Stripe Terminal has no QR-code tender. */
export const STRIPE_MODES: readonly PaymentMode[] = ['CARD'];

/** Metadata keys we put on Stripe objects: they tie a PaymentIntent or refund back to our records. */
export const META = {
  paymentId: 'isp_payment_id',
  pspReference: 'isp_psp_reference',
  reference: 'isp_reference',
  deviceId: 'isp_device_id',
  /** A tip the POS knows, inside the PaymentIntent's amount (docs/tips.md). */
  tipAmount: 'isp_tip_amount',
  voidReference: 'isp_void_reference',
  refundReference: 'isp_refund_reference',
} as const;

/** Idempotency keys: a retried call is the same call at Stripe (Stripe keeps them 24 hours). */
export const idempotencyKey = {
  createPaymentIntent: (paymentId: string) => `isp-bill-${paymentId}`,
  processPaymentIntent: (paymentId: string) => `isp-process-${paymentId}`,
  void: (voidReference: string) => `isp-void-${voidReference}`,
  refund: (refundReference: string) => `isp-refund-${refundReference}`,
  capture: (captureReference: string) => `isp-capture-${captureReference}`,
  release: (paymentIntentId: string) => `isp-release-${paymentIntentId}`,
};

const minorUnitsOf = (currency: string): number => supportedMinorUnitsOf(currency.toUpperCase(), () => new RangeError(`unsupported currency ${currency}`));

/** "12.34" EUR -> 1234; Stripe amounts are integers in the currency's smallest unit. */
export function toStripeAmount(amount: string, currency: string): number {
  const minor = new Decimal(amount).times(new Decimal(10).pow(minorUnitsOf(currency)));
  if (!minor.isInteger()) throw new RangeError(`${amount} ${currency} has more decimals than the currency allows`);
  return minor.toNumber();
}

/** 1234 EUR -> "12.34" (exact decimal string). */
export function fromStripeAmount(amount: number, currency: string): string {
  const digits = minorUnitsOf(currency);
  return new Decimal(amount).dividedBy(new Decimal(10).pow(digits)).toFixed(digits);
}

/**
 * What a reader can do: cards only; two-step, as every reader can leave a PaymentIntent authorised
 * (manual capture: whether a bill is two-step is its terminal's configuration, sent with the bill);
 * voids are full refunds, always possible on a captured card payment.
 */
export function deviceOf(reader: Pick<Stripe.Terminal.Reader, 'id'>): DeviceCapabilities {
  return { deviceId: reader.id, modes: [...STRIPE_MODES], twoStep: true, voidSupported: true };
}

/** A bill asking only for tenders Stripe readers lack (QR code) is refused, never faked. */
export function unsupportedModes(modes: PaymentMode[]): SendBillResult | null {
  return modes.some((m) => STRIPE_MODES.includes(m)) ? null : { outcome: 'MODE_UNSUPPORTED', supportedModes: [...STRIPE_MODES] };
}

/**
 * Partial authorisation on a card_present PaymentIntent (`payment_method_options.card_present.
 * request_partial_authorization`, `if_available` or `never`, as Stripe's Terminal SDKs name it:
 * CardPresentRequestPartialAuthorization). stripe-node 22.6 does not type it yet.
 */
type CardPresentPartialOption = { request_partial_authorization?: 'if_available' | 'never' };

/**
 * Placing a bill, step 1: a card_present PaymentIntent, manual capture when the bill's terminal is
 * two-step (`terminal:link --two-step`, passed through the port), automatic otherwise; a payment
 * that allows partial authorisation asks for it where the card's issuer offers it.
 */
export function paymentIntentParams(request: SendBillRequest): Stripe.PaymentIntentCreateParams {
  const metadata: Record<string, string> = {
    [META.paymentId]: request.paymentId,
    [META.pspReference]: request.pspReference,
    [META.deviceId]: request.deviceId,
  };
  if (request.reference) metadata[META.reference] = request.reference;
  if (request.tipAmount !== undefined) metadata[META.tipAmount] = request.tipAmount;
  return {
    // A tip the POS knows is charged with the amount: a PaymentIntent's amount is what the card is charged.
    amount: toStripeAmount(request.tipAmount !== undefined ? new Decimal(request.amount).plus(request.tipAmount).toFixed() : request.amount, request.currency),
    currency: request.currency.toLowerCase(),
    payment_method_types: ['card_present'],
    capture_method: request.twoStep === true ? 'manual' : 'automatic',
    ...(request.allowPartialAuthorisation === true
      ? {
          payment_method_options: {
            card_present: { request_partial_authorization: 'if_available' } as Stripe.PaymentIntentCreateParams.PaymentMethodOptions.CardPresent &
              CardPresentPartialOption,
          },
        }
      : {}),
    description: request.reference ? `${request.pspReference} ${request.reference}` : request.pspReference,
    metadata,
  };
}

/**
 * Placing a bill, step 2: the reader collects and processes the PaymentIntent. A payment that asks
 * for a tip gets the reader's tipping screen on its amount (`process_config.tipping.amount_eligible`;
 * the percentages are the reader's Terminal configuration's, docs/acquirers.md "Tips"); any other
 * skips it (`skip_tipping`), so a location with tipping configured never adds a tip nobody asked for.
 */
export function processPaymentIntentParams(
  paymentIntentId: string,
  request?: Pick<SendBillRequest, 'amount' | 'currency' | 'askTip'>,
): Stripe.Terminal.ReaderProcessPaymentIntentParams {
  // The customer may cancel on the reader, as on the sandbox's devices (then CANCELLED).
  const tipping = request?.askTip ? { tipping: { amount_eligible: toStripeAmount(request.amount, request.currency) } } : { skip_tipping: true };
  return { payment_intent: paymentIntentId, process_config: { enable_customer_cancellation: true, ...tipping } };
}

/** The reader's action when it concerns this PaymentIntent, else null. */
export function actionFor(reader: Pick<Stripe.Terminal.Reader, 'action'> | null | undefined, paymentIntentId: string): Stripe.Terminal.Reader.Action | null {
  const action = reader?.action;
  if (!action || action.type !== 'process_payment_intent') return null;
  const pi = action.process_payment_intent?.payment_intent;
  const id = typeof pi === 'string' ? pi : pi?.id;
  return id === paymentIntentId ? action : null;
}

/**
 * The reader is busy with another payment's bill: an action in progress for a PaymentIntent that is
 * not this payment's. Answers the reference of the bill occupying it when the action carries it
 * (expanded), else null.
 */
export function busyWithOther(reader: Pick<Stripe.Terminal.Reader, 'action'>, paymentId: string): { currentReference: string | null } | null {
  const action = reader.action;
  if (!action || action.status !== 'in_progress') return null;
  const pi = action.process_payment_intent?.payment_intent;
  const other = pi && typeof pi !== 'string' ? pi : null;
  if (other?.metadata?.[META.paymentId] === paymentId) return null;
  return { currentReference: other?.metadata?.[META.reference] ?? null };
}

/** Reader failure codes that mean the customer (not the card) ended it. */
const CUSTOMER_CANCELLED_CODES = new Set(['customer_canceled', 'customer_cancelled']);
/** Failure codes that are a decline by the issuer or the card. */
const DECLINE_CODES = new Set([
  'card_declined',
  'expired_card',
  'incorrect_pin',
  'insufficient_funds',
  'offline_pin_required',
  'online_or_offline_pin_required',
]);

type ReadablePaymentIntent = Pick<
  Stripe.PaymentIntent,
  'id' | 'status' | 'last_payment_error' | 'cancellation_reason' | 'latest_charge' | 'created' | 'canceled_at'
> & { amount_details?: Pick<NonNullable<Stripe.PaymentIntent['amount_details']>, 'tip'> | null; currency?: string };

/** The state of a bill, from its PaymentIntent's status and the reader's action for it. */
export function billStateOf(pi: ReadablePaymentIntent, action: Stripe.Terminal.Reader.Action | null): BillState {
  switch (pi.status) {
    case 'succeeded':
      return 'CAPTURED';
    case 'requires_capture':
      return 'AUTHORIZED';
    case 'canceled':
      // Cancelled by the customer on the reader (the action failed first); an authorisation released
      // at our request (or lapsed at Stripe); else taken off the reader by us (withdraw, expiry).
      if (action?.status === 'failed' && CUSTOMER_CANCELLED_CODES.has(action.failure_code ?? '')) return 'CANCELLED';
      return pi.cancellation_reason === 'requested_by_customer' || pi.cancellation_reason === 'expired' ? 'RELEASED' : 'WITHDRAWN';
    case 'requires_payment_method': {
      if (action?.status === 'failed') return failureState(action.failure_code);
      const error = pi.last_payment_error;
      if (error) return error.type === 'card_error' || DECLINE_CODES.has(error.code ?? '') ? 'DECLINED' : 'ERROR';
      return 'WAITING';
    }
    case 'requires_confirmation':
    case 'requires_action':
    case 'processing':
      return action?.status === 'failed' ? failureState(action.failure_code) : 'WAITING';
    default:
      return 'ERROR';
  }
}

function failureState(code: string | null | undefined): BillState {
  if (CUSTOMER_CANCELLED_CODES.has(code ?? '')) return 'CANCELLED';
  if (DECLINE_CODES.has(code ?? '')) return 'DECLINED';
  return 'ERROR';
}

/** A card's brand as the sandbox names it ("visa" -> "VISA"). */
function brandOf(brand: string | null | undefined): string | undefined {
  return brand ? brand.toUpperCase() : undefined;
}

/** The full bill status: state, tender and card, when it was decided, and why it failed. */
export function billStatusOf(pi: ReadablePaymentIntent, action: Stripe.Terminal.Reader.Action | null): BillStatus {
  const state = billStateOf(pi, action);
  const status: BillStatus = { acquirerRef: pi.id, state };
  const charge = pi.latest_charge && typeof pi.latest_charge !== 'string' ? pi.latest_charge : null;
  const card = charge?.payment_method_details?.card_present ?? null;
  if (state === 'CAPTURED' || state === 'AUTHORIZED') {
    status.paymentMethod = 'CARD';
    const brand = brandOf(card?.brand);
    if (brand) status.cardBrand = brand;
    if (card?.last4) status.last4 = card.last4;
    // What the card approved (the charge's amount_authorized): less than asked after a partial authorisation.
    if (typeof card?.amount_authorized === 'number' && charge?.currency) status.authorizedAmount = fromStripeAmount(card.amount_authorized, charge.currency);
    // The tip the customer added on the reader: "the portion of the amount that corresponds to a tip" (amount_details.tip.amount).
    const tip = pi.amount_details?.tip?.amount;
    const currency = charge?.currency ?? pi.currency;
    if (typeof tip === 'number' && tip > 0 && currency) status.tipAmount = fromStripeAmount(tip, currency);
    status.decidedAt = new Date((charge?.created ?? pi.created) * 1000).toISOString();
  }
  if (state === 'ERROR' || state === 'DECLINED') {
    const message = action?.failure_message ?? pi.last_payment_error?.message;
    if (message) status.errorMessage = message;
  }
  return status;
}

/** Only a PaymentIntent still waiting for the customer can be withdrawn (cancelled). */
export function isWithdrawable(pi: Pick<Stripe.PaymentIntent, 'status'>): boolean {
  return pi.status === 'requires_payment_method' || pi.status === 'requires_confirmation' || pi.status === 'requires_action';
}

/** Withdrawing a bill cancels its PaymentIntent as abandoned (the customer did not pay in time, or the cashier withdrew it). */
export const withdrawParams: Stripe.PaymentIntentCancelParams = { cancellation_reason: 'abandoned' };

/** Void = a full refund (Stripe has no separate void of a captured card payment). */
export function voidRefundParams(paymentIntentId: string, voidReference: string, deviceId?: string): Stripe.RefundCreateParams {
  return {
    payment_intent: paymentIntentId,
    reason: 'requested_by_customer',
    metadata: { [META.voidReference]: voidReference, ...(deviceId ? { [META.deviceId]: deviceId } : {}) },
  };
}

/** A refund's Stripe status as our three outcomes: succeeded, failed (or canceled), still pending. */
export type RefundOutcome = 'SUCCEEDED' | 'FAILED' | 'PENDING';
export function refundOutcomeOf(refund: Pick<Stripe.Refund, 'status'>): RefundOutcome {
  switch (refund.status) {
    case 'succeeded':
      return 'SUCCEEDED';
    case 'failed':
    case 'canceled':
      return 'FAILED';
    default: // pending, requires_action, or a status Stripe adds later: keep following it
      return 'PENDING';
  }
}

/** A void's state from the refund that carries it. */
export function voidStatusOf(refund: Pick<Stripe.Refund, 'status' | 'failure_reason'>, voidReference: string): VoidStatus {
  const outcome = refundOutcomeOf(refund);
  const state = outcome === 'SUCCEEDED' ? 'CONFIRMED' : outcome === 'FAILED' ? 'REJECTED' : 'PENDING';
  const status: VoidStatus = { voidReference, state };
  if (state === 'REJECTED' && refund.failure_reason) status.message = `refund ${refund.status}: ${refund.failure_reason}`;
  return status;
}

/** A bill after completion or release: its state plus the amount Stripe captured. */
export function capturedStatusOf(pi: ReadablePaymentIntent & Pick<Stripe.PaymentIntent, 'amount_received' | 'currency'>): BillStatus {
  const status = billStatusOf(pi, null);
  if (status.state === 'CAPTURED') status.capturedAmount = fromStripeAmount(pi.amount_received, pi.currency);
  return status;
}

/** A refund as the port's RefundStatus. */
export function refundStatusOf(
  refund: Pick<Stripe.Refund, 'status' | 'amount' | 'currency' | 'failure_reason' | 'created'>,
  refundReference: string,
): RefundStatus {
  const state = refundOutcomeOf(refund);
  const status: RefundStatus = { refundReference, state, amount: fromStripeAmount(refund.amount, refund.currency) };
  if (state === 'FAILED') status.message = refund.failure_reason ? `refund ${refund.status}: ${refund.failure_reason}` : `refund ${refund.status}`;
  if (state !== 'PENDING') status.decidedAt = new Date(refund.created * 1000).toISOString();
  return status;
}

/** Partial refunds: the amount in minor units and a stable reference; the idempotency key comes from the reference. */
/** The reader goes into the refund's metadata too: a refund's balance transaction names no reader, and the reader's close finds it by this. */
export function refundParams(paymentIntentId: string, refundReference: string, amount: string, currency: string, deviceId?: string): Stripe.RefundCreateParams {
  return {
    payment_intent: paymentIntentId,
    amount: toStripeAmount(amount, currency),
    reason: 'requested_by_customer',
    metadata: { [META.refundReference]: refundReference, ...(deviceId ? { [META.deviceId]: deviceId } : {}) },
  };
}

/** The refund of ours (by its reference in metadata) among a PaymentIntent's refunds. */
export function findRefund(refunds: Pick<Stripe.Refund, 'metadata'>[], key: string, reference: string) {
  return refunds.find((r) => r.metadata?.[key] === reference) ?? null;
}

/** Completing an authorisation: capture all of it, or a smaller amount (the rest is released). */
export function captureParams(amount: string | undefined, currency: string): Stripe.PaymentIntentCaptureParams {
  return amount === undefined ? {} : { amount_to_capture: toStripeAmount(amount, currency) };
}

/** Releasing an authorisation cancels its PaymentIntent (reason requested_by_customer, read back as RELEASED); Stripe releases the hold. */
export const releaseParams: Stripe.PaymentIntentCancelParams = { cancellation_reason: 'requested_by_customer' };

/** One settled movement of a payout, in the service's terms. */
export interface SettlementLine {
  type: 'PAYMENT' | 'REFUND' | 'CHARGEBACK' | 'CHARGEBACK_REVERSAL';
  acquirerRef: string | null; // the PaymentIntent
  deviceId: string | null; // the reader that took it
  disputeId?: string; // a chargeback's or reversal's Stripe dispute (dp_...)
  bookingRef?: string; // a chargeback's or reversal's own balance transaction (txn_...): one dispute can have several
  paymentId?: string; // ours, from the metadata we set
  pspReference?: string;
  reference?: string;
  refundReference?: string;
  amount: string; // positive, exact decimal
  feeAmount: string; // a dispute's: Stripe's dispute fee (negative on a reversal that gives it back)
  netAmount: string; // amount - fee for a payment; the refund's cost for a refund (negative of amount + fee); Stripe's net for a dispute's
  currency: string; // upper case
  occurredAt: string;
}

/** Balance transaction types that are card payments and refunds; others (payouts, fees, transfers) are not ours to report. */
const PAYMENT_TYPES = new Set(['charge', 'payment']);
const REFUND_TYPES = new Set(['refund', 'payment_refund']);

/**
 * The settlement report: the balance transactions of one payout (expanded with their source), as
 * lines with their fees. Amounts are positive with the line's type saying the direction.
 */
export function settlementLinesOf(transactions: Stripe.BalanceTransaction[]): SettlementLine[] {
  return transactions.flatMap((t) => settlementLineOf(t) ?? []);
}

/** One balance transaction as a settlement line; null when it is no card payment, refund or dispute money. */
export function settlementLineOf(t: Stripe.BalanceTransaction): SettlementLine | null {
  const dispute = disputeOfTransaction(t);
  if (dispute) return chargebackLineOf(t, dispute);
  const type = PAYMENT_TYPES.has(t.type) ? 'PAYMENT' : REFUND_TYPES.has(t.type) ? 'REFUND' : null;
  if (!type) return null;
  const currency = t.currency.toUpperCase();
  const source = t.source && typeof t.source !== 'string' ? (t.source as Stripe.Charge | Stripe.Refund) : null;
  const meta = source?.metadata ?? {};
  return {
    type,
    acquirerRef: paymentIntentOf(source),
    deviceId: deviceOfSource(source),
    ...(meta[META.paymentId] ? { paymentId: meta[META.paymentId] } : {}),
    ...(meta[META.pspReference] ? { pspReference: meta[META.pspReference] } : {}),
    ...(meta[META.reference] ? { reference: meta[META.reference] } : {}),
    ...(meta[META.refundReference] ? { refundReference: meta[META.refundReference] } : {}),
    amount: fromStripeAmount(Math.abs(t.amount), currency),
    feeAmount: fromStripeAmount(t.fee, currency),
    netAmount: fromStripeAmount(t.net, currency),
    currency,
    occurredAt: new Date(t.created * 1000).toISOString(),
  };
}

/**
 * A dispute's money (docs/disputes.md, "Settlement: the dispute's money"): an `adjustment` whose source is the dispute, reporting
 * category `dispute` when Stripe debits it (negative) and `dispute_reversal` when it credits it
 * back (positive). The sign decides, so a category Stripe adds later still lands on the right side.
 */
function disputeOfTransaction(t: Stripe.BalanceTransaction): Stripe.Dispute | null {
  const source = t.source && typeof t.source !== 'string' ? (t.source as { object?: string }) : null;
  return t.type === 'adjustment' && source?.object === 'dispute' ? (source as Stripe.Dispute) : null;
}

function chargebackLineOf(t: Stripe.BalanceTransaction, dispute: Stripe.Dispute): SettlementLine {
  const currency = t.currency.toUpperCase();
  const charge = typeof dispute.charge === 'string' ? null : dispute.charge;
  const pi = dispute.payment_intent ?? charge?.payment_intent ?? null;
  const meta = charge?.metadata ?? {};
  return {
    type: t.amount < 0 ? 'CHARGEBACK' : 'CHARGEBACK_REVERSAL',
    acquirerRef: typeof pi === 'string' ? pi : (pi?.id ?? null),
    // The reader is on the disputed charge: the adapter expands it (closeBatch), else the line names none.
    deviceId: deviceOfSource(charge),
    disputeId: dispute.id,
    bookingRef: t.id,
    ...(meta[META.paymentId] ? { paymentId: meta[META.paymentId] } : {}),
    ...(meta[META.pspReference] ? { pspReference: meta[META.pspReference] } : {}),
    ...(meta[META.reference] ? { reference: meta[META.reference] } : {}),
    amount: fromStripeAmount(Math.abs(t.amount), currency),
    feeAmount: fromStripeAmount(t.fee, currency),
    netAmount: fromStripeAmount(t.net, currency),
    currency,
    occurredAt: new Date(t.created * 1000).toISOString(),
  };
}

/** The disputes among balance transactions whose charge is not expanded: the adapter reads those charges for their reader. */
export function disputeChargesToRead(transactions: Stripe.BalanceTransaction[]): string[] {
  const ids = transactions.map(disputeOfTransaction).flatMap((d) => (d && typeof d.charge === 'string' ? [d.charge] : []));
  return [...new Set(ids)];
}

/** The transactions with each dispute's charge put in its place (a copy; the others unchanged). */
export function withDisputeCharges(transactions: Stripe.BalanceTransaction[], charges: Map<string, Stripe.Charge>): Stripe.BalanceTransaction[] {
  return transactions.map((t) => {
    const d = disputeOfTransaction(t);
    const charge = d && typeof d.charge === 'string' ? charges.get(d.charge) : undefined;
    return charge ? ({ ...t, source: { ...d!, charge } } as Stripe.BalanceTransaction) : t;
  });
}

function paymentIntentOf(source: Stripe.Charge | Stripe.Refund | null): string | null {
  const pi = source?.payment_intent;
  if (!pi) return null;
  return typeof pi === 'string' ? pi : pi.id;
}

function deviceOfSource(source: Stripe.Charge | Stripe.Refund | null): string | null {
  if (!source) return null;
  if (source.object === 'charge') return source.payment_method_details?.card_present?.reader ?? source.metadata?.[META.deviceId] ?? null;
  return source.metadata?.[META.deviceId] ?? null;
}

/** Settlement lines as the port's report items: fees on payments and disputes; a refund's fee Stripe keeps is not charged to it. */
export function settlementItemsOf(lines: SettlementLine[]): SettlementReportItem[] {
  return lines
    .filter((l): l is SettlementLine & { acquirerRef: string } => l.acquirerRef !== null)
    .map((l) => ({
      type: l.type,
      acquirerRef: l.acquirerRef,
      ...(l.refundReference ? { refundReference: l.refundReference } : {}),
      ...(l.disputeId ? { disputeId: l.disputeId } : {}),
      ...(l.bookingRef ? { bookingRef: l.bookingRef } : {}),
      ...(l.paymentId ? { paymentId: l.paymentId } : {}),
      ...(l.pspReference ? { pspReference: l.pspReference } : {}),
      ...(l.reference ? { reference: l.reference } : {}),
      amount: l.amount,
      currency: l.currency,
      feeAmount: l.type === 'REFUND' ? '0' : l.feeAmount,
      ...(l.type === 'PAYMENT' ? { paymentMethod: 'CARD' as const } : {}),
      occurredAt: l.occurredAt,
    }));
}

/**
 * The balance transactions of one close: booked after `since` (the previous close of the reader;
 * none: no earlier bound) up to `until`, both cut to Stripe's whole seconds the same way, so
 * consecutive closes meet exactly: a transaction belongs to one close only.
 */
export function settlementPeriodParams(until: string, since?: string | null): Stripe.BalanceTransactionListParams {
  const seconds = (iso: string) => Math.floor(new Date(iso).getTime() / 1000);
  return { created: { ...(since ? { gt: seconds(since) } : {}), lte: seconds(until) }, limit: 100, expand: ['data.source'] };
}
