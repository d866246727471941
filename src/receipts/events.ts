import crypto from 'node:crypto';
import type { DispatchDeps } from '../webhooks/dispatch';
import { receiptEventBody } from '../webhooks/payload';
import { publishEvent } from '../webhooks/publish';
import type { ReceiptEventInput } from '../../core/receipt/messages';
import { maskEmail } from './mask';

/** Each receipt's outcome once: its event id derives from the receipt and the outcome. */
export function receiptEventId(receiptId: string, outcome: string): string {
  return `evt_${crypto.createHash('sha256').update(`receipt:${receiptId}:${outcome}`).digest('hex').slice(0, 32)}`;
}

/**
 * RECEIPT_SENT or RECEIPT_FAILED (docs/receipts.md, "Events"): `data.receipt` `{ paymentId, to,
 * event }`, the address masked. Idempotent: the id derives from (receipt, outcome).
 */
export async function publishReceiptEvent(deps: DispatchDeps, input: ReceiptEventInput): Promise<string> {
  const payment = await deps.db.payment.findUniqueOrThrow({
    where: { id: input.paymentId },
    select: { id: true, merchantId: true, mode: true, customerEmail: true, merchant: { select: { externalId: true } } },
  });
  const address = input.to ?? payment.customerEmail;
  const eventType = input.outcome === 'SENT' ? 'RECEIPT_SENT' : 'RECEIPT_FAILED';
  const eventId = receiptEventId(input.receiptId, input.outcome);
  const body = receiptEventBody(eventId, eventType, payment.merchant.externalId, new Date(), {
    paymentId: payment.id,
    to: address ? maskEmail(address) : null,
    event: input.event,
  });
  return publishEvent(deps, { id: eventId, merchantId: payment.merchantId, mode: payment.mode, paymentId: payment.id, eventType, body });
}
