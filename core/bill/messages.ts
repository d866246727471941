import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { GiveBackStep, TillTenderMethod } from './statuses';
import type { BillTender } from './tenders';
import type { BillEventType, BillState, TenderNews } from './transition';

/**
 * The bill workflow's messages, shared by the API and the workflow (docs/bills.md). Updates change
 * the bill and answer with it; the signal is a nudge: the bill re-reads the tender's payment row, so
 * a signal sent from outside the service changes nothing by itself.
 */
export const billWorkflowId = (billId: string): string => `bill-${billId}`;
export const BILL_WORKFLOW_TYPE = 'billWorkflow';

/** The failure type a refused update carries; its details are the BillRefusal (kind, field, message). */
export const BILL_REFUSED = 'BillRefused';

export interface BillWorkflowInput {
  billId: string;
  amount: string; // exact decimal text
  currency: string;
  /** When a bill still OPEN is given back by the service itself. */
  expiresAtMs: number;
  /** The longest pause between give-back passes while an acquirer refuses or cannot be reached. */
  retryMaxMs: number;
  /** A later run's state as its rows stand (absent in a first run: OPEN, no tenders). */
  state?: BillState;
}

/** A card or QR tender asks for its amount before its payment is created: the bill holds it, or refuses. */
export const openTenderUpdate = defineUpdate<BillTender, [{ paymentId: string; amount: string; sequenceNumber?: number }]>('openTender');
/** Cash or another tender the till took itself. */
export const recordTillTenderUpdate = defineUpdate<BillState, [{ method: TillTenderMethod; amount: string; reference: string | null }]>('recordTillTender');
/** Give the bill back: every tender holding money is cancelled, voided, refunded or released. */
export const cancelBillUpdate = defineUpdate<BillState, []>('cancelBill');
/** A tender's payment moved on (or its creation failed): the bill reads its row again. */
export const tenderChangedSignal = defineSignal<[{ paymentId: string }]>('tenderChanged');
export const billStateQuery = defineQuery<BillState>('billState');

/** What the bill workflow asks of its activities (activities/bills implements it). */
export interface BillActivities {
  /** Writes the bill's row and its tenders as the state says. */
  recordBill(input: { billId: string; state: BillState }): Promise<void>;
  /** The tender's payment as its row stands; null when no payment was created for the hold (its creation failed). */
  readTender(input: { billId: string; paymentId: string }): Promise<TenderNews | null>;
  /**
   * Takes one give-back step of a tender through the payment's own operations, idempotent per
   * (bill, payment, step); fails with BILL_STEP_REFUSED when the payment's rules refuse the step
   * (it moved on meanwhile: the bill reads it again and picks the next step).
   */
  giveBackTender(input: { billId: string; paymentId: string; step: GiveBackStep }): Promise<void>;
  publishBillEvent(input: { billId: string; eventType: BillEventType; state: BillState }): Promise<void>;
}

/** The failure type of a give-back step the payment's rules refuse. */
export const BILL_STEP_REFUSED = 'BillStepRefused';
