import Stripe from 'stripe';
import {
  type AcquirerDisputes,
  type AcquirerPayouts,
  type AcquirerPort,
  AcquirerRejectedError,
  AcquirerUnreachableError,
  type BillStatus,
  type CompleteAuthorizationRequest,
  type DeviceCapabilities,
  type RefundRequest,
  type RefundStatus,
  type SettlementReport,
  type SendBillRequest,
  type SendBillResult,
  type VoidStatus,
} from '../port';
import {
  META,
  actionFor,
  billStateOf,
  billStatusOf,
  busyWithOther,
  captureParams,
  deviceOf,
  findRefund,
  idempotencyKey,
  isWithdrawable,
  paymentIntentParams,
  processPaymentIntentParams,
  capturedStatusOf,
  refundStatusOf,
  settlementItemsOf,
  refundParams,
  releaseParams,
  settlementLinesOf,
  disputeChargesToRead,
  withDisputeCharges,
  settlementPeriodParams,
  type SettlementLine,
  unsupportedModes,
  voidRefundParams,
  voidStatusOf,
  withdrawParams,
} from './mapping';
import { acquirerDisputeOf, evidenceParams } from './disputes';
import { acquirerPayoutOf } from './payouts';

export interface StripeAcquirerOptions {
  apiKey: string;
  /** The PaymentIntent a refund reference belongs to (our records): Stripe lists refunds per payment only. */
  refundedBill?: (refundReference: string) => Promise<string | null>;
  /** Where the Stripe API is (tests: stripe-mock on a loopback port); default Stripe's own. */
  apiBase?: string;
  timeoutMs?: number;
}

/** Reader errors that mean the reader could not be reached: the outcome is unknown, retry. */
const READER_UNREACHABLE = new Set(['terminal_reader_offline', 'terminal_reader_timeout']);
/** Refund refusals that are answers (the reversal is refused), not malformed requests. */
const REFUND_REFUSED = new Set(['charge_already_refunded', 'charge_disputed', 'payment_intent_unexpected_state', 'amount_too_large', 'insufficient_funds']);

/**
 * The acquirer port over Stripe Terminal's server-driven integration, through the official
 * library. A device id is a Stripe reader id (tmr_...), an acquirer reference a PaymentIntent id
 * (pi_...). Every write carries an idempotency key derived from our own ids, so a retry after a
 * lost answer is the same request at Stripe. The mapping itself is in ./mapping.ts.
 */
export class StripeAcquirer implements AcquirerPort {
  readonly name = 'stripe';
  private readonly stripe: Stripe;
  private readonly refundedBill?: (refundReference: string) => Promise<string | null>;

  constructor(options: StripeAcquirerOptions) {
    this.refundedBill = options.refundedBill;
    const base = options.apiBase ? new URL(options.apiBase) : null;
    this.stripe = new Stripe(options.apiKey, {
      // The library's own retries would hide an unreachable acquirer from the workflow, which retries itself.
      maxNetworkRetries: 0,
      timeout: options.timeoutMs ?? 10_000,
      telemetry: false,
      ...(base
        ? {
            host: base.hostname,
            port: base.port ? Number(base.port) : base.protocol === 'http:' ? 80 : 443,
            protocol: base.protocol === 'http:' ? 'http' : 'https',
          }
        : {}),
    });
  }

  /**
   * Disputes over Stripe's Disputes API (the device id plays no part: a dispute is Stripe's own
   * object). An answer is sent only while Stripe still waits for one: a repeat (a retry after a
   * lost answer) reads the dispute first and answers it as it stands.
   */
  readonly disputes: AcquirerDisputes = {
    getDispute: async (_deviceId, disputeId) => acquirerDisputeOf(await this.dispute(disputeId)),
    submitDisputeEvidence: async (_deviceId, disputeId, evidence) => {
      const now = acquirerDisputeOf(await this.dispute(disputeId));
      if (now.status !== 'NEEDS_RESPONSE') return now;
      return acquirerDisputeOf(await this.call('submit the dispute evidence', () => this.stripe.disputes.update(disputeId, evidenceParams(evidence))));
    },
    acceptDispute: async (_deviceId, disputeId) => {
      const now = acquirerDisputeOf(await this.dispute(disputeId));
      if (now.status !== 'NEEDS_RESPONSE') return now;
      return acquirerDisputeOf(await this.call('close (accept) the dispute', () => this.stripe.disputes.close(disputeId)));
    },
  };

