import { proxyActivities } from '@temporalio/workflow';
import { BILL_STEP_REFUSED, type BillActivities, type BillWorkflowInput } from '../../core/bill/messages';
import { type BillEffect, type BillEvent, type BillOutcome, type BillState, billTransition, initialBillState } from '../../core/bill/transition';
import { oneAtATime } from '../payment/oneAtATime';

// Row writes, reads and events: must happen, retried until they do.
const effects = proxyActivities<BillActivities>({
  startToCloseTimeout: '10s',
  retry: { initialInterval: '200ms', backoffCoefficient: 2, maximumInterval: '10s' },
});

/**
 * The state of one bill's run and the step every handler and phase shares: apply an event
 * (billTransition decides; its effects run here, one transition's after the other's, so the row
 * never shows an older bill after a newer one).
 */
export class BillRun {
  readonly billId: string;
  state: BillState;
  readonly effects = effects;
  /** Give-back steps: retried with back-off while the acquirer cannot be reached; a refusal comes back at once. */
  readonly giveBack: Pick<BillActivities, 'giveBackTender'>;
  /** Tenders whose payments said they moved on since the last read. */
  readonly nudged = new Set<string>();
  private readonly serialize = oneAtATime();
  private readonly reads = oneAtATime();
  private tail: Promise<void> = Promise.resolve();

  constructor(readonly input: BillWorkflowInput) {
    this.billId = input.billId;
    this.state = input.state ?? initialBillState(input.amount);
    this.giveBack = proxyActivities<BillActivities>({
      startToCloseTimeout: '60s',
      // giveBackTender heartbeats while it waits for the acquirer (activities/heartbeat.ts): an
      // attempt whose worker died is retried after 10 s, not after the minute.
      heartbeatTimeout: '10s',
      retry: {
        initialInterval: `${Math.min(1000, input.retryMaxMs)}ms`,
        backoffCoefficient: 2,
        maximumInterval: `${input.retryMaxMs}ms`,
        nonRetryableErrorTypes: [BILL_STEP_REFUSED],
      },
    });
  }

  /** Applies one event: the state changes at once (validators see it); its effects run in order. A refusal changes nothing. */
  apply(event: BillEvent): { outcome: BillOutcome; done: Promise<void> } {
    const outcome = billTransition(this.state, event);
    if (outcome.refusal) return { outcome, done: Promise.resolve() };
    this.state = outcome.state;
    const snapshot = outcome.state;
    const done = this.serialize(() => this.runEffects(snapshot, outcome.effects));
    this.tail = done;
    return { outcome, done };
  }

  /** Reads a tender's payment row (one read at a time, so an older read never lands after a newer one) and applies it. */
  readTender(paymentId: string): Promise<void> {
    this.nudged.delete(paymentId);
    return this.reads(async () => {
      const news = await effects.readTender({ billId: this.billId, paymentId });
      // No payment was made for the hold: what it held is free again.
      const tender = news ?? { ...this.heldOnly(paymentId), status: 'FAILED' as const };
      await this.apply({ type: 'TENDER_CHANGED', tender }).done;
    });
  }

  /** Resolves once every effect applied so far has run. */
  async drained(): Promise<void> {
    let seen: Promise<void> | undefined;
    while (seen !== this.tail) {
      seen = this.tail;
      await seen;
    }
  }

  private heldOnly(paymentId: string) {
    const t = this.state.tenders.find((x) => x.paymentId === paymentId);
    return { paymentId, method: t?.method ?? null, amount: t?.amount ?? '0', requestedAmount: t?.requestedAmount ?? '0', refundedAmount: '0', tipAmount: '0' };
  }

  private async runEffects(state: BillState, list: BillEffect[]): Promise<void> {
    for (const effect of list) {
      if (effect.type === 'RECORD') await effects.recordBill({ billId: this.billId, state });
      else if (effect.type === 'EMIT_EVENT') await effects.publishBillEvent({ billId: this.billId, eventType: effect.eventType, state });
      // GIVE_BACK: the give-back phase (giveBack.ts) takes the steps; the run only notes it is due.
    }
  }
}

/** The workflow's own clock as ISO text. */
export const nowIso = (): string => new Date(Date.now()).toISOString();
