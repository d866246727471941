import { addDays, businessDate, businessDayEnd } from '../../src/settlement/businessDate';

/** The business-date rule of contracts 8 on the hard cases (pure: no stack). */
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

  it('addDays crosses months and leap days', () => {
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });
});
