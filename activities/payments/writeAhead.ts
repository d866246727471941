import type { RecordedStatusEvent, WrittenAhead } from '../../core/payment/writtenAhead';
import type { RecordStatusEventInput } from './projection';

/**
 * Writes a status event ahead of the workflow's decision (core/payment/writtenAhead.ts), as the
 * workflow would: the payment's projection, its bill told (docs/bills.md). A failed write is left
 * to the workflow, which projects as before (null): the call's answer is never lost to it.
 */
export async function writeAhead(
  recordStatusEvent: (input: RecordStatusEventInput) => Promise<void>,
  projectionFailed: (err: unknown) => void,
  { paymentId, billId }: { paymentId: string; billId?: string },
  record: RecordedStatusEvent,
  occurredAt: string,
): Promise<WrittenAhead | null> {
  try {
    await recordStatusEvent({ paymentId, event: record.event, fields: record.fields, ...(billId ? { billId } : {}) });
  } catch (err) {
    projectionFailed(err);
    return null;
  }
  return { sequence: record.event.sequence, occurredAt };
}
