import { publishReceiptEvent } from '../../src/receipts/events';
import { sendReceipt } from '../../src/receipts/send';
import { ApplicationFailure } from '@temporalio/common';
import { DomainError } from '../../src/domain/errors';
import { RECEIPT_NOT_SENDABLE, type ReceiptEventInput, type ReceiptWorkflowInput } from '../../core/receipt/messages';
import type { ActivityDeps } from '../deps';

/** The receipt workflow's side effects (docs/receipts.md): one SMTP attempt, and the outcome's event. */
export function receiptActivities(deps: ActivityDeps) {
  return {
    /** One attempt; the workflow's retry policy is the schedule. False: the payment has no address to send to. */
    async sendReceiptEmail(input: ReceiptWorkflowInput): Promise<boolean> {
      try {
        return await sendReceipt(deps, input);
      } catch (err) {
        // A payment with no receipt (never charged) stays so: no retry would change it.
        if (err instanceof DomainError) throw ApplicationFailure.nonRetryable(err.message, RECEIPT_NOT_SENDABLE);
        throw err;
      }
    },
    publishReceiptEvent: (input: ReceiptEventInput): Promise<string> => publishReceiptEvent(deps, input),
  };
}
