import crypto from 'node:crypto';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { minorUnitsOf } from '../money/currencies';
import type { DispatchDeps } from '../webhooks/dispatch';
import { payoutEventBody } from '../webhooks/payload';
import { publishEvent } from '../webhooks/publish';

export type PayoutEventType = 'PAYOUT_PAID' | 'PAYOUT_FAILED';

/** Each payout event once per payout: its id derives from both. */
export const payoutEventId = (payoutId: string, eventType: PayoutEventType): string =>
  `evt_${crypto.createHash('sha256').update(`payout:${payoutId}:${eventType}`).digest('hex').slice(0, 32)}`;

/**
 * Records a payout's webhook event (data.payout as the row stands, reconciliation included) and
 * hands it to every destination that selects it. Idempotent: the row is written once, each
 * delivery started once.
 */
export async function publishPayoutEvent(deps: DispatchDeps & { config: Config; db: Db }, payoutId: string, eventType: PayoutEventType): Promise<string> {
  const p = await deps.db.payout.findUniqueOrThrow({ where: { id: payoutId }, include: { merchant: true } });
  const eventId = payoutEventId(p.id, eventType);
  const minor = minorUnitsOf(p.currency);
  const body = payoutEventBody(eventId, eventType, p.merchant.externalId, p.updatedAt, {
    id: p.id,
    acquirerAccountId: p.acquirerAccountId,
    acquirerPayoutId: p.acquirerPayoutId,
    status: p.status,
    amount: p.amount.toFixed(minor),
    currency: p.currency,
    arrivalDate: p.arrivalDate,
    expectedAmount: p.expectedAmount === null ? null : p.expectedAmount.toFixed(minor),
    reconciled: p.reconciled,
    failureReason: p.failureReason,
  });
  return publishEvent(deps, { id: eventId, merchantId: p.merchantId, mode: p.mode, paymentId: null, eventType, body });
}
