import type { Refusal } from '../payment/rules';
import type { DisputeStatus } from './statuses';

/**
 * "May the merchant answer now, and if not, why?" (docs/disputes.md, "The merchant's answers"): one pure function per answer.
 * The API asks them from the row before it bothers the workflow; the workflow's validators ask
 * them again from the run's state and decide. A refusal's code is a domain error kind (409 here).
 */
export interface DisputeFacts {
  status: DisputeStatus;
  /** A statement is saved. */
  hasStatement: boolean;
  dueBy: string;
}
/** What only the running workflow knows. */
export interface DisputeInFlight {
  /** A submission or an acceptance is being sent to the acquirer. */
  answering?: boolean;
}

const conflict = (message: string): Refusal => ({ code: 'conflict', message });

function openForAnswer(d: DisputeFacts, inFlight: DisputeInFlight, nowMs: number, what: string): Refusal | undefined {
  if (d.status !== 'NEEDS_RESPONSE') return conflict(`${what} not permitted: the dispute is ${d.status}, not NEEDS_RESPONSE`);
  if (nowMs >= Date.parse(d.dueBy)) return conflict(`${what} not permitted: the response was due by ${d.dueBy}`);
  if (inFlight.answering) return conflict(`${what} not permitted: an answer to this dispute is already being sent`);
  return undefined;
}

/** Saving the statement: while NEEDS_RESPONSE and before the due date, not while an answer is being sent. */
export const evidenceRefusal = (d: DisputeFacts, inFlight: DisputeInFlight, nowMs: number): Refusal | undefined =>
  openForAnswer(d, inFlight, nowMs, 'evidence');

/** Submitting: as for the statement, and a statement must be saved. */
export function submitRefusal(d: DisputeFacts, inFlight: DisputeInFlight, nowMs: number): Refusal | undefined {
  return openForAnswer(d, inFlight, nowMs, 'submit') ?? (d.hasStatement ? undefined : conflict('submit not permitted: evidence.text: no statement saved yet'));
}

/** Accepting: while NEEDS_RESPONSE and before the due date. */
export const acceptRefusal = (d: DisputeFacts, inFlight: DisputeInFlight, nowMs: number): Refusal | undefined => openForAnswer(d, inFlight, nowMs, 'accept');
