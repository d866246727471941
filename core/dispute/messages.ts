import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { DisputeReason, DisputeStatus } from './statuses';

/**
 * The dispute workflow's messages (docs/disputes.md), shared by the API (client
 * side) and the workflow. The merchant's answers are updates, validated against the run's state
 * before anything enters history; the acquirer's news is a signal, only a reason to re-read it.
 */
export const DISPUTE_WORKFLOW_TYPE = 'disputeWorkflow';
export const disputeWorkflowId = (disputeId: string): string => `dispute-${disputeId}`;

/** Durations fixed when the run starts (from configuration). */
export interface DisputeTiming {
  /** DISPUTE_REMINDER_HOURS: the DISPUTE_RESPONSE_DUE event this long before dueBy. */
  reminderMs: number;
  /** While UNDER_REVIEW, the acquirer is re-read this often even without a notification (one lost is repaired). */
  decisionCheckMs: number;
}

/** Everything a run needs: the acquirer's dispute as read when its notification came, and the payment it is about. */
export interface DisputeWorkflowInput {
  disputeId: string;
  paymentId: string;
  acquirerDisputeId: string;
  /** The acquirer key of the dispute's unique id (the payment's account, or `installation:<name>`). */
  acquirerKey: string;
  /** Where the acquirer is reached: the payment's device. */
  deviceId: string;
  reason: DisputeReason;
  amount: string; // exact decimal text
  currency: string;
  openedAt: string; // ISO
  dueBy: string; // ISO
  timing: DisputeTiming;
  /**
   * The acquirer's status when the service first heard of the dispute, where it had already moved
   * on (the notification of its opening was lost): the run opens it, then catches up with the
   * acquirer. Absent: heard of while it awaited a response, as usual.
   */
  seenAs?: 'UNDER_REVIEW' | 'WON' | 'LOST' | 'ACCEPTED';
}

/** What every answer update returns: the dispute's status after it. */
export interface DisputeOutcome {
  status: DisputeStatus;
}

/** The merchant's statement (1-20000 characters), saved while NEEDS_RESPONSE. */
export interface SaveEvidenceRequest {
  text: string;
}

export const saveDisputeEvidenceUpdate = defineUpdate<DisputeOutcome, [SaveEvidenceRequest]>('saveDisputeEvidence');
/** Sends the evidence to the acquirer: UNDER_REVIEW. */
export const submitDisputeUpdate = defineUpdate<DisputeOutcome, []>('submitDispute');
/** Accepts the dispute at the acquirer: ACCEPTED (final). */
export const acceptDisputeUpdate = defineUpdate<DisputeOutcome, []>('acceptDispute');
/** The acquirer notified a change (a decision): the run re-reads the acquirer; the notification itself decides nothing. */
export const disputeNudgeSignal = defineSignal<[]>('disputeNudge');

export const disputeStateQuery = defineQuery<{ status: DisputeStatus; reminded: boolean; hasStatement: boolean }>('disputeState');
