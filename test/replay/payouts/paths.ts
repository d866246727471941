/**
 * The payout workflow's histories (docs/payouts-and-fees.md, "Payouts"), committed under histories/ and replayed by
 * payoutReplay.unit.test.ts: paid at once (reconciled with its batch), and in transit then failed.
 * scripts/replay/recordPayoutHistories.test.ts writes them
 * (npm run replay:record -- scripts/replay/recordPayoutHistories.test.ts).
 */
export const PAYOUT_REPLAY_PATHS = ['payout-paid', 'payout-in-transit-then-failed'] as const;
export type PayoutReplayPath = (typeof PAYOUT_REPLAY_PATHS)[number];
