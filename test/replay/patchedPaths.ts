/**
 * Histories recorded after a versioned change (patched()) or a new input of a workflow, kept apart
 * from the transition table's paths (paths.ts): replayed by patchedReplay.unit.test.ts, written by
 * npm run replay:record -- scripts/replay/recordPatchedHistories.test.ts.
 */
export const PATCHED_PATHS = [
  // issue 13: AWAITING_TERMINAL publishes nothing (patch no-publish-without-event); captured, void window closed
  // (recorded before record-and-publish-together: kept as recorded, no longer re-recorded)
  'payment-captured-no-silent-publish',
  // issue 41: the capture's projection and webhook event in one local activity (patch record-and-publish-together)
  // (recorded before send-and-record-together: kept as recorded, no longer re-recorded)
  'payment-captured-record-and-publish',
  // issue 41: the first send and its projection in one local activity (patch send-and-record-together)
  // (recorded before waits-woken-by-changes: kept as recorded, no longer re-recorded)
  'payment-captured-send-and-record',
  // issue 41: the placement's, the answer's, the decision's and the void window's waits woken by their changes (patch waits-woken-by-changes)
  // (recorded before publish-after-commit: kept as recorded, no longer re-recorded)
  'payment-captured-woken-by-changes',
  // the capture's webhook event published by an activity the deciding task schedules (patch publish-after-commit)
  // (recorded before read-and-record-together: kept as recorded, no longer re-recorded)
  'payment-captured-publish-after-commit',
  // issue 41: the notification's read and the capture's projection in one local activity (patch read-and-record-together)
  // (recorded before the first patch epoch: kept as recorded, no longer re-recorded)
  'payment-captured-read-and-record',
  // issue 41: every patch under one marker, the epoch's (workflows/payment/patches.ts, EPOCHS)
  'payment-captured-epoch',
  // issue 13: the first attempt, made by the publishing step, failed; the run continues the schedule (firstAttemptAtMs)
  'webhook-delivery-after-failed-first-attempt',
] as const;
export type PatchedPath = (typeof PATCHED_PATHS)[number];
