import path from 'node:path';
import type { temporal } from '@temporalio/proto';
import { itHasHistoryForEvery, itReplaysEvery, readHistory } from '../replayAll';
import { RECEIPT_REPLAY_PATH_NAMES, RECEIPT_REPLAY_PATHS } from './paths';

/**
 * Replays the committed receipt histories (sent at once, sent after the mailbox refused, given up)
 * against the current workflow code: a change that would break a receipt still retrying (for up to
 * a day) fails here. Each history is first checked to be the path its name says (paths.ts).
 */
const DIR = path.join(__dirname, 'histories');
const decoded = (payload: temporal.api.common.v1.IPayload | undefined): unknown =>
  payload?.data && payload.data.length > 0 ? JSON.parse(Buffer.from(payload.data).toString('utf8')) : undefined;

describe('receipt workflow replay', () => {
  // The customer's address never enters an event receipt's history: it is read when sending.
  itHasHistoryForEvery('has a committed history for every receipt path', DIR, RECEIPT_REPLAY_PATH_NAMES, (text) =>
    expect(text).not.toMatch(/example\.(com|test)/),
  );

  it.each(RECEIPT_REPLAY_PATH_NAMES)('%s: the history is of the path its name says', (name) => {
    const want = RECEIPT_REPLAY_PATHS[name];
    const events = readHistory(DIR, name).events ?? [];
    const completed = events.find((e) => e.workflowExecutionCompletedEventAttributes)?.workflowExecutionCompletedEventAttributes;
    const scheduled = events.filter((e) => e.activityTaskScheduledEventAttributes).map((e) => e.activityTaskScheduledEventAttributes!);
    expect(events[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name).toBe('receiptWorkflow');
    expect(decoded(completed?.result?.payloads?.[0])).toBe(want.result);
    expect(scheduled.map((a) => a.activityType?.name)).toEqual(want.activities);
    // The event published says the outcome.
    expect(decoded(scheduled[1]?.input?.payloads?.[0])).toMatchObject({ outcome: want.outcome, event: 'CAPTURED' });
    // The send's last attempt, as Temporal records it.
    const send = events.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'sendReceiptEmail');
    const started = events.find(
      (e) => e.activityTaskStartedEventAttributes && String(e.activityTaskStartedEventAttributes.scheduledEventId) === String(send?.eventId),
    );
    const attempts = started?.activityTaskStartedEventAttributes?.attempt ?? 0;
    expect(attempts).toBeGreaterThanOrEqual(want.minAttempts);
    expect(attempts).toBeLessThanOrEqual(want.maxAttempts);
    const ended = events.find(
      (e) => String((e.activityTaskCompletedEventAttributes ?? e.activityTaskFailedEventAttributes)?.scheduledEventId) === String(send?.eventId),
    );
    expect(ended?.activityTaskCompletedEventAttributes ? 'COMPLETED' : ended?.activityTaskFailedEventAttributes ? 'FAILED' : 'NEITHER').toBe(want.sendEnded);
  });

  itReplaysEvery('receipt-replay', DIR, RECEIPT_REPLAY_PATH_NAMES);
});
