import type { SearchAttributePair } from '@temporalio/common';
import type { Config } from '../config';
import type { ReceiptDetails } from '../acquirer/port';
import type { TipOffer } from '../../core/acquirer';
import type { Payment } from '../generated/prisma/client';
import { MerchantExternalId, PaymentReference, PaymentStatus, PspReference, StoreExternalId, TerminalExternalId } from '../../core/searchAttributes';
import { ACQUIRER_RETRY_MAX_MS, PAYMENT_WORKFLOW_TYPE, type PaymentWorkflowInput, type PendingRefund, paymentWorkflowId } from '../../core/payment/messages';
import { PAYMENT_MODES, type HistorySource, type PaymentMode, type PaymentStatus as Status } from '../../core/payment/statuses';

/**
 * How a payment's workflow is started, from its row: the first run at creation, or a later run
 * when the sweep or a request finds the workflow gone (then the run starts from the row's state).
 * Every start is update-with-start or signal-with-start with conflict policy USE_EXISTING, so a
 * running workflow is simply reached; a completed one is started again only by the sweep, for a
 * row its run left open (src/payments/sweep.ts).
 */
export function workflowInputFromPayment(
  p: Payment,
  merchantExternalId: string,
  config: Config,
  startedBy: HistorySource,
  /** The payment's refund rows still PENDING: a new run follows them (an earlier run ended without deciding them). */
  pendingRefunds: PendingRefund[] = [],
): PaymentWorkflowInput {
  const requested = p.requestedModes.filter((m): m is PaymentMode => (PAYMENT_MODES as readonly string[]).includes(m));
  return {
    paymentId: p.id,
    pspReference: p.pspReference,
    merchantExternalId,
    storeExternalId: p.storeExternalId,
    terminalExternalId: p.terminalExternalId,
    reference: p.reference,
    deviceId: p.deviceId ?? '',
    amount: p.amount.toFixed(),
    ...(p.requestedAmount !== null ? { requestedAmount: p.requestedAmount.toFixed() } : {}),
    allowPartialAuthorisation: p.allowPartialAuthorisation,
    ...(p.tipAmount.isZero() ? {} : { tipAmount: p.tipAmount.toFixed() }),
    ...(p.tipOffer ? { tipOffer: p.tipOffer as unknown as TipOffer } : {}),
    currency: p.currency,
    ...(p.billId ? { billId: p.billId } : {}),
    modes: requested.length > 0 ? requested : [...PAYMENT_MODES],
    paymentMethod: (p.paymentMethod as PaymentMode | null) ?? null,
    ...receiptOf(p),
    createdAtMs: p.createdAt.getTime(),
    expiresAtMs: p.expiresAt.getTime(),
    timing: {
      terminalTimeoutMs: Math.round(Number(p.terminalTimeoutMinutes.toFixed()) * 60_000),
      voidWindowMs: Math.round(config.VOID_WINDOW_MINUTES * 60_000),
      voidConfirmTimeoutMs: Math.round(config.VOID_CONFIRM_TIMEOUT_SECONDS * 1000),
      placementWaitMs: Math.round(config.PAYMENT_PLACEMENT_WAIT_SECONDS * 1000),
      acquirerRetryMaxMs: acquirerRetryMaxMs(config),
      authorizationWindowMs: Math.round(config.AUTHORIZATION_WINDOW_MINUTES * 60_000),
      refundConfirmTimeoutMs: Math.round(config.REFUND_CONFIRM_TIMEOUT_SECONDS * 1000),
    },
    status: p.status as Status,
    historySequence: p.historySequence,
    acquirerRef: p.acquirerRef,
    capturedAtMs: p.capturedAt ? p.capturedAt.getTime() : null,
    settledAtMs: p.settledAt ? p.settledAt.getTime() : null,
    twoStep: p.twoStep,
    authorizedAtMs: p.authorizedAt ? p.authorizedAt.getTime() : null,
    capturedAmount: p.capturedAmount ? p.capturedAmount.toFixed() : null,
    refundedAmount: p.refundedAmount.toFixed(),
    ...(pendingRefunds.length > 0 ? { pendingRefunds } : {}),
    takenBy: { acquirerName: p.acquirerName, acquirerAccountId: p.acquirerAccountId },
    startedBy,
  };
}

/** Search attributes set at start, so operators find a payment in the Web UI. */
export function paymentSearchAttributes(input: PaymentWorkflowInput): SearchAttributePair[] {
  const pairs: SearchAttributePair[] = [
    { key: MerchantExternalId, value: input.merchantExternalId },
    { key: StoreExternalId, value: input.storeExternalId },
    { key: TerminalExternalId, value: input.terminalExternalId },
    { key: PspReference, value: input.pspReference },
    { key: PaymentStatus, value: input.status },
  ];
  if (input.reference) pairs.push({ key: PaymentReference, value: input.reference });
  return pairs;
}

/** Start options shared by update-with-start (API) and signal-with-start (sweep). */
export function paymentWorkflowStartOptions(input: PaymentWorkflowInput, config: Config, opts: { afterSale?: boolean } = {}) {
  return {
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    workflowId: paymentWorkflowId(input.paymentId),
    args: [input] as [PaymentWorkflowInput],
    typedSearchAttributes: paymentSearchAttributes(input),
    workflowIdConflictPolicy: 'USE_EXISTING' as const,
    // A run that failed or was terminated may be replaced; a completed one only by the sweep's override.
    // After the sale (capture, refund) a payment whose run has ended gets a new run from its row:
    // the workflow stays the one writer of the payment however late the change comes.
    workflowIdReusePolicy: opts.afterSale ? ('ALLOW_DUPLICATE' as const) : ('ALLOW_DUPLICATE_FAILED_ONLY' as const),
  };
}

export { PAYMENT_WORKFLOW_TYPE };

/** The receipt details of a payment, for the acquirer; none when the request gave none. */
function receiptOf(p: Payment): { receipt?: ReceiptDetails } {
  const receipt: ReceiptDetails = {
    ...(p.cashierId ? { cashierId: p.cashierId } : {}),
    ...(p.customerMobile ? { customerMobile: p.customerMobile } : {}),
    ...(p.customerEmail ? { customerEmail: p.customerEmail } : {}),
  };
  return Object.keys(receipt).length > 0 ? { receipt } : {};
}

/** The longest pause between a workflow's tries at an unreachable acquirer: one sweep cycle, at least a second, at most ACQUIRER_RETRY_MAX_MS. */
export function acquirerRetryMaxMs(config: Pick<Config, 'SWEEP_INTERVAL_SECONDS'>): number {
  return Math.min(ACQUIRER_RETRY_MAX_MS, Math.max(1000, Math.round(config.SWEEP_INTERVAL_SECONDS * 1000)));
}
