import { addDays, businessDate, businessDayEnd, localTime } from '../../src/settlement/businessDate';

/** The business-date rule (docs/settlement.md, "The business date") on the hard cases (pure: no stack). */
const at = (iso: string) => new Date(iso);

describe('businessDate', () => {
  it('a UTC+14 store is already on the next calendar day', () => {
    // 2026-06-10 12:00Z is 2026-06-11 02:00 in Kiritimati (UTC+14)
    expect(businessDate(at('2026-06-10T12:00:00Z'), 'Pacific/Kiritimati', 2)).toBe('2026-06-11');
    // one minute earlier it is 01:59 local: still the day before
    expect(businessDate(at('2026-06-10T11:59:00Z'), 'Pacific/Kiritimati', 2)).toBe('2026-06-10');
  });

  it('a UTC-11 store is still on the previous calendar day', () => {
    // 2026-06-11 10:00Z is 2026-06-10 23:00 in Pago Pago (UTC-11)
    expect(businessDate(at('2026-06-11T10:00:00Z'), 'Pacific/Pago_Pago', 2)).toBe('2026-06-10');
    // 13:00Z is 02:00 on the 11th local: the new business day
    expect(businessDate(at('2026-06-11T13:00:00Z'), 'Pacific/Pago_Pago', 2)).toBe('2026-06-11');
  });

  it('a close one minute before the cut-off belongs to the day before, one minute after to the day', () => {
    // Berlin in summer is UTC+2: 01:59 local = 23:59Z the day before
    expect(businessDate(at('2026-07-14T23:59:00Z'), 'Europe/Berlin', 2)).toBe('2026-07-14');
    expect(businessDate(at('2026-07-15T00:01:00Z'), 'Europe/Berlin', 2)).toBe('2026-07-15');
    expect(businessDate(at('2026-07-15T00:00:00Z'), 'Europe/Berlin', 2)).toBe('2026-07-15'); // exactly the cut-off
  });

  it('a payment captured just before local midnight and closed just after share one business date', () => {
    const captured = at('2026-07-14T21:59:00Z'); // 23:59 in Berlin
    const closed = at('2026-07-14T22:01:00Z'); // 00:01 in Berlin, before the 02:00 cut-off
    expect(businessDate(captured, 'Europe/Berlin', 2)).toBe('2026-07-14');
    expect(businessDate(closed, 'Europe/Berlin', 2)).toBe('2026-07-14');
  });

  it('with cut-off 0 the business date is the calendar date', () => {
    expect(businessDate(at('2026-07-14T22:01:00Z'), 'Europe/Berlin', 0)).toBe('2026-07-15');
  });

  it('on the spring-forward day the missing cut-off hour ends the day at the gap', () => {
    // Berlin 2026-03-29: 02:00 CET jumps to 03:00 CEST at 01:00Z; 02:00 local never happens
    expect(businessDate(at('2026-03-29T00:59:00Z'), 'Europe/Berlin', 2)).toBe('2026-03-28'); // 01:59 CET
    expect(businessDate(at('2026-03-29T01:00:00Z'), 'Europe/Berlin', 2)).toBe('2026-03-29'); // 03:00 CEST
    expect(businessDayEnd('2026-03-28', 'Europe/Berlin', 2).toISOString()).toBe('2026-03-29T01:00:00.000Z');
  });

  it('on the fall-back day the business day lasts 25 hours and the repeated hour stays in it', () => {
    // Berlin 2026-10-25: 03:00 CEST falls back to 02:00 CET at 01:00Z
    const start = businessDayEnd('2026-10-24', 'Europe/Berlin', 2); // 02:00 CEST
    const end = businessDayEnd('2026-10-25', 'Europe/Berlin', 2); // 02:00 CET the next day
    expect(start.toISOString()).toBe('2026-10-25T00:00:00.000Z');
    expect(end.toISOString()).toBe('2026-10-26T01:00:00.000Z');
    expect((end.getTime() - start.getTime()) / 3600_000).toBe(25);
    // 02:30 CET, the second 02:30 of the night, is still the 25th
    expect(businessDate(at('2026-10-25T01:30:00Z'), 'Europe/Berlin', 2)).toBe('2026-10-25');
  });

  it('a day ends at the cut-off of the next calendar day, in any zone', () => {
    expect(businessDayEnd('2026-06-10', 'Pacific/Kiritimati', 2).toISOString()).toBe('2026-06-10T12:00:00.000Z');
    expect(businessDayEnd('2026-06-10', 'Pacific/Pago_Pago', 2).toISOString()).toBe('2026-06-11T13:00:00.000Z');
    expect(businessDayEnd('2026-06-10', 'UTC', 2).toISOString()).toBe('2026-06-11T02:00:00.000Z');
  });

  it('where the clocks go back across the cut-off, the repeated time belongs to the new day (Antarctica/Troll, cut-off 2)', () => {
    // Troll 2026-10-25: 03:00 +02 falls back to 01:00 +00 at 01:00Z; 02:00 local is passed at 00:00Z
    expect(businessDate(at('2026-10-24T23:59:00Z'), 'Antarctica/Troll', 2)).toBe('2026-10-24'); // 01:59 +02
    expect(businessDate(at('2026-10-25T00:00:00Z'), 'Antarctica/Troll', 2)).toBe('2026-10-25'); // 02:00 +02
    expect(businessDate(at('2026-10-25T01:00:00Z'), 'Antarctica/Troll', 2)).toBe('2026-10-25'); // 01:00 +00, again
    expect(businessDate(at('2026-10-25T01:59:00Z'), 'Antarctica/Troll', 2)).toBe('2026-10-25'); // 01:59 +00
    // the day began at the first 02:00 and lasts 26 hours, to 02:00 +00 the next day
    expect(businessDayEnd('2026-10-24', 'Antarctica/Troll', 2).toISOString()).toBe('2026-10-25T00:00:00.000Z');
    expect(businessDayEnd('2026-10-25', 'Antarctica/Troll', 2).toISOString()).toBe('2026-10-26T02:00:00.000Z');
  });

  it('the same for a 45-minute zone (Pacific/Chatham, cut-off 3)', () => {
    // Chatham 2026-04-05: 03:45 +13:45 falls back to 02:45 +12:45 at 14:00Z on the 4th; 03:00 local is passed at 13:15Z
    expect(businessDate(at('2026-04-04T13:14:00Z'), 'Pacific/Chatham', 3)).toBe('2026-04-04'); // 02:59 +13:45
    expect(businessDate(at('2026-04-04T13:15:00Z'), 'Pacific/Chatham', 3)).toBe('2026-04-05'); // 03:00 +13:45
    expect(businessDate(at('2026-04-04T14:00:00Z'), 'Pacific/Chatham', 3)).toBe('2026-04-05'); // 02:45 +12:45, again
    expect(businessDate(at('2026-04-04T14:14:00Z'), 'Pacific/Chatham', 3)).toBe('2026-04-05'); // 02:59 +12:45
    expect(businessDayEnd('2026-04-04', 'Pacific/Chatham', 3).toISOString()).toBe('2026-04-04T13:15:00.000Z');
    expect(businessDayEnd('2026-04-05', 'Pacific/Chatham', 3).toISOString()).toBe('2026-04-05T14:15:00.000Z');
  });

  it('addDays crosses months and leap days', () => {
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });
});

