import path from 'node:path';
import { PATCHED_PATHS } from './patchedPaths';
import { itReplaysEvery, readHistory } from './replayAll';
import { EPOCHS, PATCHES } from '../../workflows/payment/patches';

/** Replays the histories of versioned workflow changes (patchedPaths.ts) against the current workflow code. */
const DIR = path.join(__dirname, 'patched');

itReplaysEvery('patched-replay', DIR, PATCHED_PATHS, 120_000, 'replays every history of a versioned change without a determinism error');

/** The patches a history took (their markers' ids) and how many local activities it ran. */
function pathOf(name: string): { patches: string[]; localActivities: number } {
  const markers = readHistory(DIR, name).events.flatMap((e) => (e.markerRecordedEventAttributes ? [e.markerRecordedEventAttributes] : []));
  const patches = markers
    .filter((m) => m.markerName === 'core_patch')
    .map((m) => JSON.parse(Buffer.from(m.details?.['patch-data']?.payloads?.[0]?.data ?? new Uint8Array()).toString()) as { id: string })
    .map((d) => d.id);
  return { patches, localActivities: markers.filter((m) => m.markerName === 'core_local_activity').length };
}

/** The (regular) activities a history scheduled, by type. */
const activitiesOf = (name: string): string[] =>
  readHistory(DIR, name).events.flatMap((e) =>
    e.activityTaskScheduledEventAttributes ? [e.activityTaskScheduledEventAttributes.activityType?.name ?? ''] : [],
  );

it('the captured histories take the paths they are kept for (docs/benchmark.md, "Trips into the sandbox")', () => {
  const before = pathOf('payment-captured-record-and-publish');
  const after = pathOf('payment-captured-send-and-record');
  const woken = pathOf('payment-captured-woken-by-changes');
  const afterCommit = pathOf('payment-captured-publish-after-commit');
  expect(before.patches).not.toContain('send-and-record-together');
  expect(after.patches).toEqual(expect.arrayContaining(['send-and-record-together', 'record-and-publish-together']));
  expect(after.patches).not.toContain('waits-woken-by-changes');
  expect(woken.patches).toEqual(expect.arrayContaining(['waits-woken-by-changes', 'send-and-record-together', 'record-and-publish-together']));
  // The send and the first projection, the read, the capture's projection and publishing: one local activity less.
  expect([before.localActivities, after.localActivities, woken.localActivities]).toEqual([4, 3, 3]);
  // Publishing left the local activities: an activity scheduled by the deciding task (the local activity count stays: the projection remains one).
  expect(woken.patches).not.toContain('publish-after-commit');
  expect(afterCommit.patches).toEqual(expect.arrayContaining(['publish-after-commit', 'waits-woken-by-changes', 'send-and-record-together']));
  expect(afterCommit.patches).not.toContain('record-and-publish-together');
  expect(afterCommit.localActivities).toBe(3);
  expect(activitiesOf('payment-captured-publish-after-commit')).toContain('publishPaymentEvent');
  expect(activitiesOf('payment-captured-woken-by-changes')).not.toContain('publishPaymentEvent');
  // The notification's read and the capture's projection: one local activity less; the event still published after the commit.
  const readAndRecord = pathOf('payment-captured-read-and-record');
  expect(afterCommit.patches).not.toContain('read-and-record-together');
  expect(readAndRecord.patches).toEqual(expect.arrayContaining(['read-and-record-together', 'publish-after-commit', 'send-and-record-together']));
  expect(readAndRecord.localActivities).toBe(2);
  expect(activitiesOf('payment-captured-read-and-record')).toContain('publishPaymentEvent');
});

it('a new run takes every patch under the newest epoch: one marker where there was one per patch (docs/operations.md, "Patch epochs")', () => {
  const epoch = pathOf('payment-captured-epoch');
  const before = pathOf('payment-captured-read-and-record');
  expect(epoch.patches).toEqual([EPOCHS[0]!.id]);
  expect(before.patches.length).toBeGreaterThanOrEqual(7);
  // The same path otherwise: the read and its projection together, the event published after the commit.
  expect(epoch.localActivities).toBe(before.localActivities);
  expect(activitiesOf('payment-captured-epoch')).toEqual(activitiesOf('payment-captured-read-and-record'));
  // Twelve events fewer: six markers and six search attribute upserts.
  expect(readHistory(DIR, 'payment-captured-read-and-record').events.length - readHistory(DIR, 'payment-captured-epoch').events.length).toBe(12);
});

it('an epoch names only patches that exist, and the newest includes every patch shipped by its day', () => {
  const ids = Object.values(PATCHES).map((p) => p.id);
  for (const e of EPOCHS) expect(e.includes.filter((id) => !ids.includes(id))).toEqual([]);
  const newest = EPOCHS[0]!;
  const shippedBy = Object.values(PATCHES)
    .filter((p) => p.shipped <= newest.shipped)
    .map((p) => p.id);
  expect([...newest.includes].sort()).toEqual(shippedBy.sort());
});