  /**
   * Payouts of the account's balance (docs/payouts-and-fees.md, "Stripe's payouts"): the payout and every balance transaction it
   * pays, their sources expanded (the device id plays no part: a payout spans every reader).
   */
  readonly payouts: AcquirerPayouts = {
    getPayout: async (_deviceId, payoutId) => {
      const payout = await this.call('read the payout', () => this.stripe.payouts.retrieve(payoutId));
      return acquirerPayoutOf(payout, await this.payoutTransactions(payoutId));
    },
  };

  async getDevice(deviceId: string): Promise<DeviceCapabilities> {
    return deviceOf(await this.reader(deviceId));
  }

  async sendBill(request: SendBillRequest): Promise<SendBillResult> {
    const refused = unsupportedModes(request.modes);
    if (refused) return refused;
    const reader = await this.reader(request.deviceId, ['action.process_payment_intent.payment_intent']);
    const busy = busyWithOther(reader, request.paymentId);
    if (busy) return { outcome: 'DEVICE_BUSY', currentReference: busy.currentReference };
    const pi = await this.call('create the PaymentIntent', () =>
      this.stripe.paymentIntents.create(paymentIntentParams(request), {
        idempotencyKey: idempotencyKey.createPaymentIntent(request.paymentId),
      }),
    );
    // A repeated send of the same payment answers the bill already placed, whatever its state: the
    // reader's action is ours already, or the process call's idempotency key makes it the same call
    // (a replayed create answers the PaymentIntent as it was created, not as it is now).
    if (actionFor(reader, pi.id)) return { outcome: 'ON_DEVICE', acquirerRef: pi.id };
    try {
      await this.call('process the PaymentIntent on the reader', () =>
        this.stripe.terminal.readers.processPaymentIntent(request.deviceId, processPaymentIntentParams(pi.id, request), {
          idempotencyKey: idempotencyKey.processPaymentIntent(request.paymentId),
        }),
      );
    } catch (err) {
      if (err instanceof AcquirerRejectedError && err.code === 'terminal_reader_busy') return { outcome: 'DEVICE_BUSY', currentReference: null };
      throw err;
    }
    return { outcome: 'ON_DEVICE', acquirerRef: pi.id };
  }

  async getBillStatus(deviceId: string, acquirerRef: string): Promise<BillStatus> {
    const pi = await this.paymentIntent(acquirerRef);
    return billStatusOf(pi, await this.actionOf(deviceId, pi));
  }

  async withdrawBill(deviceId: string, acquirerRef: string): Promise<BillStatus> {
    const pi = await this.paymentIntent(acquirerRef);
    const action = await this.actionOf(deviceId, pi);
    if (!isWithdrawable(pi) || billStateOf(pi, action) !== 'WAITING') return billStatusOf(pi, action);
    if (action?.status === 'in_progress') {
      await this.call('cancel the reader action', () => this.stripe.terminal.readers.cancelAction(deviceId)).catch(ignoreRefusal);
    }
    // Refused when the customer paid in the meantime: the read below says so.
    await this.call('cancel the PaymentIntent', () => this.stripe.paymentIntents.cancel(pi.id, withdrawParams)).catch(ignoreRefusal);
    return this.getBillStatus(deviceId, acquirerRef);
  }

  /** Void = a full refund of the PaymentIntent; the void reference is its idempotency key and metadata. */
  async submitVoid(deviceId: string, acquirerRef: string, voidReference: string): Promise<VoidStatus> {
    try {
      const refund = await this.call('refund (void) the payment', () =>
        this.stripe.refunds.create(voidRefundParams(acquirerRef, voidReference, deviceId), { idempotencyKey: idempotencyKey.void(voidReference) }),
      );
      return voidStatusOf(refund, voidReference);
    } catch (err) {
      if (err instanceof AcquirerRejectedError && REFUND_REFUSED.has(err.code ?? '')) return { voidReference, state: 'REJECTED', message: err.message };
      throw err;
    }
  }

  /** The void's refund, found among the PaymentIntent's refunds by its reference; 404 when Stripe never received it. */
  async getVoidStatus(_deviceId: string, voidReference: string, acquirerRef?: string): Promise<VoidStatus> {
    if (!acquirerRef) throw new AcquirerRejectedError('reading a void at Stripe needs the payment it reverses', 400);
    const refund = await this.findRefund(acquirerRef, META.voidReference, voidReference);
    if (!refund) throw new AcquirerRejectedError(`no refund for void ${voidReference}`, 404);
    return voidStatusOf(refund, voidReference);
  }

