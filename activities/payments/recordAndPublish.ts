import type { PublishPaymentEventInput } from '../webhooks/publishPaymentEvent';
import type { RecordStatusEventInput } from './projection';

export interface RecordAndPublishInput extends RecordStatusEventInput {
  /** The webhook event of the same status event (its sequence, and the refund it is about). */
  publish: Pick<PublishPaymentEventInput, 'sequence' | 'refundId'>;
}

/**
 * The projection of one status event and its webhook event, as one local activity: the two ran
 * back to back, and each local activity costs the run an activation (docs/benchmark.md, "Trips
 * into the sandbox"). Retried as a whole until it succeeds; each half is idempotent (by payment id
 * and sequence), so a retry after the first half writes nothing twice.
 */
export function recordAndPublishActivity(
  recordStatusEvent: (input: RecordStatusEventInput) => Promise<void>,
  publishPaymentEvent: (input: PublishPaymentEventInput) => Promise<string | null>,
) {
  return async function recordStatusEventAndPublish({ publish, ...record }: RecordAndPublishInput): Promise<string | null> {
    await recordStatusEvent(record);
    return publishPaymentEvent({ paymentId: record.paymentId, ...publish });
  };
}
