import { getExternalWorkflowHandle, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { ACQUIRER_REJECTED } from '../../core/acquirerFailure';
import type { DisputeWorkflowInput } from '../../core/dispute/messages';
import type { DisputeFacts, DisputeInFlight } from '../../core/dispute/rules';
import type { DisputeStatus } from '../../core/dispute/statuses';
import { type DisputeEffect, type DisputeEvent, type DisputeState, disputeTransition, initialDisputeState } from '../../core/dispute/transition';
import { disputeChangedSignal, paymentWorkflowId } from '../../core/payment/messages';
import { oneAtATime } from '../payment/oneAtATime';

// Row writes and events: must happen, retried until they do.
const effects = proxyActivities<Activities>({ startToCloseTimeout: '10s', retry: { initialInterval: '200ms', backoffCoefficient: 2, maximumInterval: '10s' } });
// Calls the merchant waits for (submit, accept) and the decision's reads: a few attempts, then "no answer".
const acquirerCalls = proxyActivities<Activities>({
  startToCloseTimeout: '10s',
  retry: { initialInterval: '500ms', backoffCoefficient: 2, maximumInterval: '2s', maximumAttempts: 3, nonRetryableErrorTypes: [ACQUIRER_REJECTED] },
});

/**
 * The state of one dispute's run and the step every handler and phase shares: apply an event
 * (disputeTransition decides; its effects run here, one transition's effects after the other's,
 * so the row never shows an older status after a newer one).
 */
export class DisputeRun {
  readonly disputeId: string;
  readonly dueByMs: number;
  state: DisputeState = initialDisputeState();
  readonly effects = effects;
  readonly acquirer = acquirerCalls;
  /** The row, its evidence and DISPUTE_OPENED are written: answers wait for it. */
  opened = false;
  hasStatement = false;
  /** Statements being written: a submission waits for them, so it sends the latest. */
  savingStatements = 0;
  /** A submission or acceptance is being sent to the acquirer. */
  answering = false;
  /** What the merchant last tried to send, answered or not: at the due date the acquirer is asked whether it arrived. */
  attempted: 'submit' | 'accept' | null = null;
  /** The acquirer notified news since the last read. */
  nudged = false;
  /** The compliance evaluation started when the dispute opened: the timers do not wait for it; the run's end does. */
  compliance: Promise<void> = Promise.resolve();
  private readonly serialize = oneAtATime();
  private tail: Promise<void> = Promise.resolve();

  constructor(readonly input: DisputeWorkflowInput) {
    this.disputeId = input.disputeId;
    this.dueByMs = Date.parse(input.dueBy);
  }

  facts(): DisputeFacts {
    return { status: this.state.status, hasStatement: this.hasStatement, dueBy: this.input.dueBy };
  }
  inFlight(): DisputeInFlight {
    return { answering: this.answering };
  }

  /** Applies one event: the state changes at once (validators see it); its effects run in order. */
  apply(event: DisputeEvent): Promise<void> {
    const result = disputeTransition(this.state, event);
    this.state = result.state;
    const snapshot = result.state;
    const done = this.serialize(() => this.runEffects(snapshot, result.effects));
    this.tail = done;
    return done;
  }

  /** Resolves once every effect applied so far has run. */
  async drained(): Promise<void> {
    let seen: Promise<void> | undefined;
    while (seen !== this.tail) {
      seen = this.tail;
      await seen;
    }
  }

  private async runEffects(state: DisputeState, list: DisputeEffect[]): Promise<void> {
    for (const effect of list) {
      if (effect.type === 'RECORD_STATUS') {
        await effects.recordDisputeStatus({ disputeId: this.disputeId, status: state.status, submittedAt: state.submittedAt, closedAt: state.closedAt });
      } else if (effect.type === 'TELL_PAYMENT') {
        await this.tellPayment(state.status);
      } else {
        await effects.publishDisputeEvent({ disputeId: this.disputeId, eventType: effect.eventType, status: state.status });
      }
    }
  }

  /**
   * Tells the payment's workflow (its one writer) what the dispute is now: its refund and void
   * validators refuse while a dispute is open. No run: nothing to tell, a later run reads the
   * rows, which are written before this.
   */
  async tellPayment(status: DisputeStatus): Promise<void> {
    try {
      await getExternalWorkflowHandle(paymentWorkflowId(this.input.paymentId)).signal(disputeChangedSignal, { disputeId: this.disputeId, status });
    } catch {
      // the payment's run has ended (or never ran here): its next run reads the dispute from the rows
    }
  }
}

/** The workflow's own clock as ISO text. */
export const nowIso = (): string => new Date(Date.now()).toISOString();
