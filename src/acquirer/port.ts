import type {
  BillStatus,
  SendBillRequest,
  SendBillResult,
  VoidStatus,
  CompleteAuthorizationRequest,
  RefundRequest,
  RefundStatus,
  DeviceCapabilities,
  SettlementReport,
  AcquirerDispute,
  AcquirerPayout,
  DisputeEvidence,
} from '../../core/acquirer';

/**
 * The acquirer port: the only way the service talks to an acquirer (cloud terminal API).
 * The sandbox acquirer is reached through an HTTP adapter implementing this interface, exactly
 * as a real acquirer adapter would be. Every method is safe to retry: a network failure throws
 * AcquirerUnreachableError and changes nothing the caller depends on.
 */
/** The port's types live in the core (core/acquirer.ts); adapters import them from here or there alike. */
export type {
  PaymentMode,
  BillState,
  BillStatus,
  SendBillRequest,
  ReceiptDetails,
  TipOffer,
  SendBillResult,
  VoidState,
  VoidStatus,
  CompleteAuthorizationRequest,
  RefundState,
  RefundRequest,
  RefundStatus,
  DeviceCapabilities,
  SettlementReportItem,
  SettlementReport,
  AcquirerDispute,
  DisputeEvidence,
  AcquirerPayout,
  ReportPayout,
  BalancePayout,
  PayoutTransaction,
} from '../../core/acquirer';

export interface AcquirerPort {
  readonly name: string;
  getDevice(deviceId: string): Promise<DeviceCapabilities>;
  sendBill(request: SendBillRequest): Promise<SendBillResult>;
  getBillStatus(deviceId: string, acquirerRef: string): Promise<BillStatus>;
  /** Withdraws the bill if still waiting; answers the bill's resulting state (it may have been paid first). */
  withdrawBill(deviceId: string, acquirerRef: string): Promise<BillStatus>;
  /** Submits one reversal of a captured bill; each call is a new reversal attempt. */
  submitVoid(deviceId: string, acquirerRef: string, voidReference: string): Promise<VoidStatus>;
  /** `acquirerRef` is the reversed bill: acquirers that file reversals under the payment (Stripe's refunds) need it. */
  getVoidStatus(deviceId: string, voidReference: string, acquirerRef?: string): Promise<VoidStatus>;
  /**
   * Closes the device's batch: everything settled after `since` (the previous close of this device;
   * null: no earlier bound) up to `until`, and not reported before. Asking again with the same
   * batchReference answers the same report, so a close is safe to retry. An acquirer that keeps
   * its own batches (the sandbox) may ignore `since`; one that answers by time (Stripe's balance
   * transactions) must report exactly this period, so no movement is reported twice.
   */
  closeBatch(deviceId: string, batchReference: string, until: string, since?: string | null): Promise<SettlementReport>;
  /** Completes (captures) a two-step authorisation; answers the bill, CAPTURED with capturedAmount. */
  completeAuthorization(deviceId: string, acquirerRef: string, request: CompleteAuthorizationRequest): Promise<BillStatus>;
  /** Releases a two-step authorisation (the hold on the customer's funds); answers the bill, RELEASED (or CAPTURED if completed first). */
  releaseAuthorization(deviceId: string, acquirerRef: string): Promise<BillStatus>;
  /** Submits a refund of a captured bill, once per refundReference (a repeat answers that refund). */
  refund(deviceId: string, acquirerRef: string, request: RefundRequest): Promise<RefundStatus>;
  /** The refund with this reference; AcquirerRejectedError with status 404 when the acquirer never received it. */
  getRefund(deviceId: string, refundReference: string): Promise<RefundStatus>;
  /** Disputes, where the adapter knows them (disputesOf answers for one that does not). */
  readonly disputes?: AcquirerDisputes;
  /** Payouts of the acquirer's reports (docs/payouts-and-fees.md, "Payouts"); absent: the service learns of none. */
  readonly payouts?: AcquirerPayouts;
}

/** A network failure or timeout: the acquirer's answer is unknown. Retryable. */
export class AcquirerUnreachableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AcquirerUnreachableError';
  }
}

/** The acquirer answered but refused the request as malformed or not allowed. Not retryable. */
export class AcquirerRejectedError extends Error {
  /** `code`: the acquirer's own error code, when it gives one (Stripe's `terminal_reader_busy`, ...). */
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'AcquirerRejectedError';
  }
}

/**
 * Disputes (docs/disputes.md) at an acquirer: a port of its own, so adapters that do not know
 * disputes yet (Stripe, Adyen: later) need not pretend to. Every call is safe to repeat: a second
 * submission or acceptance of the same dispute answers the dispute as it stands.
 */
export interface AcquirerDisputes {
  getDispute(deviceId: string, disputeId: string): Promise<AcquirerDispute>;
  submitDisputeEvidence(deviceId: string, disputeId: string, evidence: DisputeEvidence): Promise<AcquirerDispute>;
  acceptDispute(deviceId: string, disputeId: string): Promise<AcquirerDispute>;
}

/**
 * Payouts (docs/payouts-and-fees.md, "Payouts"). A payout of one report is read under the device whose report it pays; a
 * payout of the account's balance (Stripe) belongs to no device (null).
 */
export interface AcquirerPayouts {
  getPayout(deviceId: string | null, payoutId: string): Promise<AcquirerPayout>;
}

/** The dispute port of an adapter; one without it refuses every call (501) until its mapping exists. */
export function disputesOf(port: AcquirerPort): AcquirerDisputes {
  if (port.disputes) return port.disputes;
  const refuse = (): Promise<never> => Promise.reject(new AcquirerRejectedError(`disputes through ${port.name} are not supported yet`, 501));
  return { getDispute: refuse, submitDisputeEvidence: refuse, acceptDispute: refuse };
}
