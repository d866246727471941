import type { SendBillResult } from '../../core/acquirer';
import type { PlaceBillRequest } from '../../core/payment/messages';
import { placedStatusEvent, type SendAndRecordInput, type SendAndRecordResult } from '../../core/payment/placement';
import type { RecordStatusEventInput } from './projection';
import { writeAhead } from './writeAhead';

/**
 * The first send of a bill and, once the device holds it, its projection, as one local activity:
 * the two ran back to back and each local activity costs the run an activation (docs/benchmark.md,
 * "Trips into the sandbox"). The status event is decided by core/payment/placement.ts from the
 * state the workflow sent with; the workflow adopts it or writes its own over it. A failed write
 * is left to the workflow (it projects as before): the send's answer is never lost to it.
 */
export function sendAndRecordActivity(
  sendBill: (request: PlaceBillRequest) => Promise<SendBillResult>,
  recordStatusEvent: (input: RecordStatusEventInput) => Promise<void>,
  projectionFailed: (err: unknown) => void = () => undefined,
) {
  return async function sendBillAndRecord({ request, state, billId }: SendAndRecordInput): Promise<SendAndRecordResult> {
    const sent = await sendBill(request);
    if (sent.outcome !== 'ON_DEVICE') return { sent, projected: null };
    const occurredAt = new Date().toISOString();
    const record = placedStatusEvent(state, sent.acquirerRef, occurredAt);
    if (!record) return { sent, projected: null };
    return { sent, projected: await writeAhead(recordStatusEvent, projectionFailed, { paymentId: request.paymentId, billId }, record, occurredAt) };
  };
}
