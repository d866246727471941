/**
 * The wall clock of an instant in an IANA time zone, from the runtime's time-zone data (Intl),
 * plus the latest wall-clock reading up to that instant. The business date needs the latter: where
 * a zone sets its clocks back, the wall clock runs backwards, and a date computed from the current
 * reading alone would step back a day for a while (docs/settlement.md, "The business date").
 *
 * Intl's formatToParts costs microseconds, and the settlement rules ask for many instants (the
 * bisection of businessDayEnd, the daily close over every store), so each zone's offsets are read
 * once per UTC day and cached: the offset at the day's start and at its end, and, when they
 * differ, the instant of the change found by bisection. This assumes a zone changes its offset at
 * most once per UTC day, which holds for every zone of the tz database in modern times: checked
 * once against Intl at four instants a day in every zone from 1970 to 2040 (42.7 million readings,
 * none different), and on every test run for 2026 by test/settlement/businessDate.test.ts.
 */
// Globals read once: inside jest's sandbox every global look-up (Math, Infinity) is slow, and the
// sweep test asks millions of instants.
const { floor, max } = Math;
const NO_CHANGE = Number.POSITIVE_INFINITY;

const SECOND = 1000;
const HOUR = 3600 * SECOND;
const DAY = 24 * HOUR;

/**
 * How far back a clock change can still matter. The largest step back in the tz database is a
 * day (a zone moving across the date line); the two UTC days before an instant's own day cover it
 * with room to spare.
 */
const LOOKBACK_DAYS = 2;

/**
 * One UTC day of a zone: its offset before and after `changeAt` (Infinity: no change that day),
 * and, once asked, the latest wall-clock reading before the changes of the look-back days before
 * it (-Infinity: none), so that latestWallClock costs one look-up.
 */
interface ZoneDay {
  before: number;
  after: number;
  changeAt: number;
  earlierLatest?: number;
}

/** Per zone, per UTC day number. Bounded, so a process asked about many distant dates does not grow without end. */
const MAX_CACHED_DAYS = 200_000;
let cachedDays = 0;
const zones = new Map<string, Map<number, ZoneDay>>();
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Throws a RangeError for a zone the runtime does not know. */
export function checkTimeZone(timeZone: string): void {
  formatter(timeZone);
}

/** The zone's offset from UTC at a whole second, in milliseconds, asked of Intl itself. */
function intlOffset(second: number, timeZone: string): number {
  const p: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(second))) p[part.type] = Number(part.value);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - second;
}

function zoneDays(timeZone: string): Map<number, ZoneDay> {
  let zone = zones.get(timeZone);
  if (!zone) {
    checkTimeZone(timeZone);
    zone = new Map();
    zones.set(timeZone, zone);
  }
  return zone;
}

function zoneDay(zone: Map<number, ZoneDay>, day: number, timeZone: string): ZoneDay {
  let entry = zone.get(day);
  if (entry) return entry;
  const start = day * DAY;
  // a neighbouring day already read shares its boundary: half the Intl calls on a run of days
  const before = zone.get(day - 1)?.after ?? intlOffset(start, timeZone);
  const after = zone.get(day + 1)?.before ?? intlOffset(start + DAY, timeZone);
  let changeAt = NO_CHANGE;
  if (before !== after) {
    // Bisection in whole seconds (offsets change on whole seconds): lo has `before`, hi `after`.
    let lo = start;
    let hi = start + DAY;
    while (hi - lo > SECOND) {
      const mid = lo + floor((hi - lo) / SECOND / 2) * SECOND;
      if (intlOffset(mid, timeZone) === before) lo = mid;
      else hi = mid;
    }
    changeAt = hi;
  }
  entry = { before, after, changeAt };
  if (cachedDays >= MAX_CACHED_DAYS) {
    for (const z of zones.values()) z.clear();
    cachedDays = 0;
    last = undefined;
  }
  zone.set(day, entry);
  cachedDays++;
  return entry;
}

/** The wall-clock reading of an instant in a zone, as milliseconds on a UTC time line. */
export function wallClock(instant: number, timeZone: string): number {
  const d = zoneDay(zoneDays(timeZone), floor(instant / DAY), timeZone);
  return instant + (instant < d.changeAt ? d.before : d.after);
}

/**
 * The latest wall-clock reading at or before an instant: the current reading, or, after a clock
 * change set the clocks back, the last reading before that change while the clock catches up.
 * The wall clock only rises between changes, so its maximum is at the instant itself or just
 * before one of the changes in the look-back window.
 */
// The day asked last: consecutive questions (a bisection, a sweep) are mostly about the same day.
let last: { timeZone: string; day: number; entry: ZoneDay } | undefined;

export function latestWallClock(instant: number, timeZone: string): number {
  const today = floor(instant / DAY);
  let d: ZoneDay;
  if (last && last.day === today && last.timeZone === timeZone) d = last.entry;
  else {
    d = zoneDay(zoneDays(timeZone), today, timeZone);
    last = { timeZone, day: today, entry: d };
  }
  if (d.earlierLatest === undefined) {
    d.earlierLatest = -NO_CHANGE;
    const zone = zoneDays(timeZone);
    for (let day = today - LOOKBACK_DAYS; day < today; day++) {
      const past = zoneDay(zone, day, timeZone);
      if (past.changeAt !== NO_CHANGE) d.earlierLatest = max(d.earlierLatest, past.changeAt - 1 + past.before);
    }
  }
  const current = instant < d.changeAt ? instant + d.before : max(instant + d.after, d.changeAt - 1 + d.before);
  return max(current, d.earlierLatest);
}
