/**
 * The settle path's workflow histories, committed under histories/ and replayed by
 * settlementReplay.unit.test.ts: the close workflow, the daily close's cycle, and payment workflows
 * that took the settle update. scripts/replay/recordSettlementHistories.test.ts writes them
 * (npm run replay:record -- scripts/replay/recordSettlementHistories.test.ts).
 */
export const SETTLEMENT_REPLAY_PATHS = [
  'settlement-close-with-discrepancy',
  'settlement-auto-close-cycle',
  'payment-captured-then-settled',
  'payment-restarted-by-settle',
  'payment-settled-then-refunded',
] as const;
export type SettlementReplayPath = (typeof SETTLEMENT_REPLAY_PATHS)[number];
