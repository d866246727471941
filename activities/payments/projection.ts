import type { ProjectedFields, StatusEvent } from '../../workflows/payment/transition';
import { paymentStatusEvents } from '../../src/observability/metrics';
import type { ActivityDeps } from '../index';

export interface RecordStatusEventInput {
  paymentId: string;
  event: StatusEvent;
  fields: ProjectedFields;
}

/**
 * Writes one status event to the projection: the history entry and the payment row.
 * Idempotent by (payment id, sequence): a retried or replayed activity writes nothing twice.
 * The workflow is the only writer, and what its history holds is the truth: an entry left by a
 * workflow task that never completed (the worker died after its local activities ran) is replaced
 * when the replayed task decides differently at that sequence, and the row follows it.
 */
export function paymentProjectionActivities({ db }: ActivityDeps) {
  return {
    async recordStatusEvent({ paymentId, event, fields }: RecordStatusEventInput): Promise<void> {
      const occurredAt = new Date(event.occurredAt);
      const [written] = await db.$transaction([
        db.$executeRaw`
          INSERT INTO "PaymentHistory" ("paymentId", "sequence", "status", "previousStatus", "actionReference", "source", "occurredAt")
          VALUES (${paymentId}, ${event.sequence}, ${event.status}, ${event.previousStatus}, ${event.actionReference}, ${event.source}, ${occurredAt})
          ON CONFLICT ("paymentId", "sequence") DO UPDATE SET
            "status" = EXCLUDED."status", "previousStatus" = EXCLUDED."previousStatus",
            "actionReference" = EXCLUDED."actionReference", "source" = EXCLUDED."source", "occurredAt" = EXCLUDED."occurredAt"
          WHERE ("PaymentHistory"."status", "PaymentHistory"."previousStatus", "PaymentHistory"."actionReference", "PaymentHistory"."source")
            IS DISTINCT FROM (EXCLUDED."status", EXCLUDED."previousStatus", EXCLUDED."actionReference", EXCLUDED."source")`,
        db.payment.updateMany({
          where: { id: paymentId, historySequence: { lte: event.sequence } },
          data: {
            ...fields,
            capturedAt: fields.capturedAt ? new Date(fields.capturedAt) : null,
            ...(fields.settledAt ? { settledAt: new Date(fields.settledAt) } : {}),
            historySequence: event.sequence,
          },
        }),
      ]);
      // counted once per status event: a retried activity writes nothing and counts nothing
      if (written > 0) paymentStatusEvents.inc({ status: event.status });
    },
  };
}
