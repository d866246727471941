import type { BillStatus } from '../../core/acquirer';
import { observedStatusEvent, type ReadAndRecordInput, type ReadAndRecordResult } from '../../core/payment/observation';
import type { RecordStatusEventInput } from './projection';
import { writeAhead } from './writeAhead';

/**
 * A read of the bill and, when it brings a status event, its projection, as one local activity:
 * the two ran back to back and each local activity costs the run an activation (docs/benchmark.md,
 * "Trips into the sandbox"). The status event is decided by core/payment/observation.ts from the
 * state the workflow asked with; the workflow adopts it or writes its own over it. A failed write
 * is left to the workflow (it projects as before): the read's answer is never lost to it.
 */
export function readAndRecordActivity(
  readBill: (ref: { deviceId: string; acquirerRef: string }) => Promise<BillStatus>,
  recordStatusEvent: (input: RecordStatusEventInput) => Promise<void>,
  projectionFailed: (err: unknown) => void = () => undefined,
) {
  return async function readBillAndRecord({ paymentId, deviceId, acquirerRef, state, source, billId }: ReadAndRecordInput): Promise<ReadAndRecordResult> {
    const bill = await readBill({ deviceId, acquirerRef });
    const occurredAt = new Date().toISOString();
    const record = observedStatusEvent(state, bill, source, occurredAt);
    if (!record) return { bill, projected: null };
    // No refund to pass (observedStatusEvent writes none ahead); the capture's expected fee is priced by recordStatusEvent itself.
    return { bill, projected: await writeAhead(recordStatusEvent, projectionFailed, { paymentId, billId }, record, occurredAt) };
  };
}
