import type { Client } from '@temporalio/client';
import type { Db } from '../db/client';
import type { Logger } from '../logger';
import { acquirerNotifiedSignal } from '../../workflows/payment/messages';
import { isOpen } from '../../workflows/payment/statuses';

/** A verified acquirer notification (contracts 4). */
export interface AcquirerNotification {
  deviceId: string;
  acquirerRef: string;
  event: string;
  voidReference?: string;
  refundReference?: string;
}

/**
 * A notification is only a nudge: it is passed to the payment's workflow, which re-reads the
 * acquirer and applies what the acquirer says (the workflow is the payment's one writer), so a
 * forged, replayed or stale notification changes nothing. No matching payment: nothing to do.
 */
export async function relayAcquirerNotification(deps: { db: Db; temporal: Client; logger: Logger }, notification: AcquirerNotification): Promise<void> {
  const { deviceId, acquirerRef, event, voidReference, refundReference } = notification;
  const aboutRefund = event === 'REFUND_SUCCEEDED' || event === 'REFUND_FAILED';
  const payment = await deps.db.payment.findFirst({
    where: { acquirerRef, deviceId },
    select: { id: true, workflowId: true, status: true },
  });
  // Only a payment still open, or captured with a reversal to confirm, has anything to re-read.
  // A refund's decision matters whatever the payment's status: its workflow follows the refund.
  if (!payment || !(aboutRefund || isOpen(payment.status) || payment.status === 'CAPTURED')) return;
  try {
    await deps.temporal.workflow
      .getHandle(payment.workflowId)
      .signal(acquirerNotifiedSignal, { event, ...(voidReference ? { voidReference } : {}), ...(refundReference ? { refundReference } : {}) });
  } catch (err) {
    // The workflow is gone: the sweep settles the payment from the acquirer's answer.
    deps.logger.warn({ err: (err as Error).message, paymentId: payment.id }, 'acquirer notification not delivered to the payment workflow');
  }
}