/**
 * Every zone the runtime knows, through 2026: the business date never steps back as time moves
 * forward, and the local clock it is built on agrees with Intl. Kept to seconds: the whole year
 * hourly for cut-offs 2 (the default) and 3, and every 15 minutes (every offset in use is a multiple of 15
 * minutes) with every cut-off 0..23 around each offset change found by a daily Intl reading.
 * Failures are collected and asserted once: an expect() per instant would cost most of the time.
 */
describe('businessDate in every time zone', () => {
  const QUARTER = 15 * 60_000;
  const HOUR = 3600_000;
  const DAY = 24 * HOUR;
  const yearStart = Date.UTC(2026, 0, 1);
  const yearEnd = Date.UTC(2027, 0, 1);
  const zones = Intl.supportedValuesOf('timeZone');
  // read once: every global look-up (Date) is slow inside jest's sandbox, and this asks millions
  const Instant = Date;

  /** Steps back of the business date over instants from..to, every step (at most a few, to keep failures readable). */
  function stepsBack(zone: string, cutoff: number, from: number, to: number, step: number, found: string[]): number {
    let previous = businessDate(new Instant(from), zone, cutoff);
    let checked = 0;
    for (let t = from + step; t <= to; t += step) {
      const date = businessDate(new Instant(t), zone, cutoff);
      if (date < previous && found.length < 20) found.push(`${zone} cut-off ${cutoff}: ${previous} then ${date} at ${new Date(t).toISOString()}`);
      previous = date;
      checked++;
    }
    return checked;
  }

  const formatters = new Map<string, Intl.DateTimeFormat>();
  /** The local reading Intl gives, and the offset it implies. */
  function intlLocal(zone: string, instant: number): { date: string; hour: number; minute: number; offset: number } {
    let f = formatters.get(zone);
    if (!f) {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
      });
      formatters.set(zone, f);
    }
    const p: Record<string, string> = {};
    for (const part of f.formatToParts(new Date(instant))) p[part.type] = part.value;
    const wall = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute));
    return { date: `${p.year}-${p.month}-${p.day}`, hour: Number(p.hour), minute: Number(p.minute), offset: wall - instant };
  }

  it('knows about 400 zones', () => {
    expect(zones.length).toBeGreaterThan(300);
  });

  it('never steps back: the whole year hourly (cut-offs 2 and 3), every 15 minutes around each clock change (every cut-off)', () => {
    const found: string[] = [];
    const misread: string[] = [];
    let checked = 0;
    let changes = 0;
    for (const zone of zones) {
      for (const cutoff of [2, 3]) checked += stepsBack(zone, cutoff, yearStart - DAY, yearEnd + DAY, HOUR, found);
      // one Intl reading a day, at a time of day that moves through the day, checks the local
      // clock the business date is built on; where the offset differs from the day before, the
      // clock changed in between
      let before = { instant: yearStart - DAY, ...intlLocal(zone, yearStart - DAY) };
      for (let day = yearStart; day <= yearEnd; day += DAY) {
        const instant = day + ((day / DAY) % 96) * QUARTER;
        const { offset, ...reading } = intlLocal(zone, instant);
        const ours = localTime(new Date(instant), zone);
        if (ours.date !== reading.date || ours.hour !== reading.hour || ours.minute !== reading.minute) {
          misread.push(`${zone} at ${new Date(instant).toISOString()}: ${JSON.stringify(ours)}, Intl ${JSON.stringify(reading)}`);
        }
        if (offset !== before.offset) {
          changes++;
          for (let cutoff = 0; cutoff < 24; cutoff++) checked += stepsBack(zone, cutoff, before.instant - 12 * HOUR, instant + 12 * HOUR, QUARTER, found);
        }
        before = { instant, offset, ...reading };
      }
    }
    expect(found).toEqual([]);
    expect(misread).toEqual([]);
    expect(changes).toBeGreaterThan(100); // daylight saving in many zones: the 15-minute sweeps ran
    expect(checked).toBeGreaterThan(zones.length * 2 * 365 * 24);
  });
});
