import type { Db } from '../db/client';

/**
 * The idle timeout of dashboard sessions (SESSION_IDLE_MINUTES), besides their SESSION_TTL_HOURS
 * lifetime: a token left unused (a forgotten tab, a stolen token kept for later) stops working.
 * Each authenticated request records the session's last use, but writes it at most once a
 * minute (sooner only for idle times under ten minutes), so the database sees one write per
 * active session per minute, not one per request.
 */
const MAX_WRITE_INTERVAL_MS = 60_000;

const idleMs = (idleMinutes: number): number => idleMinutes * 60_000;
const writeIntervalMs = (idleMinutes: number): number => Math.min(MAX_WRITE_INTERVAL_MS, idleMs(idleMinutes) / 10);

/** True when the session was last seen longer than the idle time ago. */
export function idleTooLong(lastSeenAt: Date, now: Date, idleMinutes: number): boolean {
  return now.getTime() - lastSeenAt.getTime() > idleMs(idleMinutes);
}

/** Moves the session's last use to `now` when the stored one is stale; a concurrent write wins harmlessly. */
export async function noteSessionUse(db: Pick<Db, 'session'>, sessionId: string, lastSeenAt: Date, now: Date, idleMinutes: number): Promise<void> {
  const interval = writeIntervalMs(idleMinutes);
  if (now.getTime() - lastSeenAt.getTime() < interval) return;
  const staleBefore = new Date(now.getTime() - interval);
  await db.session.updateMany({ where: { id: sessionId, lastSeenAt: { lt: staleBefore } }, data: { lastSeenAt: now } });
}
