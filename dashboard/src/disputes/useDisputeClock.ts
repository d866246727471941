import { useEffect, useState } from 'react';
import { useSession } from '../session';

/** The hours before `dueBy` that the service reminds at (GET /api/dashboard/me), 48 until known. */
export function useReminderHours(): number {
  const { me } = useSession();
  return me?.disputeReminderHours ?? 48;
}

/** The time now, ticking every 30 seconds, so "due in ..." counts down while a page is open. */
export function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(t);
  }, []);
  return now;
}