  /** Completes an authorisation: captures `amount` (Stripe releases the rest of the hold). */
  async completeAuthorization(_deviceId: string, acquirerRef: string, request: CompleteAuthorizationRequest): Promise<BillStatus> {
    const pi = await this.paymentIntent(acquirerRef);
    if (pi.status === 'requires_capture') {
      await this.call('capture the PaymentIntent', () =>
        this.stripe.paymentIntents.capture(acquirerRef, captureParams(request.amount, pi.currency), {
          idempotencyKey: idempotencyKey.capture(request.captureReference),
        }),
      ).catch(ignoreUnexpectedState);
    }
    return capturedStatusOf(await this.paymentIntent(acquirerRef));
  }

  /** Releases an authorisation: the PaymentIntent is cancelled and Stripe frees the hold (RELEASED). */
  async releaseAuthorization(_deviceId: string, acquirerRef: string): Promise<BillStatus> {
    const pi = await this.paymentIntent(acquirerRef);
    if (pi.status === 'requires_capture') {
      await this.call('release the authorisation', () =>
        this.stripe.paymentIntents.cancel(acquirerRef, releaseParams, { idempotencyKey: idempotencyKey.release(acquirerRef) }),
      ).catch(ignoreUnexpectedState);
    }
    return capturedStatusOf(await this.paymentIntent(acquirerRef));
  }

  /** One refund, once: the refund reference is its idempotency key and its metadata, to find it again. */
  async refund(deviceId: string, acquirerRef: string, request: RefundRequest): Promise<RefundStatus> {
    try {
      const refund = await this.call('refund the payment', () =>
        this.stripe.refunds.create(refundParams(acquirerRef, request.refundReference, request.amount, request.currency, deviceId), {
          idempotencyKey: idempotencyKey.refund(request.refundReference),
        }),
      );
      return refundStatusOf(refund, request.refundReference);
    } catch (err) {
      if (err instanceof AcquirerRejectedError && REFUND_REFUSED.has(err.code ?? ''))
        return { refundReference: request.refundReference, state: 'FAILED', amount: request.amount, message: err.message };
      throw err;
    }
  }

  /** The refund with this reference, found under its payment; 404 when Stripe never received it. */
  async getRefund(_deviceId: string, refundReference: string): Promise<RefundStatus> {
    const acquirerRef = await this.refundedBill?.(refundReference);
    if (!acquirerRef) throw new AcquirerRejectedError(`no payment known for refund ${refundReference}`, 404);
    const refund = await this.findRefund(acquirerRef, META.refundReference, refundReference);
    if (!refund) throw new AcquirerRejectedError(`no refund ${refundReference} at Stripe`, 404);
    return refundStatusOf(refund, refundReference);
  }

  /**
   * A reader's batch: the card payments and refunds Stripe booked to the balance for this reader
   * since the previous close (`since`) up to `until` (balance transactions with their fees).
   * Stripe has no batch of its own: the period makes it one, and the same period answers the same
   * report; consecutive closes meet exactly, so nothing is reported twice.
   */
  async closeBatch(deviceId: string, batchReference: string, until: string, since?: string | null): Promise<SettlementReport> {
    const params = settlementPeriodParams(until, since);
    const transactions: Stripe.BalanceTransaction[] = [];
    await this.call('list balance transactions', () =>
      this.stripe.balanceTransactions.list(params).autoPagingEach((t) => {
        transactions.push(t);
      }),
    );
    const withReaders = withDisputeCharges(transactions, await this.disputeCharges(transactions));
    return {
      deviceId,
      batchReference,
      closedAt: new Date((params.created as Stripe.RangeQueryParam).lte! * 1000).toISOString(),
      items: settlementItemsOf(settlementLinesOf(withReaders).filter((l) => l.deviceId === deviceId)),
    };
  }

  /**
   * The charges of the period's disputes, for the reader that took each (a dispute names only its
   * charge). Read one by one rather than expanded with the list: `data.source.charge` would ask
   * every source of every type for a `charge`, and disputes are few.
   */
  private async disputeCharges(transactions: Stripe.BalanceTransaction[]): Promise<Map<string, Stripe.Charge>> {
    const charges = new Map<string, Stripe.Charge>();
    for (const id of disputeChargesToRead(transactions)) charges.set(id, await this.call("read a dispute's charge", () => this.stripe.charges.retrieve(id)));
    return charges;
  }

