import { dueAutoCloses } from '../../src/settlement/autoClose';

/** Which stores the daily close takes at an instant (pure: no stack). Cut-off 02:00 local. */
const at = (iso: string) => new Date(iso);
const LONG_AGO = at('2026-01-01T00:00:00Z');
const store = (id: string, timezone: string, createdAt = LONG_AGO) => ({ id, timezone, createdAt });
const kiritimati = store('kiritimati', 'Pacific/Kiritimati'); // UTC+14
const pagoPago = store('pago-pago', 'Pacific/Pago_Pago'); // UTC-11
const berlin = store('berlin', 'Europe/Berlin'); // UTC+2 in summer

describe('dueAutoCloses', () => {
  it('a UTC+14 store is due when its cut-off passes, hours before UTC reaches that day', () => {
    // 2026-06-10 12:00Z is 02:00 on the 11th in Kiritimati: the 10th ended there
    expect(dueAutoCloses([kiritimati, pagoPago], new Set(), at('2026-06-10T12:00:00Z'), 2)).toEqual([
      { storeId: 'kiritimati', timezone: 'Pacific/Kiritimati', date: '2026-06-10' },
      // Pago Pago: 01:00 on the 10th, the 8th ended two nights ago and was the last business day that ended
      { storeId: 'pago-pago', timezone: 'Pacific/Pago_Pago', date: '2026-06-08' },
    ]);
    // one minute before: 01:59 local, the business day of the 10th is still running; the 9th is the last that ended
    expect(dueAutoCloses([kiritimati], new Set(), at('2026-06-10T11:59:00Z'), 2)).toEqual([
      { storeId: 'kiritimati', timezone: 'Pacific/Kiritimati', date: '2026-06-09' },
    ]);
  });

  it('a UTC-11 store is due a day after UTC has moved on', () => {
    // 2026-06-11 13:00Z is 02:00 on the 11th in Pago Pago: the 10th ended
    expect(dueAutoCloses([pagoPago], new Set(), at('2026-06-11T13:00:00Z'), 2)).toEqual([
      { storeId: 'pago-pago', timezone: 'Pacific/Pago_Pago', date: '2026-06-10' },
    ]);
    expect(dueAutoCloses([pagoPago], new Set(), at('2026-06-11T12:59:00Z'), 2)).toEqual([
      { storeId: 'pago-pago', timezone: 'Pacific/Pago_Pago', date: '2026-06-09' },
    ]);
  });

  it('the cut-off minute decides: 01:59 local closes the day before yesterday, 02:01 yesterday', () => {
    const before = dueAutoCloses([berlin], new Set(['berlin 2026-07-13']), at('2026-07-14T23:59:00Z'), 2); // 01:59 on the 15th
    expect(before).toEqual([]); // the 13th is done, the 14th has not ended
    const after = dueAutoCloses([berlin], new Set(['berlin 2026-07-13']), at('2026-07-15T00:01:00Z'), 2); // 02:01 on the 15th
    expect(after).toEqual([{ storeId: 'berlin', timezone: 'Europe/Berlin', date: '2026-07-14' }]);
    // exactly at the cut-off the day has ended
    expect(dueAutoCloses([berlin], new Set(['berlin 2026-07-13']), at('2026-07-15T00:00:00Z'), 2)).toHaveLength(1);
  });

  it('a store already closed by the service for that business date is not due again; the others are', () => {
    const now = at('2026-07-15T00:30:00Z'); // Berlin 02:30 on the 15th, Kiritimati 14:30, Pago Pago 13:30 on the 14th
    const done = new Set(['berlin 2026-07-14']);
    expect(dueAutoCloses([berlin, kiritimati, pagoPago], done, now, 2).map((d) => `${d.storeId} ${d.date}`)).toEqual([
      'kiritimati 2026-07-14',
      'pago-pago 2026-07-13',
    ]);
  });

  it('a store created after its last business day ended has nothing due', () => {
    const now = at('2026-07-15T10:00:00Z'); // Berlin 12:00 on the 15th: the 14th ended at 00:00Z
    expect(dueAutoCloses([store('new', 'Europe/Berlin', at('2026-07-15T00:00:00Z'))], new Set(), now, 2)).toEqual([]);
    expect(dueAutoCloses([store('older', 'Europe/Berlin', at('2026-07-14T23:59:59Z'))], new Set(), now, 2)).toEqual([
      { storeId: 'older', timezone: 'Europe/Berlin', date: '2026-07-14' },
    ]);
  });

  it('follows the configured cut-off hour', () => {
    // 05:30 local in Berlin: with cut-off 6 the business day of the 14th still runs
    const now = at('2026-07-15T03:30:00Z');
    expect(dueAutoCloses([berlin], new Set(), now, 6)[0]!.date).toBe('2026-07-13');
    expect(dueAutoCloses([berlin], new Set(), now, 2)[0]!.date).toBe('2026-07-14');
  });
});
