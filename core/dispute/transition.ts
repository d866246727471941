import type { DisputeStatus } from './statuses';

/**
 * Where a dispute's status goes on each event (docs/disputes.md, "Lifecycle"): one pure function
 * `(state, event) -> (state, effects)`. The dispute workflow applies it and runs its effects in
 * order: the row first (so a payment run started later reads it), then the payment's workflow is
 * told, then the webhook event. An event that does not apply to the current status changes nothing.
 *
 *   NEEDS_RESPONSE --SUBMITTED--> UNDER_REVIEW --DECIDED--> WON | LOST
 *   NEEDS_RESPONSE --ACCEPTED--> ACCEPTED
 *   NEEDS_RESPONSE --DUE_PASSED--> EXPIRED
 *   NEEDS_RESPONSE --REMINDER_DUE--> (same status, one DISPUTE_RESPONSE_DUE)
 */
export type DisputeEventType = 'DISPUTE_OPENED' | 'DISPUTE_RESPONSE_DUE' | 'DISPUTE_UNDER_REVIEW' | 'DISPUTE_CLOSED';
export const DISPUTE_EVENT_TYPES: readonly DisputeEventType[] = ['DISPUTE_OPENED', 'DISPUTE_RESPONSE_DUE', 'DISPUTE_UNDER_REVIEW', 'DISPUTE_CLOSED'];

export interface DisputeState {
  status: DisputeStatus;
  submittedAt: string | null;
  closedAt: string | null;
  /** DISPUTE_RESPONSE_DUE was sent (once per dispute). */
  reminded: boolean;
}

export type DisputeEvent =
  | { type: 'REMINDER_DUE' }
  | { type: 'SUBMITTED'; at: string }
  | { type: 'ACCEPTED'; at: string }
  | { type: 'DUE_PASSED'; at: string }
  | { type: 'DECIDED'; outcome: 'WON' | 'LOST'; at: string };

export type DisputeEffect =
  /** Write the row's status, submittedAt and closedAt (and the payment's disputeStatus with it). */
  | { type: 'RECORD_STATUS' }
  /** Tell the payment's workflow: its refunds and voids wait while a dispute is open. */
  | { type: 'TELL_PAYMENT' }
  | { type: 'EMIT_EVENT'; eventType: DisputeEventType };

export const initialDisputeState = (): DisputeState => ({ status: 'NEEDS_RESPONSE', submittedAt: null, closedAt: null, reminded: false });

const moved = (state: DisputeState, next: Partial<DisputeState>, eventType: DisputeEventType) => ({
  state: { ...state, ...next },
  effects: [{ type: 'RECORD_STATUS' }, { type: 'TELL_PAYMENT' }, { type: 'EMIT_EVENT', eventType }] as DisputeEffect[],
});

export function disputeTransition(state: DisputeState, event: DisputeEvent): { state: DisputeState; effects: DisputeEffect[] } {
  const unchanged = { state, effects: [] as DisputeEffect[] };
  switch (event.type) {
    case 'REMINDER_DUE':
      if (state.status !== 'NEEDS_RESPONSE' || state.reminded) return unchanged;
      return { state: { ...state, reminded: true }, effects: [{ type: 'EMIT_EVENT', eventType: 'DISPUTE_RESPONSE_DUE' }] };
    case 'SUBMITTED':
      if (state.status !== 'NEEDS_RESPONSE') return unchanged;
      return moved(state, { status: 'UNDER_REVIEW', submittedAt: event.at }, 'DISPUTE_UNDER_REVIEW');
    case 'ACCEPTED':
      if (state.status !== 'NEEDS_RESPONSE') return unchanged;
      return moved(state, { status: 'ACCEPTED', closedAt: event.at }, 'DISPUTE_CLOSED');
    case 'DUE_PASSED':
      if (state.status !== 'NEEDS_RESPONSE') return unchanged;
      return moved(state, { status: 'EXPIRED', closedAt: event.at }, 'DISPUTE_CLOSED');
    case 'DECIDED':
      if (state.status !== 'UNDER_REVIEW') return unchanged;
      return moved(state, { status: event.outcome, closedAt: event.at }, 'DISPUTE_CLOSED');
  }
}
