/**
 * Every patch of the payment workflow (Temporal's versioning: `patched(id)` is true in runs that
 * took the new path, false when a history recorded before it replays). Retiring one, as the SDK
 * documents: once no open run (and no history kept for replay) predates it, replace `patched(id)`
 * with `deprecatePatch(id)` and keep the new path only; once no open run carries the marker
 * either, remove the call. "Retire after" is the earliest such date: the longest a run lives (the
 * void window, 23 h 15 min, or the authorisation window, 36 h, plus refunds followed) past the
 * day the patch shipped, with a week's margin for runs still being followed.
 */
export interface Patch {
  id: string;
  shipped: string;
  retireAfter: string;
  why: string;
}

const patch = (id: string, shipped: string, retireAfter: string, why: string): Patch => ({ id, shipped, retireAfter, why });

export const PATCHES = {
  /** Before it, a run followed the acquirer in AUTHORIZED with no window of its own. */
  authorizationWindow: patch('authorization-window', '2026-11-23', '2026-12-07', 'the AUTHORIZED phase has its own window'),
  /** Before it, a status that emits no webhook event (AWAITING_TERMINAL, EXPIRED) still ran the publish step. */
  noSilentPublish: patch('no-publish-without-event', '2026-11-23', '2026-12-07', 'no publish step for a status without an event'),
  /**
   * A new refund's PENDING row is an activity scheduled by the task that accepts the refund, not a
   * local activity inside it: a local activity could write the row in a task that then timed out,
   * leaving a row no run followed.
   */
  refundRowActivity: patch('refund-row-activity', '2026-11-23', '2026-12-07', "a new refund's row is written by an activity"),
  /**
   * A later run (not from CREATED) takes the payment from its row once started, not from its
   * input: the starter may have read the row before the run before it wrote its last changes.
   */
  laterRunReadsRow: patch('later-run-reads-row', '2026-11-23', '2026-12-07', 'a later run reads its row first'),
  /** Local activities one at a time (oneAtATime.ts): runs before it ran them side by side. */
  oneLocalActivity: patch('one-local-activity-at-a-time', '2026-11-23', '2026-12-07', 'local activities one at a time'),
  /**
   * Refunds handed to a run (resumeRefunds, a start's input) are adopted only as the PENDING rows
   * the database holds: a signal through the Temporal UI made the acquirer pay a made-up refund.
   */
  refundRowsChecked: patch('refund-rows-checked', '2026-11-25', '2026-12-09', 'handed-over refunds are checked against their rows'),
  /**
   * A refund is refused while a reversal is under way, in the handler as well as the validator
   * (validators do not run on replay): before it, a refund during a pending void paid twice.
   */
  voidBlocksRefund: patch('void-blocks-refund', '2026-11-25', '2026-12-09', 'no refund while a void is under way'),
  /** A run with a reversal still followed ends only once its follow-up reads end. */
  voidFollowedToEnd: patch('void-followed-to-end', '2026-11-25', '2026-12-09', 'a run waits for its reversals to be followed'),
  /** Before it, a refund that succeeded did not evaluate the compliance alerts (docs/disputes.md) of its payment's store and account. */
  complianceOnRefund: patch('compliance-on-refund', '2026-11-26', '2026-12-10', 'a refund that succeeds evaluates the compliance alerts'),
  /**
   * What LOST, ACCEPTED and EXPIRED disputes took back is no longer refundable or voidable, and a
   * dispute's change is read from its rows, not taken from the signal: before it, a refund after a
   * lost chargeback paid the cardholder twice.
   */
  chargebackCounts: patch('chargeback-counts', '2026-11-27', '2026-12-11', 'a chargeback is counted; dispute changes are read from the rows'),
  /**
   * A one-step terminal's completion the acquirer did not answer is followed until it answers
   * (run.ts, the COMPLETE_AUTHORIZATION effect): before it, the follow-up ended before it began
   * (it ran before the payment showed AUTHORIZED) and the hold waited for the authorisation window.
   */
  oneStepCompletionFollowed: patch('one-step-completion-followed', '2026-11-27', '2026-12-11', "a one-step terminal's unanswered completion is followed"),
  /**
   * A status event's projection and its webhook event are one local activity
   * (recordStatusEventAndPublish), not two back to back: each local activity costs the run an
   * activation, a trip into the sandbox (docs/benchmark.md, "Trips into the sandbox").
   */
  recordAndPublish: patch('record-and-publish-together', '2026-11-28', '2026-12-12', "a status event's projection and webhook event in one local activity"),
  /**
   * The bill's first send and its AWAITING_TERMINAL projection are one local activity
   * (sendBillAndRecord); the workflow adopts the projection only if nothing changed the payment
   * while the send was out (core/payment/placement.ts), and otherwise writes its own over it.
   */
  sendAndRecord: patch('send-and-record-together', '2026-11-28', '2026-12-12', 'the first send and its projection in one local activity'),
  /**
   * The waits for the placement, for an answer's projection, for the customer's decision and for
   * the end of the void window are woken by the change they wait for (PaymentRun.until), not by
   * the SDK's condition checks: each wait a check released cost a trip into the sandbox.
   */
  wokenByChanges: patch('waits-woken-by-changes', '2026-11-28', '2026-12-12', 'waits woken by the change they wait for'),
  /**
   * A status event's webhook event (and the receipt it starts) is published by an activity that
   * the deciding task schedules, not by the local activity that writes the projection: a task
   * lost after its local activities ran may be decided otherwise on replay, and the merchant had
   * already heard the first decision (a PAYMENT_CANCELLED for a payment that EXPIRED).
   */
  publishAfterCommit: patch('publish-after-commit', '2026-11-28', '2026-12-12', 'webhook events published once the deciding task is committed'),
  /**
   * A read of the bill (refresh(): a notification, a nudge, a sync) and its status event's
   * projection are one local activity (readBillAndRecord); the workflow adopts the projection only
   * if nothing changed the payment while the read was out (core/payment/observation.ts), and
   * otherwise writes its own over it.
   */
  readAndRecord: patch('read-and-record-together', '2026-12-08', '2026-12-22', 'a read and its projection in one local activity'),
} as const;

