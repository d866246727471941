/**
 * The business date (docs/settlement.md, "The business date"), as pure functions of an instant, an IANA time zone and the
 * cut-off hour: a store's day runs from SETTLEMENT_CUTOFF_HOUR local time to the same hour the
 * next calendar day, so a close at 01:30 local still belongs to the day before. Built on the
 * runtime's time-zone data (Intl, through ./zoneClock), which knows every zone's offsets and
 * daylight-saving changes.
 *
 * A business day starts the first time the local clock reaches the cut-off, and the business
 * date never steps back as time moves forward: where the clocks are set back across the
 * cut-off (Antarctica/Troll falls back from 03:00 to 01:00, Pacific/Chatham from 03:45 to 02:45),
 * the repeated time belongs to the new day, which then lasts longer.
 */
import { checkTimeZone, latestWallClock, wallClock } from './zoneClock';

const HOUR = 3600_000;
const { floor } = Math; // read once: a global look-up is slow inside jest's sandbox
const DAY = 24 * HOUR;

/** `YYYY-MM-DD` of UTC day numbers, memoised: toISOString costs more than the rest of businessDate. */
const dayNames = new Map<number, string>();
function dayName(day: number): string {
  let name = dayNames.get(day);
  if (name === undefined) {
    name = new Date(day * DAY).toISOString().slice(0, 10);
    if (dayNames.size >= 100_000) dayNames.clear();
    dayNames.set(day, name);
  }
  return name;
}

/** The wall-clock date and hour of an instant in a zone. */
export function localTime(instant: Date, timeZone: string): { date: string; hour: number; minute: number } {
  const wall = new Date(wallClock(instant.getTime(), timeZone));
  return { date: wall.toISOString().slice(0, 10), hour: wall.getUTCHours(), minute: wall.getUTCMinutes() };
}

/** A calendar date `YYYY-MM-DD` moved by whole days. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/**
 * The business date of an instant: the local date, or the day before while the local hour is
 * before the cut-off. Taken from the latest local reading so far, not the current one, so that
 * a clock set back does not take the date back with it.
 */
export function businessDate(instant: Date, timeZone: string, cutoffHour: number): string {
  const latest = latestWallClock(instant.getTime(), timeZone);
  // Shifting the reading back by the cut-off turns "before the cut-off" into "the day before".
  return dayName(floor((latest - cutoffHour * HOUR) / DAY));
}

/**
 * The instant a business date ends: the first moment whose business date is later. On a day
 * whose cut-off hour does not exist locally (a spring-forward gap) it is the first instant after
 * the gap. Found by bisection over the 40 hours around the nominal UTC time, to the millisecond;
 * bisection is sound because businessDate never steps back.
 */
export function businessDayEnd(date: string, timeZone: string, cutoffHour: number): Date {
  const [y, m, d] = date.split('-').map(Number);
  const nominal = Date.UTC(y, m - 1, d + 1, cutoffHour);
  let lo = nominal - 20 * HOUR; // business date <= date here (no zone is 20 h ahead of UTC)
  let hi = nominal + 20 * HOUR; // business date > date here
  while (hi - lo > 1) {
    const mid = floor((lo + hi) / 2);
    if (businessDate(new Date(mid), timeZone, cutoffHour) > date) hi = mid;
    else lo = mid;
  }
  return new Date(hi);
}

/** True when the zone is one the runtime knows (stores are validated the same way). */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    checkTimeZone(timeZone);
    return true;
  } catch {
    return false;
  }
}