  /** The balance transactions of one payout, as settlement lines (all readers). */
  async payoutReport(payoutId?: string): Promise<{ payoutId: string | null; lines: SettlementLine[] }> {
    let id = payoutId ?? null;
    if (!id) {
      const payouts = await this.call('list payouts', () => this.stripe.payouts.list({ status: 'paid', limit: 1 }));
      id = payouts.data[0]?.id ?? null;
      if (!id) return { payoutId: null, lines: [] };
    }
    return { payoutId: id, lines: settlementLinesOf(await this.payoutTransactions(id)) };
  }

  /** Every balance transaction of one payout, their sources expanded, every page. */
  private async payoutTransactions(payoutId: string): Promise<Stripe.BalanceTransaction[]> {
    const transactions: Stripe.BalanceTransaction[] = [];
    await this.call("list the payout's balance transactions", () =>
      this.stripe.balanceTransactions.list({ payout: payoutId, limit: 100, expand: ['data.source'] }).autoPagingEach((t) => {
        transactions.push(t);
      }),
    );
    return transactions;
  }

  private async findRefund(acquirerRef: string, key: string, reference: string): Promise<Stripe.Refund | null> {
    const refunds: Stripe.Refund[] = [];
    await this.call("list the payment's refunds", () =>
      this.stripe.refunds.list({ payment_intent: acquirerRef, limit: 100 }).autoPagingEach((r) => {
        refunds.push(r);
      }),
    );
    return findRefund(refunds, key, reference) as Stripe.Refund | null;
  }

  private reader(deviceId: string, expand: string[] = []): Promise<Stripe.Terminal.Reader> {
    return this.call('read the reader', async () => {
      const reader = await this.stripe.terminal.readers.retrieve(deviceId, expand.length ? { expand } : undefined);
      if ((reader as Stripe.Terminal.DeletedReader).deleted) throw new AcquirerRejectedError(`reader ${deviceId} was deleted`, 404);
      return reader as Stripe.Terminal.Reader;
    });
  }

  private dispute(id: string): Promise<Stripe.Dispute> {
    return this.call('read the dispute', () => this.stripe.disputes.retrieve(id));
  }

  private paymentIntent(id: string): Promise<Stripe.PaymentIntent> {
    return this.call('read the PaymentIntent', () => this.stripe.paymentIntents.retrieve(id, { expand: ['latest_charge'] }));
  }

  /** The reader's action for this PaymentIntent; only read while the reader can still tell us something. */
  private async actionOf(deviceId: string, pi: Stripe.PaymentIntent): Promise<Stripe.Terminal.Reader.Action | null> {
    if (pi.status === 'succeeded' || pi.status === 'requires_capture') return null;
    try {
      return actionFor(await this.reader(deviceId), pi.id);
    } catch (err) {
      if (err instanceof AcquirerRejectedError) return null; // reader gone: the PaymentIntent alone decides
      throw err;
    }
  }

  /** Runs one Stripe call; its errors become the port's (unreachable: retry; rejected: don't). */
  private async call<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw translate(err, what);
    }
  }
}

function ignoreRefusal(err: unknown): void {
  if (!(err instanceof AcquirerRejectedError)) throw err;
}

function ignoreUnexpectedState(err: unknown): void {
  // Captured or released already (a retry after a lost answer): the read that follows tells.
  if (!(err instanceof AcquirerRejectedError && err.code === 'payment_intent_unexpected_state')) throw err;
}

/** A key Stripe quotes back in an error ("Invalid API Key provided: sk_live_..."): masked to its last 4 characters before it reaches a log or an answer. */
const maskKeys = (text: string): string => text.replace(/\b((?:sk|rk|pk)_(?:live|test)_|whsec_)[A-Za-z0-9*]*([A-Za-z0-9]{4})\b/g, '$1••••$2');

/** Stripe's errors as the port's: connection, 5xx, 429 and an offline reader are unreachable; the rest refusals. */
export function translate(err: unknown, what: string): Error {
  if (err instanceof AcquirerRejectedError || err instanceof AcquirerUnreachableError) return err;
  if (err instanceof Stripe.errors.StripeError) {
    const status = err.statusCode ?? 0;
    const code = err.code ?? undefined;
    const said = err.message ? ` ${maskKeys(err.message)}` : '';
    if (err.type === 'StripeConnectionError' || status === 0 || status >= 500 || status === 429 || READER_UNREACHABLE.has(code ?? '')) {
      return new AcquirerUnreachableError(`stripe did not answer ${what}: ${code ?? err.type}${said}`);
    }
    return new AcquirerRejectedError(`stripe refused ${what}: ${status} ${code ?? err.type}${said}`, status, code);
  }
  return new AcquirerUnreachableError(`stripe did not answer ${what}: ${maskKeys((err as Error)?.message ?? String(err))}`);
}
