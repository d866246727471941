import crypto from 'node:crypto';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { amountText } from '../money/amountText';
import type { DispatchDeps } from '../webhooks/dispatch';
import { disputeEventBody } from '../webhooks/payload';
import { publishEvent } from '../webhooks/publish';
import type { DisputeStatus } from '../../core/dispute/statuses';
import type { DisputeEventType } from '../../core/dispute/transition';

/** Each dispute event once per dispute (DISPUTE_CLOSED on its one final status): its id derives from both. */
export function disputeEventId(disputeId: string, eventType: DisputeEventType): string {
  return `evt_${crypto.createHash('sha256').update(`dispute:${disputeId}:${eventType}`).digest('hex').slice(0, 32)}`;
}

/**
 * Records a dispute's webhook event (the payment's data as its row stands, the dispute's status
 * as given) and hands it to every destination that selects it. Idempotent like the payment
 * events: the id derives from (dispute, event type), the row is written once, each delivery
 * started once.
 */
export async function publishDisputeEvent(
  deps: DispatchDeps & { config: Config; db: Db },
  disputeId: string,
  eventType: DisputeEventType,
  /** The status the event announces, as the workflow decided it (a retried publish may find the row moved on). */
  status: DisputeStatus,
): Promise<string> {
  const d = await deps.db.dispute.findUniqueOrThrow({ where: { id: disputeId }, include: { payment: { include: { merchant: true } } } });
  const eventId = disputeEventId(d.id, eventType);
  const at = eventType === 'DISPUTE_OPENED' ? d.openedAt : eventType === 'DISPUTE_UNDER_REVIEW' ? (d.submittedAt ?? new Date()) : (d.closedAt ?? new Date());
  const body = disputeEventBody(eventId, eventType, d.payment.merchant.externalId, d.payment, eventType === 'DISPUTE_RESPONSE_DUE' ? new Date() : at, {
    id: d.id,
    status,
    reason: d.reason,
    amount: amountText(d.amount, d.currency),
    currency: d.currency,
    dueBy: d.dueBy.toISOString(),
  });
  return publishEvent(deps, { id: eventId, merchantId: d.merchantId, mode: d.mode, paymentId: d.paymentId, eventType, body });
}
