import { defineSignal } from '@temporalio/workflow';

/**
 * The payout workflow's messages (docs/payouts-and-fees.md, "Payouts"). One workflow per
 * acquirer payout (`payout-<id>`, the id derived from the acquirer's): it records the payout,
 * reconciles it with the batches it pays once they are reconciled, and announces its outcome.
 */
export const PAYOUT_WORKFLOW_TYPE = 'payoutWorkflow';
export const payoutWorkflowId = (payoutId: string): string => `payout-${payoutId}`;

/**
 * What the workflow is told: whose payout it is, and what it pays: one report of the sandbox
 * (its device and our batch; inputs recorded before Stripe's payouts carry no `pays`), or the
 * account's balance (Stripe), tied to batches through its balance transactions.
 */
export type PayoutWorkflowInput = PayoutOwner & (ReportPayoutInput | BalancePayoutInput);

interface PayoutOwner {
  payoutId: string;
  merchantId: string;
  mode: string;
  /** The account whose payout it is; null: the installation's sandbox. */
  acquirerAccountId: string | null;
  acquirerKey: string;
  acquirerPayoutId: string;
  /** While IN_TRANSIT, the acquirer is re-read this often even without a notification (one lost is repaired). */
  recheckMs: number;
}

export interface ReportPayoutInput {
  pays?: 'REPORT';
  deviceId: string;
  batchId: string;
}

export interface BalancePayoutInput {
  pays: 'BALANCE';
  /** After PAID, how long a later failure is still heard (Stripe: a payout may show paid, then failed); absent: not watched. */
  paidWatchMs?: number;
}

/** What one look at the payout found. */
export interface PayoutSync {
  status: 'IN_TRANSIT' | 'PAID' | 'FAILED';
  /** The batch it pays is reconciled, so the payout is too (reconciled or PAYOUT_MISMATCH). */
  reconciledWithBatch: boolean;
}

/** News of the payout (a notification) or of its batch: re-read now. */
export const payoutNudgeSignal = defineSignal('payoutNudge');
