import path from 'node:path';
import type { temporal } from '@temporalio/proto';
import { expectedOf, POST_SALE_PATH_NAMES } from './paths';
import { itHasHistoryForEvery, itReplaysEvery, readHistory } from '../replayAll';

/**
 * Replays the committed histories of the payment workflow's paths after the sale (two-step
 * completion, release and expiry; refunds in the running run, in a later run, resumed by the
 * sweep) against the current workflow code: a change that would break a payment already running
 * (a non-deterministic change, an unversioned one) fails here, before it reaches a worker. Each
 * history is first checked to be the path its name says (paths.ts), so a re-recording that went
 * another way cannot pass unnoticed.
 */
const DIR = path.join(__dirname, 'histories');
const history = (name: string) => readHistory(DIR, name);
const decoded = (payload: temporal.api.common.v1.IPayload | undefined): any =>
  payload?.data && payload.data.length > 0 ? JSON.parse(Buffer.from(payload.data).toString('utf8')) : undefined;

/** What a recorded run shows: its result, its patch markers, the signals and updates it took, the activities it scheduled. */
function summary(h: temporal.api.history.v1.IHistory) {
  const events = h.events ?? [];
  const completed = events.find((e) => e.workflowExecutionCompletedEventAttributes)?.workflowExecutionCompletedEventAttributes;
  const patches = events
    .map((e) => e.markerRecordedEventAttributes)
    .filter((m) => m?.markerName === 'core_patch')
    .map((m) => decoded(m!.details?.['patch-data']?.payloads?.[0])?.id as string);
  const signals = events.map((e) => e.workflowExecutionSignaledEventAttributes?.signalName).filter((n): n is string => !!n);
  const updates = events.map((e) => e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name).filter((n): n is string => !!n);
  const activities = events.map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name).filter((n): n is string => !!n);
  return {
    status: decoded(completed?.result?.payloads?.[0])?.status as string | undefined,
    patches: [...new Set(patches)].sort(),
    signals,
    updates,
    activities,
  };
}

/** The names `expected` lists more often than `got` has them (empty when every one is there). */
function atLeast(got: string[], expected: string[] = []): string[] {
  const count = (list: string[], name: string) => list.filter((n) => n === name).length;
  return [...new Set(expected)]
    .filter((name) => count(got, name) < count(expected, name))
    .map((name) => `${name} x${count(expected, name)}, found ${count(got, name)}`);
}

describe('payment workflow replay after the sale', () => {
  itHasHistoryForEvery('has a committed history for every path after the sale', DIR, POST_SALE_PATH_NAMES);

  it.each(POST_SALE_PATH_NAMES)('%s: the history is of the path its name says', (name) => {
    const expected = expectedOf(name);
    const got = summary(history(name));
    expect(got.status).toBe(expected.status);
    expect(got.patches).toEqual([...expected.patches].sort());
    // each named message or activity at least as often as it is named
    expect(atLeast(got.signals, expected.signals)).toEqual([]);
    expect(atLeast(got.updates, expected.updates)).toEqual([]);
    expect(atLeast(got.activities, expected.activities)).toEqual([]);
  });

  itReplaysEvery('post-sale-replay', DIR, POST_SALE_PATH_NAMES, 180_000);
});
