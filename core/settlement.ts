/** Names and shapes of the settlement workflows, shared by the API, the worker and the workflows. */
export const SETTLEMENT_CLOSE_WORKFLOW = 'settlementCloseWorkflow';
export const SETTLEMENT_AUTO_CLOSE_WORKFLOW = 'settlementAutoCloseWorkflow';

/** One close at a time per store: a second one while it runs is refused (409) or skipped (daily close). */
export const settlementCloseWorkflowId = (storeId: string): string => `settlement-close-${storeId}`;

export interface SettlementCloseInput {
  batchId: string;
  storeId: string;
  /** Username, or SYSTEM for the daily close. */
  closedBy: string;
  /** ISO: when the close was asked for. */
  closedAt: string;
  /** ISO: payments captured (refunds paid) up to here belong to the batch (the close's own time). */
  until: string;
  /** Business date YYYY-MM-DD. */
  date: string;
  /** The daily close: the business date it closes, recorded once it has run. */
  autoCloseDate?: string;
}

export type SettlementCloseResult = { batchId: string; empty: true } | { batchId: string; empty: false; status: string };
