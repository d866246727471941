import type { ProjectedFields, StatusEvent } from '../../workflows/payment/transition';
import { paymentStatusEvents } from '../../src/observability/metrics';
import type { ActivityDeps } from '../index';

export interface RecordStatusEventInput {
  paymentId: string;
  event: StatusEvent;
  fields: ProjectedFields;
}

/**
 * Writes one status event to the projection: the append-only history entry and the payment row.
 * Idempotent by (payment id, sequence): a retried or replayed activity inserts nothing twice, and
 * the row only moves forward (an older sequence never overwrites a newer one).
 */
export function paymentProjectionActivities({ db }: ActivityDeps) {
  return {
    async recordStatusEvent({ paymentId, event, fields }: RecordStatusEventInput): Promise<void> {
      const [history] = await db.$transaction([
        db.paymentHistory.createMany({
          data: [
            {
              paymentId,
              sequence: event.sequence,
              status: event.status,
              previousStatus: event.previousStatus,
              actionReference: event.actionReference,
              source: event.source,
              occurredAt: new Date(event.occurredAt),
            },
          ],
          skipDuplicates: true,
        }),
        db.payment.updateMany({
          where: { id: paymentId, historySequence: { lt: event.sequence } },
          data: {
            ...fields,
            capturedAt: fields.capturedAt ? new Date(fields.capturedAt) : null,
            historySequence: event.sequence,
          },
        }),
      ]);
      // counted once per status event: a retried activity inserts nothing and counts nothing
      if (history.count > 0) paymentStatusEvents.inc({ status: event.status });
    },
  };
}
