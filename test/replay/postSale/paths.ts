/**
 * The paths after the sale (issue 10: two-step completion, release and expiry; refunds in the
 * running run, in a later run, and resumed by the sweep) whose payment workflow histories are
 * committed under histories/ and replayed by postSaleReplay.unit.test.ts. Each names what its recorded
 * run must show, so that a history recorded down another path fails the replay test:
 * - `status`: the status the run completed with (its result);
 * - `patches`: the patch markers (patched()) its history carries, i.e. the versioned branches it took;
 * - `signals`, `updates`: the messages it took (by name), each at least as often as it is named;
 * - `activities`: the (server-side retried) activities it scheduled, likewise: what the
 *   workflow itself did later (a capture completed, a hold released, a refund re-submitted).
 * scripts/replay/recordPostSaleHistories.test.ts writes them
 * (npm run replay:record -- scripts/replay/recordPostSaleHistories.test.ts).
 */
export interface PostSalePath {
  status: string;
  patches: string[];
  signals?: string[];
  updates?: string[];
  activities?: string[];
}

const WINDOW = 'authorization-window';
const ROW_ACTIVITY = 'refund-row-activity';
const READS_ROW = 'later-run-reads-row';
/** Every run from the creation takes it (AWAITING_TERMINAL publishes nothing). */
const SILENT = 'no-publish-without-event';

export const POST_SALE_PATHS = {
  // two-step: completed, all of it, within the window; then the void window from the capture
  'two-step-captured-full': { status: 'CAPTURED', patches: [SILENT, WINDOW], updates: ['capture'] },
  // two-step: completed for part of the authorised amount
  'two-step-captured-partial': { status: 'CAPTURED', patches: [SILENT, WINDOW], updates: ['capture'] },
  // two-step: cancel on AUTHORIZED releases the hold
  'two-step-released-by-cancel': { status: 'CANCELLED', patches: [SILENT, WINDOW], updates: ['cancel'] },
  // two-step: the first cancel finds the acquirer unreachable (200 AUTHORIZED); the second releases the hold
  'two-step-release-unanswered-then-released': { status: 'CANCELLED', patches: [SILENT, WINDOW], updates: ['cancel', 'cancel'] },
  // two-step: nobody completes it; the window's timer fires and the workflow releases it (AUTHORIZATION_EXPIRED)
  'two-step-authorization-expired': { status: 'CANCELLED', patches: [SILENT, WINDOW], activities: ['releaseAuthorization'] },
  // two-step: the capture finds the acquirer unreachable (200 AUTHORIZED); the window passes; the workflow completes it later
  'two-step-capture-completed-later': { status: 'CAPTURED', patches: [SILENT, WINDOW], updates: ['capture'], activities: ['completeAuthorization'] },
  // a terminal linked one-step whose device authorises: the workflow completes the authorisation at once
  'one-step-terminal-authorization-completed': { status: 'CAPTURED', patches: [SILENT] },
  // a refund of all of it inside the void window: decided within the request, the run ends REFUNDED
  'refund-succeeded-in-void-window': { status: 'REFUNDED', patches: [SILENT, ROW_ACTIVITY], updates: ['refund'], activities: ['recordRefund'] },
  // the acquirer fails the refund (sandbox refundOutcome FAILED): the payment stays CAPTURED until its window closes
  'refund-failed': { status: 'CAPTURED', patches: [SILENT, ROW_ACTIVITY], updates: ['refund'], activities: ['recordRefund'] },
  // the acquirer decides late (refundConfirmDelayMs): answered PENDING, decided on the acquirer's notification
  'refund-confirmed-later': {
    status: 'PARTIALLY_REFUNDED',
    patches: [SILENT, ROW_ACTIVITY],
    updates: ['refund'],
    signals: ['acquirerNotified', 'acquirerNotified'], // the customer paid; the refund decided
    activities: ['recordRefund'],
  },
  // the same with no notification reaching the service: the workflow's own follow-ups (re-submissions) decide it
  'refund-confirmed-later-followed-up': {
    status: 'PARTIALLY_REFUNDED',
    patches: [SILENT, ROW_ACTIVITY],
    updates: ['refund'],
    activities: ['recordRefund', 'submitRefund'],
  },
  // the acquirer unreachable at the refund: PENDING, re-submitted with the same reference until it answers
  'refund-acquirer-unreachable-then-succeeded': {
    status: 'PARTIALLY_REFUNDED',
    patches: [SILENT, ROW_ACTIVITY],
    updates: ['refund'],
    activities: ['recordRefund', 'submitRefund'],
  },
  // the void window is over (the run completed): the refund starts a later run by update-with-start, which reads the row
  'refund-of-closed-payment-later-run': { status: 'PARTIALLY_REFUNDED', patches: [READS_ROW, ROW_ACTIVITY], updates: ['refund'], activities: ['recordRefund'] },
  // two refunds of one payment, the first: part of it in the running run, which then ends PARTIALLY_REFUNDED
  'refunds-partial-then-rest-first-run': { status: 'PARTIALLY_REFUNDED', patches: [SILENT, ROW_ACTIVITY], updates: ['refund'], activities: ['recordRefund'] },
  // the second: the rest (default amount) in a later run, REFUNDED
  'refunds-partial-then-rest-later-run': { status: 'REFUNDED', patches: [READS_ROW, ROW_ACTIVITY], updates: ['refund'], activities: ['recordRefund'] },
  // PENDING rows the running run never took (a lost task): the sweep hands them over (resumeRefunds); one paid, one failed unsent
  'refunds-resumed-in-running-run': { status: 'PARTIALLY_REFUNDED', patches: [SILENT], signals: ['resumeRefunds'], activities: ['submitRefund', 'readRefund'] },
  // a PENDING refund whose run was terminated: the sweep starts a run from the row (signal-with-start), which pays it once
  'refund-resumed-by-sweep-new-run': { status: 'PARTIALLY_REFUNDED', patches: [READS_ROW], signals: ['resumeRefunds'], activities: ['submitRefund'] },
} satisfies Record<string, PostSalePath>;

export type PostSalePathName = keyof typeof POST_SALE_PATHS;
export const POST_SALE_PATH_NAMES = Object.keys(POST_SALE_PATHS) as PostSalePathName[];
export const expectedOf = (name: PostSalePathName): PostSalePath => POST_SALE_PATHS[name];
