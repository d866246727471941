/**
 * Histories that took the compliance steps (patches `dispute-compliance-on-open` and
 * `compliance-on-refund`, docs/disputes.md "Compliance alerts"), committed under histories/ and
 * replayed by complianceReplay.unit.test.ts; scripts/replay/recordComplianceHistories.test.ts writes
 * them (npm run replay:record -- scripts/replay/recordComplianceHistories.test.ts).
 */
export const COMPLIANCE_REPLAY_PATHS = ['dispute-opened-evaluates-compliance', 'refund-succeeded-evaluates-compliance'] as const;
export type ComplianceReplayPath = (typeof COMPLIANCE_REPLAY_PATHS)[number];
