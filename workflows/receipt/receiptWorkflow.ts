import { ActivityFailure, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { RECEIPT_NOT_SENDABLE, type ReceiptWorkflowInput, type ReceiptWorkflowResult } from '../../core/receipt/messages';
import { autoUpgradeWhenVersioned } from '../versioning';

/**
 * Sends one receipt email (docs/receipts.md, "Emails"). The send activity's retry policy is the
 * retry schedule: back-off from one second, doubling, capped at RECEIPT_RETRY_MAX_INTERVAL_SECONDS,
 * for at most RECEIPT_RETRY_MAX_AGE_HOURS (schedule-to-close); Temporal keeps only the last failure
 * in history. Sent: RECEIPT_SENT; the schedule spent: RECEIPT_FAILED. The event is published by an
 * activity of its own, so a failure to record it never sends the email again.
 */
export async function receiptWorkflow(input: ReceiptWorkflowInput): Promise<ReceiptWorkflowResult> {
  const { sendReceiptEmail } = proxyActivities<Activities>({
    // The SMTP client's own timeouts are shorter (src/receipts/mailer.ts); this catches an attempt lost with its worker.
    startToCloseTimeout: input.retry.attemptTimeoutMs,
    scheduleToCloseTimeout: input.retry.maxAgeMs,
    retry: {
      initialInterval: '1 second',
      backoffCoefficient: 2,
      maximumInterval: input.retry.maximumIntervalMs,
      nonRetryableErrorTypes: [RECEIPT_NOT_SENDABLE],
    },
  });
  const { publishReceiptEvent } = proxyActivities<Activities>({ startToCloseTimeout: '30 seconds', retry: { maximumInterval: '30 seconds' } });
  const about = { receiptId: input.receiptId, paymentId: input.paymentId, event: input.event, ...(input.to ? { to: input.to } : {}) };
  try {
    if (!(await sendReceiptEmail(input))) return 'NO_ADDRESS';
    await publishReceiptEvent({ ...about, outcome: 'SENT' });
    return 'SENT';
  } catch (err) {
    // Only the end of the schedule (or a receipt that cannot be built) is RECEIPT_FAILED; anything else stays a visible failing task.
    if (!(err instanceof ActivityFailure)) throw err;
    await publishReceiptEvent({ ...about, outcome: 'FAILED' });
    return 'FAILED';
  }
}
// Retried up to a day: moves to the current build at its next task (workflows/versioning.ts).
autoUpgradeWhenVersioned(receiptWorkflow);
