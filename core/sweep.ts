/** What one cycle of the reconciliation sweep did (the sweep workflow's result). */
export interface SweepResult {
  considered: number;
  nudged: number;
  /** Payments whose workflow was missing and has been started again. */
  restarted: number;
  failed: number;
  /** PENDING refunds handed to a run that decides them (src/refunds/recovery.ts); absent when not looked at. */
  refundsResumed?: number;
}
