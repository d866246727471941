/**
 * The business date of contracts 8, as pure functions of an instant, an IANA time zone and the
 * cut-off hour: a store's day runs from SETTLEMENT_CUTOFF_HOUR local time to the same hour the
 * next calendar day, so a close at 01:30 local still belongs to the day before. Built on the
 * runtime's time-zone data (Intl), which knows every zone's offsets and daylight-saving changes.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall-clock date and hour of an instant in a zone. */
export function localTime(instant: Date, timeZone: string): { date: string; hour: number; minute: number } {
  const parts: Record<string, string> = {};
  for (const p of formatter(timeZone).formatToParts(instant)) parts[p.type] = p.value;
  return { date: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour), minute: Number(parts.minute) };
}

/** A calendar date `YYYY-MM-DD` moved by whole days. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** The business date of an instant: the local date, or the day before while the local hour is before the cut-off. */
export function businessDate(instant: Date, timeZone: string, cutoffHour: number): string {
  const local = localTime(instant, timeZone);
  return local.hour < cutoffHour ? addDays(local.date, -1) : local.date;
}

/**
 * The instant a business date ends: the first moment whose business date is later. On a day
 * whose cut-off hour does not exist locally (a spring-forward gap) it is the first instant after
 * the gap. Found by bisection over the 40 hours around the nominal UTC time, to the millisecond.
 */
export function businessDayEnd(date: string, timeZone: string, cutoffHour: number): Date {
  const [y, m, d] = date.split('-').map(Number);
  const nominal = Date.UTC(y, m - 1, d + 1, cutoffHour);
  let lo = nominal - 20 * 3600_000; // business date <= date here (no zone is 20 h ahead of UTC)
  let hi = nominal + 20 * 3600_000; // business date > date here
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (businessDate(new Date(mid), timeZone, cutoffHour) > date) hi = mid;
    else lo = mid;
  }
  return new Date(hi);
}

/** True when the zone is one the runtime knows (stores are validated the same way). */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}
