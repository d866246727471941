import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { ReceiptDetails, SendBillRequest, TipOffer } from '../acquirer';
import type { HistorySource, PaymentMode, PaymentStatus } from './statuses';
import type { ProjectedFields } from './transition';

/**
 * The payment workflow's messages, shared by the API (client side) and the workflow. Updates are
 * the request/response operations; signals are fire-and-forget nudges to re-read the acquirer.
 * Importing this file has no side effects beyond defining names.
 */

/** Workflow id of a payment: derived from the payment id, so operators find it from the payment. */
export const paymentWorkflowId = (paymentId: string): string => `payment-${paymentId}`;
const PAYMENT_WORKFLOW_ID = /^payment-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;
/** The payment of a payment workflow's id (the inverse of paymentWorkflowId); undefined for any other workflow. */
export const paymentIdOfWorkflowId = (workflowId: string): string | undefined => PAYMENT_WORKFLOW_ID.exec(workflowId)?.[1];
export const PAYMENT_WORKFLOW_TYPE = 'paymentWorkflow';
/**
 * The payment workflow's signature (workflows/payment/paymentWorkflow.ts keeps it): the service
 * types its starts and handles with it, `workflow.start<PaymentWorkflow>(PAYMENT_WORKFLOW_TYPE, ...)`,
 * and never imports workflow code.
 */
export type PaymentWorkflow = (input: PaymentWorkflowInput) => Promise<PaymentOutcome>;

/** The longest pause between retries of a call the workflow must get answered, whatever the sweep cycle. */
export const ACQUIRER_RETRY_MAX_MS = 60_000;

/** Durations the workflow works with, fixed when its run starts (from configuration). */
export interface PaymentTiming {
  /** How long the device waits for the customer (terminalTimeoutMinutes). */
  terminalTimeoutMs: number;
  /** VOID_WINDOW_MINUTES, counted from capturedAt. */
  voidWindowMs: number;
  /** VOID_CONFIRM_TIMEOUT_SECONDS: how long a void request waits for the acquirer's confirmation. */
  voidConfirmTimeoutMs: number;
  /** How long a create (or any update) waits for the bill to reach the device before answering. */
  placementWaitMs: number;
  /**
   * Longest pause between server-side retries of a call that must get an answer (probe, expiry):
   * one sweep cycle, at most ACQUIRER_RETRY_MAX_MS, so a payment settles within a cycle of the
   * acquirer coming back. Absent in runs started before it existed (then ACQUIRER_RETRY_MAX_MS).
   */
  acquirerRetryMaxMs?: number;
  /** AUTHORIZATION_WINDOW_MINUTES, from the approval. Absent in runs started before it existed (then the default). */
  authorizationWindowMs?: number;
  /** REFUND_CONFIRM_TIMEOUT_SECONDS: how long a refund request waits for the acquirer's decision. */
  refundConfirmTimeoutMs?: number;
}

/** Defaults for runs started before the two-step and refund settings existed. */
export const DEFAULT_AUTHORIZATION_WINDOW_MS = 2160 * 60_000;
export const DEFAULT_REFUND_CONFIRM_TIMEOUT_MS = 10_000;

/**
 * Everything a run needs, taken from the payment row. A first run starts from CREATED; a run
 * started later (the sweep or a request finding the workflow gone) starts from the row's state.
 */
export interface PaymentWorkflowInput {
  paymentId: string;
  pspReference: string;
  merchantExternalId: string;
  storeExternalId: string;
  terminalExternalId: string;
  reference: string | null;
  deviceId: string;
  amount: string; // exact decimal text
  /** The amount asked, once a card approved less (the row's requestedAmount); absent otherwise and in older runs. */
  requestedAmount?: string;
  /** The card may approve less than asked (partial authorisation); absent in runs started before it existed: false. */
  allowPartialAuthorisation?: boolean;
  /** The tip on top of amount (exact decimal text, docs/tips.md): the POS's, or the one the customer chose; absent in older runs: none. */
  tipAmount?: string;
  /** tip "ASK": what the terminal offers the customer; absent when the payment did not ask. */
  tipOffer?: TipOffer;
  currency: string;
  /** The bill it is a tender of (docs/bills.md); absent for a payment without a bill, and in runs from before bills. */
  billId?: string;
  /** Modes sent to the device: the requested ones, or every mode when none was requested. */
  modes: PaymentMode[];
  paymentMethod: PaymentMode | null;
  createdAtMs: number;
  /** When a bill nobody decided is withdrawn and the payment EXPIRED: terminal timeout plus grace (the row's expiresAt). */
  expiresAtMs: number;
  timing: PaymentTiming;
  /** Snapshot of the projection at start. */
  status: PaymentStatus;
  historySequence: number;
  acquirerRef: string | null;
  capturedAtMs: number | null;
  /** When settlement applied to the row (absent in runs started before settlement existed). */
  settledAtMs?: number | null;
  /** Absent in runs started before two-step completion existed: those follow what the device says. */
  twoStep?: boolean;
  authorizedAtMs?: number | null;
  /** Exact decimal texts from the row (absent in older runs). */
  capturedAmount?: string | null;
  refundedAmount?: string;
  /**
   * Refunds whose rows were PENDING when this run started (absent in older runs): an earlier run
   * took them and ended without deciding them (terminated, lost). This run follows them to their
   * decision with the same acquirer references.
   */
  pendingRefunds?: PendingRefund[];
  /** Who started this run: API for creation, SWEEP when the sweep found the workflow missing. */
  startedBy: HistorySource;
  /** Receipt details for the acquirer; absent in runs started before they were passed through. */
  receipt?: ReceiptDetails;
  /**
   * Who takes the payment, fixed at creation (docs/acquirers.md, "Routes and the decision"): its acquirer account, else the
   * installation's acquirer it names. Passed to the bill's first send so that it needs no read of
   * the row; absent in runs started before it was passed (the activity reads the row then).
   */
  takenBy?: TakenBy;
}

