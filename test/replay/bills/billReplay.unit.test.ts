import path from 'node:path';
import type { temporal } from '@temporalio/proto';
import { itHasHistoryForEvery, itReplaysEvery, readHistory } from '../replayAll';
import { BILL_REPLAY_PATH_NAMES, BILL_REPLAY_PATHS } from './paths';

/**
 * Replays the committed bill histories (paid, cancelled, expired) against the current workflow
 * code: a change that would break a bill already running fails here. Each history is first checked
 * to be the path its name says (paths.ts).
 */
const DIR = path.join(__dirname, 'histories');
const decoded = (payload: temporal.api.common.v1.IPayload | undefined): unknown =>
  payload?.data && payload.data.length > 0 ? JSON.parse(Buffer.from(payload.data).toString('utf8')) : undefined;
/** The names `expected` lists more often than `got` has them (empty when every one is there). */
const missing = (got: string[], expected: string[]) =>
  [...new Set(expected)].filter((n) => got.filter((g) => g === n).length < expected.filter((e) => e === n).length);

describe('bill workflow replay', () => {
  itHasHistoryForEvery('has a committed history for every bill path', DIR, BILL_REPLAY_PATH_NAMES);

  it.each(BILL_REPLAY_PATH_NAMES)('%s: the history is of the path its name says', (name) => {
    const events = readHistory(DIR, name).events ?? [];
    const completed = events.find((e) => e.workflowExecutionCompletedEventAttributes)?.workflowExecutionCompletedEventAttributes;
    const updates = events.map((e) => e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name).filter((n): n is string => !!n);
    const activities = events.map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name).filter((n): n is string => !!n);
    expect(events[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name).toBe('billWorkflow');
    expect(decoded(completed?.result?.payloads?.[0])).toBe(BILL_REPLAY_PATHS[name].result);
    expect(missing(updates, BILL_REPLAY_PATHS[name].updates)).toEqual([]);
    expect(missing(activities, BILL_REPLAY_PATHS[name].activities)).toEqual([]);
  });

  itReplaysEvery('bill-replay', DIR, BILL_REPLAY_PATH_NAMES);
});
