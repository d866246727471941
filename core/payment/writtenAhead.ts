import type { Effect, PaymentState } from './transition';

/**
 * A projection written ahead of the workflow's decision, by the local activity that also sent the
 * bill (placement.ts) or read it (observation.ts): one local activity instead of two back to back
 * (docs/benchmark.md, "Trips into the sandbox"). The workflow stays the one writer
 * (docs/architecture.md, "One writer per payment"): it adopts the write only when it stands, and
 * otherwise its own decision at that sequence is written after it (local activities run one at a
 * time) and replaces it.
 */

export type RecordedStatusEvent = Extract<Effect, { type: 'RECORD_STATUS_EVENT' }>;

/** What the activity wrote: the sequence, and the time the workflow must decide with to reach the same event. */
export interface WrittenAhead {
  sequence: number;
  occurredAt: string;
}

/**
 * Whether the workflow adopts a projection written ahead: the payment is as it was when the call
 * left (same status, no status event since) and the write is the next sequence. Anything else (an
 * operator's clear or a cancel while a send was out, a completion followed while a read was out)
 * took that sequence itself, and its own projection replaces the one written ahead.
 */
export function aheadStands(
  atCall: Pick<PaymentState, 'status' | 'sequence'>,
  now: Pick<PaymentState, 'status' | 'sequence'>,
  ahead: WrittenAhead | null,
): boolean {
  return ahead !== null && now.status === atCall.status && now.sequence === atCall.sequence && ahead.sequence === atCall.sequence + 1;
}
