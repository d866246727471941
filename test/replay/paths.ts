/**
 * The paths of the transition table (docs/payments.md, "States and transitions") whose workflow histories are committed under
 * histories/ and replayed by replay.unit.test.ts. scripts/replay/recordHistories.test.ts writes them
 * (npm run replay:record -- scripts/replay/recordHistories.test.ts).
 */
export const REPLAY_PATHS = [
  'captured-void-window-closed',
  'captured-noticed-by-sync-status',
  'captured-qr-code-many-syncs',
  'authorized-two-step',
  'refused-declined',
  'cancelled-at-terminal',
  'error-at-terminal',
  'cancelled-by-pos',
  'cancel-customer-completed-first',
  'cancel-acquirer-unreachable-then-expired',
  'expired',
  'expired-outcome-nobody-asked-captured',
  'refused-device-busy',
  'placement-unanswered-then-placed',
  'void-confirmed',
  'void-confirmed-later',
  'void-retried',
  'sweep-restarted-orphan-failed',
  'sweep-restarted-terminated-captured',
  'operator-clear',
] as const;
export type ReplayPath = (typeof REPLAY_PATHS)[number];
