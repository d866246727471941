import type { SendBillResult } from '../acquirer';
import type { PlaceBillRequest } from './messages';
import { type PaymentState, transition } from './transition';
import type { RecordedStatusEvent, WrittenAhead } from './writtenAhead';

/**
 * The first send of a bill and its projection as one local activity (docs/benchmark.md, "Trips
 * into the sandbox"): the status event the projection needs is the one the workflow would decide
 * for BILL_PLACED, but only the send knows the device's reference. The activity computes it with
 * the same pure function, from the state the workflow held when it sent, and writes it; the
 * workflow stays the one writer (docs/architecture.md, "One writer per payment"): it adopts that
 * write only when nothing changed the payment meanwhile (aheadStands, writtenAhead.ts), and otherwise applies
 * its own decision, whose projection at the same sequence is written after (local activities run
 * one at a time, oneAtATime.ts) and replaces it.
 */

/** The combined local activity's input (activities/payments/sendAndRecord.ts). */
export interface SendAndRecordInput {
  request: PlaceBillRequest;
  /** The payment as the workflow held it when it sent: the projection is decided from it. */
  state: PaymentState;
  /** The payment's bill, told of the status event (docs/bills.md). */
  billId?: string;
}

export interface SendAndRecordResult {
  sent: SendBillResult;
  /** The AWAITING_TERMINAL projection written ahead of the workflow's decision; null when none was (not placed, or the write failed). */
  projected: WrittenAhead | null;
}

/** The status event a placed bill makes from `atSend`, or null when the placement would not be a plain AWAITING_TERMINAL (then nothing is written ahead). */
export function placedStatusEvent(atSend: PaymentState, acquirerRef: string, now: string): RecordedStatusEvent | null {
  if (atSend.status !== 'CREATED') return null;
  const { state, effects } = transition(atSend, { type: 'BILL_PLACED', acquirerRef }, { now });
  const record = effects.find((e): e is RecordedStatusEvent => e.type === 'RECORD_STATUS_EVENT');
  if (state.status !== 'AWAITING_TERMINAL' || !record || effects.some((e) => e.type === 'COMPLETE_AUTHORIZATION')) return null;
  return record;
}
