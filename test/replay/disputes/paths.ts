/**
 * The dispute workflow's paths (docs/disputes.md), committed under histories/ and replayed by
 * disputeReplay.unit.test.ts, with a payment workflow that was told of a dispute as it opened and
 * closed (signal disputeChanged). scripts/replay/recordDisputeHistories.test.ts writes them
 * (npm run replay:record -- scripts/replay/recordDisputeHistories.test.ts).
 */
export const DISPUTE_REPLAY_PATHS = ['dispute-won', 'dispute-lost', 'dispute-accepted', 'dispute-expired-after-reminder', 'payment-told-of-dispute'] as const;
export type DisputeReplayPath = (typeof DISPUTE_REPLAY_PATHS)[number];
