import type { Db } from '../db/client';
import type { Payment } from '../generated/prisma/client';
import type { PaymentView } from '../fees/visibility';
import { toHistoryEntry, toPaymentRecord } from '../payments/record';

/**
 * One payment as the dashboard shows it: the record (with its mode), its status history newest
 * first, and, for callers who may see webhooks, the events sent for it with each destination's
 * delivery; `expectedFee` for callers who may read cost contracts (`view`). Refunds have their own list (GET /api/dashboard/payments/{id}/refunds).
 */
export async function paymentDetail(db: Db, payment: Payment, opts: { withWebhooks: boolean; view: PaymentView }) {
  const [history, events] = await Promise.all([
    db.paymentHistory.findMany({ where: { paymentId: payment.id }, orderBy: { sequence: 'desc' } }),
    opts.withWebhooks
      ? db.webhookEvent.findMany({
          where: { merchantId: payment.merchantId, paymentId: payment.id },
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          include: { deliveries: { include: { config: true }, orderBy: { createdAt: 'asc' } } },
        })
      : Promise.resolve(null),
  ]);
  return {
    ...toPaymentRecord(payment, opts.view),
    history: history.map(toHistoryEntry),
    webhookEvents:
      events?.map((e) => ({
        eventId: e.id,
        eventType: e.eventType,
        createdAt: e.createdAt.toISOString(),
        deliveries: e.deliveries.map((d) => ({
          configId: d.configId,
          url: d.config.url,
          status: d.status,
          attempts: d.attempts,
          updatedAt: d.updatedAt.toISOString(),
        })),
      })) ?? null,
  };
}
