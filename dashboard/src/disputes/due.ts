/**
 * How urgent a dispute's due date is (docs/disputes.md, "The response window: two timers"): nothing submitted or accepted by `dueBy` and
 * the money is lost, so a dispute still NEEDS_RESPONSE within the reminder window (the service's
 * DISPUTE_REMINDER_HOURS, the hours before `dueBy` it sends DISPUTE_RESPONSE_DUE) stands out, and
 * one past due or EXPIRED stands out otherwise. Pure, so the unit test pins it.
 */
export type DueKind = 'open' | 'soon' | 'overdue' | 'expired' | 'answered';

export interface DueView {
  kind: DueKind;
  /** Words for the state, '' when the date alone says enough (answered or closed). */
  text: string;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** `45 min`, `4 h 59 min`, `6 d 23 h`: rounded down, so the time left is never overstated. */
export function duration(ms: number): string {
  const m = Math.max(0, ms);
  if (m < HOUR) return `${Math.max(1, Math.floor(m / MINUTE))} min`;
  if (m < DAY) return `${Math.floor(m / HOUR)} h ${Math.floor((m % HOUR) / MINUTE)} min`;
  return `${Math.floor(m / DAY)} d ${Math.floor((m % DAY) / HOUR)} h`;
}

export function dueView(dispute: { status: string; dueBy: string }, now: number, reminderHours: number): DueView {
  if (dispute.status === 'EXPIRED') return { kind: 'expired', text: 'expired unanswered' };
  if (dispute.status !== 'NEEDS_RESPONSE') return { kind: 'answered', text: '' };
  const left = Date.parse(dispute.dueBy) - now;
  if (left <= 0) return { kind: 'overdue', text: `overdue by ${duration(-left)}` };
  return { kind: left <= reminderHours * HOUR ? 'soon' : 'open', text: `due in ${duration(left)}` };
}
