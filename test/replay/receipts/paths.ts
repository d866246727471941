/**
 * The receipt workflow's histories (docs/receipts.md, "Replay histories"), committed under
 * histories/ and replayed by receiptReplay.unit.test.ts. Each names what its recorded run must
 * show, so a history recorded down another path fails the test: `result` (what the workflow
 * returned), the activities it scheduled, the event it published, and the least number of attempts
 * the send took (Temporal records the last attempt of an activity, with the failure before it).
 * scripts/replay/recordReceiptHistories.test.ts writes them
 * (npm run replay:record -- scripts/replay/recordReceiptHistories.test.ts).
 */
export interface ReceiptReplayPath {
  result: 'SENT' | 'FAILED';
  outcome: 'SENT' | 'FAILED';
  activities: string[];
  /** The send's attempts, at least. */
  minAttempts: number;
  /** The send's attempts, at most. */
  maxAttempts: number;
  /** How the send ended: taken by the mail server, or refused until the schedule was spent. */
  sendEnded: 'COMPLETED' | 'FAILED';
}

export const RECEIPT_REPLAY_PATHS = {
  // the mailbox takes it at the first attempt: RECEIPT_SENT
  'receipt-sent': {
    result: 'SENT',
    outcome: 'SENT',
    activities: ['sendReceiptEmail', 'publishReceiptEvent'],
    minAttempts: 1,
    maxAttempts: 1,
    sendEnded: 'COMPLETED',
  },
  // the mailbox refuses (SMTP 421) a few attempts, then takes it: RECEIPT_SENT
  'receipt-sent-after-refusals': {
    result: 'SENT',
    outcome: 'SENT',
    activities: ['sendReceiptEmail', 'publishReceiptEvent'],
    minAttempts: 3,
    maxAttempts: 100,
    sendEnded: 'COMPLETED',
  },
  // the mailbox refuses until the schedule is spent (RECEIPT_RETRY_MAX_AGE_HOURS, a few seconds when recorded): RECEIPT_FAILED
  'receipt-failed': {
    result: 'FAILED',
    outcome: 'FAILED',
    activities: ['sendReceiptEmail', 'publishReceiptEvent'],
    minAttempts: 2,
    maxAttempts: 100,
    sendEnded: 'FAILED',
  },
} satisfies Record<string, ReceiptReplayPath>;

export type ReceiptReplayPathName = keyof typeof RECEIPT_REPLAY_PATHS;
export const RECEIPT_REPLAY_PATH_NAMES = Object.keys(RECEIPT_REPLAY_PATHS) as ReceiptReplayPathName[];
