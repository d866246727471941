import { type Client, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { acquirerKeyOf, resolverOf } from '../acquirer/resolver';
import type { Acquirers } from '../acquirer/acquirers';
import { disputesOf } from '../acquirer/port';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Logger } from '../logger';
import { DISPUTE_WORKFLOW_TYPE, disputeNudgeSignal, type DisputeWorkflowInput, disputeWorkflowId } from '../../core/dispute/messages';
import { disputeIdOf } from './ids';

/**
 * An acquirer's dispute notification (docs/disputes.md, "Opening: one notification or five, one dispute"), verified by the caller: only a nudge, like
 * every notification. The dispute is read from the acquirer; one we do not know yet starts its
 * workflow `dispute-<id>` (the id derives from the acquirer's, so a notification that arrives
 * twice, in any number of API processes, starts one workflow and records one dispute); one we
 * know is nudged to re-read the acquirer (a decision).
 */
export interface DisputeNotification {
  /** The device, where the acquirer names it (the sandbox); Stripe and Adyen name only the bill. */
  deviceId?: string;
  acquirerRef: string;
  /** The acquirer's id of the dispute. */
  disputeId: string;
}

export interface DisputeRelayDeps {
  db: Db;
  temporal: Client;
  acquirers: Acquirers;
  config: Config;
  logger: Logger;
}

/** The path's payments: an acquirer account's (null: the installation default's), of one acquirer. */
export type DisputeScope = { acquirerAccountId: string | null; acquirerName?: string };

export async function relayDisputeNotification(deps: DisputeRelayDeps, n: DisputeNotification, scope?: DisputeScope): Promise<void> {
  const payment = await deps.db.payment.findFirst({
    where: {
      acquirerRef: n.acquirerRef,
      ...(n.deviceId ? { deviceId: n.deviceId } : {}),
      ...(scope ? { acquirerAccountId: scope.acquirerAccountId } : {}),
      ...(scope?.acquirerName ? { acquirerName: scope.acquirerName } : {}),
    },
    select: { id: true, acquirerRef: true, deviceId: true, acquirerName: true, acquirerAccountId: true },
  });
  if (!payment) return; // not a payment of ours: nothing to do
  const deviceId = n.deviceId ?? payment.deviceId;
  if (!deviceId) return; // a payment never placed on a device was never captured
  const acquirerKey = acquirerKeyOf(payment);
  const disputeId = disputeIdOf(acquirerKey, n.disputeId);
  if (await deps.db.dispute.findUnique({ where: { id: disputeId }, select: { id: true } })) return nudge(deps, disputeId);

  let read;
  try {
    read = await disputesOf(await resolverOf(deps).ofRecord(payment)).getDispute(deviceId, n.disputeId);
  } catch (err) {
    deps.logger.warn({ err: (err as Error).message, paymentId: payment.id }, 'dispute notification: the acquirer did not answer the read');
    return;
  }
  if (read.acquirerRef !== payment.acquirerRef) return; // the acquirer says it is another bill's
  const input: DisputeWorkflowInput = {
    disputeId,
    paymentId: payment.id,
    acquirerDisputeId: n.disputeId,
    acquirerKey,
    deviceId,
    reason: read.reason,
    amount: read.amount,
    currency: read.currency,
    openedAt: read.openedAt,
    dueBy: read.dueBy,
    timing: {
      reminderMs: Math.round(deps.config.DISPUTE_REMINDER_HOURS * 3_600_000),
      decisionCheckMs: Math.round(deps.config.DISPUTE_DECISION_CHECK_MINUTES * 60_000),
    },
    // First heard of after it moved on (the notification of its opening was lost): recorded all the same, then caught up.
    ...(read.status !== 'NEEDS_RESPONSE' ? { seenAs: read.status } : {}),
  };
  try {
    await deps.temporal.workflow.start(DISPUTE_WORKFLOW_TYPE, {
      args: [input],
      taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
      workflowId: disputeWorkflowId(disputeId),
      // One workflow per dispute, ever: a second notification meets the first run, running or closed.
      workflowIdConflictPolicy: 'FAIL',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

async function nudge(deps: DisputeRelayDeps, disputeId: string): Promise<void> {
  try {
    await deps.temporal.workflow.getHandle(disputeWorkflowId(disputeId)).signal(disputeNudgeSignal);
  } catch (err) {
    // Its workflow has ended: the dispute is final, there is nothing to re-read.
    deps.logger.debug?.({ err: (err as Error).message, disputeId }, 'dispute notification for a closed dispute');
  }
}
