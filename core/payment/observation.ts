import type { BillStatus } from '../acquirer';
import type { RecordedStatusEvent, WrittenAhead } from './writtenAhead';
import type { HistorySource } from './statuses';
import { type PaymentState, transition } from './transition';

/**
 * A read of the bill and its projection as one local activity (docs/benchmark.md, "Trips into the
 * sandbox"), as the first send does with its own (placement.ts): the activity decides the status
 * event with `transition()` for BILL_OBSERVED from the state the workflow held when it asked, writes
 * it, and the workflow adopts that write only when nothing changed the payment meanwhile
 * (aheadStands, writtenAhead.ts); otherwise its own decision at that sequence is written after it and replaces it
 * (docs/architecture.md, "One writer per payment").
 */

/** The combined local activity's input (activities/payments/readAndRecord.ts). */
export interface ReadAndRecordInput {
  paymentId: string;
  deviceId: string;
  acquirerRef: string;
  /** The payment as the workflow held it when it asked: the projection is decided from it. */
  state: PaymentState;
  /** Who asked the read (the status event's source). */
  source: HistorySource;
  /** The payment's bill, told of the status event (docs/bills.md). */
  billId?: string;
}

export interface ReadAndRecordResult {
  bill: BillStatus;
  /** The status event written ahead of the workflow's decision; null when none was (nothing to write ahead, or the write failed). */
  projected: WrittenAhead | null;
}

/**
 * The status event a read brings from `atRead`, or null when nothing is to be written ahead: no
 * status event, a one-step terminal's completion (an acquirer call the workflow makes between the
 * read and the projection), or anything but one plain status event (a refund decided with it).
 */
export function observedStatusEvent(atRead: PaymentState, bill: BillStatus, source: HistorySource, now: string): RecordedStatusEvent | null {
  const { effects } = transition(atRead, { type: 'BILL_OBSERVED', bill, cause: 'READ', source }, { now });
  const records = effects.filter((e): e is RecordedStatusEvent => e.type === 'RECORD_STATUS_EVENT');
  const plain = effects.every((e) => e.type === 'RECORD_STATUS_EVENT' || e.type === 'UPSERT_STATUS_SEARCH_ATTRIBUTE' || e.type === 'PUBLISH_PAYMENT_EVENT');
  if (!plain || records.length !== 1 || records[0].refund) return null;
  return records[0];
}