/** The acquirer of record of a payment: the installation's acquirer by name, and the account when one took it. */
export interface TakenBy {
  acquirerName: string;
  acquirerAccountId: string | null;
}

/** The bill's send as the workflow asks for it: the acquirer's request, and who takes the payment when the run knows it. */
export type PlaceBillRequest = SendBillRequest & { takenBy?: TakenBy };

/** What every update answers: the status after the operation, and why it did not happen when it did not. */
export interface PaymentOutcome {
  status: PaymentStatus;
  sequence: number;
  notice?: PaymentNotice;
  message?: string;
  /** The refund a refund update created (or found by its idempotency key). */
  refund?: { id: string; status: RefundStatusName };
  /**
   * placeBill's answer once the placement is decided: the fields its projection wrote and that
   * status event's time (the row's updatedAt), so the create answers without reading the row again.
   */
  placed?: { fields: ProjectedFields; occurredAt: string };
}
export type RefundStatusName = 'PENDING' | 'SUCCEEDED' | 'FAILED';
export type PaymentNotice =
  /** The acquirer did not answer in time; nothing changed. */
  | 'ACQUIRER_UNREACHABLE'
  /** The reversal was accepted (or its answer lost) but is not confirmed yet. */
  | 'VOID_PENDING'
  /** The acquirer refused the reversal. */
  | 'VOID_REJECTED'
  /** The acquirer refused to complete the authorisation (it was released or completed meanwhile). */
  | 'CAPTURE_REJECTED'
  /** The same Idempotency-Key came with another request body. */
  | 'IDEMPOTENCY_MISMATCH';

/** Two-step completion: the amount to capture (exact decimal text), all of it when absent. */
export interface CaptureRequest {
  amount?: string;
}

/** A refund request as the API hands it to the payment's workflow (the one writer). */
export interface RefundRequestInput {
  /** Minted by the API; the acquirer's refundReference derives from it. */
  refundId: string;
  /** Exact decimal text; absent: all that is still refundable. */
  amount?: string;
  reason: string | null;
  createdBy: string;
  createdByUserId: number | null;
  idempotencyKey: string | null;
  requestFingerprint: string | null;
}
/** A refund row left PENDING (exact decimal amount), handed to a run that does not follow it yet. */
export interface PendingRefund {
  id: string;
  amount: string;
  reason: string | null;
  createdBy: string;
  createdByUserId: number | null;
  idempotencyKey: string | null;
  requestFingerprint: string | null;
}
/** The stable reference of a refund at the acquirer. */
export const refundReferenceOf = (refundId: string): string => `REFUND-${refundId}`;

/** Start update of creation (update-with-start): answers once the bill is on the device or refused, or after placementWaitMs. */
export const placeBillUpdate = defineUpdate<PaymentOutcome, []>('placeBill');
/** sync-status: re-read the acquirer and apply what it says. */
export const syncStatusUpdate = defineUpdate<PaymentOutcome, []>('syncStatus');
/** cancel: withdraw the bill at the acquirer. */
export const cancelUpdate = defineUpdate<PaymentOutcome, []>('cancel');
/** void: submit a reversal of the capture (each call a new one). */
export const voidUpdate = defineUpdate<PaymentOutcome, []>('void');
/** Settlement (docs/settlement.md): the payment is in a batch the acquirer reported; applied once. */
export interface SettleRequest {
  batchId: string;
}
export const settleUpdate = defineUpdate<PaymentOutcome, [SettleRequest]>('settle');
/** Two-step completion: capture the authorisation (docs/payments.md, "Two-step completion"). */
export const captureUpdate = defineUpdate<PaymentOutcome, [CaptureRequest]>('capture');
/** A refund by a dashboard user (docs/refunds.md): reserved, recorded, submitted and followed by the workflow. */
export const refundUpdate = defineUpdate<PaymentOutcome, [RefundRequestInput]>('refund');
/** terminal:clear (operator only): force the bill off the device; the payment ends CANCELLED unless the customer already decided. */
export const operatorClearUpdate = defineUpdate<PaymentOutcome, []>('operatorClear');

export interface AcquirerNudge {
  event: string;
  voidReference?: string;
  refundReference?: string;
}
/** The acquirer sent a (verified) notification: only a reason to re-read, never the outcome itself. */
export const acquirerNotifiedSignal = defineSignal<[AcquirerNudge]>('acquirerNotified');
/**
 * A dispute of this payment opened or moved on (docs/disputes.md, "The payment side"), from the dispute's workflow: while
 * one is NEEDS_RESPONSE or UNDER_REVIEW, refunds and voids are refused. The dispute's row is
 * written before this is sent, so a run started later reads the same from the rows.
 */
export interface DisputeChange {
  disputeId: string;
  status: string;
}
export const disputeChangedSignal = defineSignal<[DisputeChange]>('disputeChanged');

/** The sweep found this payment open past its expiry: re-read and settle. */
export const sweepNudgeSignal = defineSignal<[]>('sweepNudge');

/**
 * The sweep found refund rows PENDING that this run does not follow (a run that ended or lost
 * them): follow them to their decision, with the same acquirer references.
 */
export const resumeRefundsSignal = defineSignal<[PendingRefund[]]>('resumeRefunds');

/** The workflow's own view (for operators, the sweep and tests); `refunds`: the ids of the refunds this run follows. */
export const paymentStateQuery = defineQuery<{
  status: PaymentStatus;
  sequence: number;
  acquirerRef: string | null;
  pendingVoids: string[];
  refunds?: string[];
}>('paymentState');