/**
 * A set of patches a new run takes all at once, under one marker (docs/operations.md, "Patch
 * epochs"): a new run records the newest epoch's marker only, not one
 * marker and one TemporalChangeVersion search attribute upsert per patch (12 of a captured
 * payment's 42 history events, each upsert a visibility write: docs/benchmark.md). A run from
 * before an epoch has no marker of it and answers each patch by its own marker, as before.
 * Frozen once shipped: a later patch joins the next epoch, never an earlier one.
 */
export interface Epoch {
  id: string;
  shipped: string;
  includes: readonly string[];
}

/** Newest first. */
export const EPOCHS: readonly Epoch[] = [
  {
    id: 'payment-epoch-2026-12-08',
    shipped: '2026-12-08',
    includes: [
      PATCHES.authorizationWindow.id,
      PATCHES.noSilentPublish.id,
      PATCHES.refundRowActivity.id,
      PATCHES.laterRunReadsRow.id,
      PATCHES.oneLocalActivity.id,
      PATCHES.refundRowsChecked.id,
      PATCHES.voidBlocksRefund.id,
      PATCHES.voidFollowedToEnd.id,
      PATCHES.complianceOnRefund.id,
      PATCHES.chargebackCounts.id,
      PATCHES.oneStepCompletionFollowed.id,
      PATCHES.recordAndPublish.id,
      PATCHES.sendAndRecord.id,
      PATCHES.wokenByChanges.id,
      PATCHES.publishAfterCommit.id,
      PATCHES.readAndRecord.id,
    ],
  },
];
