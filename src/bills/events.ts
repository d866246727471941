import crypto from 'node:crypto';
import Decimal from 'decimal.js';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { amountText } from '../money/amountText';
import type { DispatchDeps } from '../webhooks/dispatch';
import { billEventBody } from '../webhooks/payload';
import { publishEvent } from '../webhooks/publish';
import { paidOf } from '../../core/bill/tenders';
import type { BillEventType, BillState } from '../../core/bill/transition';

/** Each bill event once per bill: its id derives from both. */
export function billEventId(billId: string, eventType: BillEventType): string {
  return `evt_${crypto.createHash('sha256').update(`bill:${billId}:${eventType}`).digest('hex').slice(0, 32)}`;
}

/**
 * Records a bill's webhook event, its data the bill as the workflow decided it (docs/bills.md,
 * "Events"): `data.bill` with its tenders and, on a bill given back, the cash and other tenders to
 * hand back at the till. Idempotent: the id derives from (bill, event type).
 */
export async function publishBillEvent(
  deps: DispatchDeps & { config: Config; db: Db },
  billId: string,
  eventType: BillEventType,
  state: BillState,
): Promise<string> {
  const b = await deps.db.bill.findUniqueOrThrow({ where: { id: billId }, include: { merchant: { select: { externalId: true } } } });
  const money = (v: string) => amountText(new Decimal(v), b.currency);
  const eventId = billEventId(b.id, eventType);
  // Tenders the till took itself (no payment): only the till can hand them back.
  const tillTenders = state.tenders.filter((t) => t.paymentId === null);
  const bill = {
    id: b.id,
    reference: b.reference,
    amount: money(b.amount.toFixed()),
    paidAmount: money(paidOf(state.tenders).toFixed()),
    currency: b.currency,
    status: state.status,
    tenders: [...state.tenders]
      .sort((x, y) => x.sequenceNumber - y.sequenceNumber)
      .map((t) => ({
        paymentId: t.paymentId,
        sequenceNumber: t.sequenceNumber,
        status: t.status,
        method: t.method,
        amount: money(t.amount),
        requestedAmount: money(t.requestedAmount),
        tipAmount: money(t.tipAmount),
      })),
    toReturnAtTill: eventType === 'BILL_PAID' ? [] : tillTenders.map((t) => ({ method: t.method, amount: money(t.amount), reference: t.reference })),
  };
  const at = state.closedAt ? new Date(state.closedAt) : new Date();
  return publishEvent(deps, {
    id: eventId,
    merchantId: b.merchantId,
    mode: b.mode,
    paymentId: null,
    eventType,
    body: billEventBody(eventId, eventType, b.merchant.externalId, at, bill),
  });
}
