/**
 * An instant written in a time zone with its offset (`2026-11-28T10:40:20+01:00`), as the receipt
 * shows when the payment happened where it happened. An unknown zone falls back to UTC.
 */
export function zonedIso(at: Date, timeZone: string): string {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    }).formatToParts(at);
  } catch {
    return zonedIso(at, 'UTC');
  }
  const p = (type: string) => parts.find((x) => x.type === type)!.value;
  const local = Date.UTC(+p('year'), +p('month') - 1, +p('day'), +p('hour'), +p('minute'), +p('second'));
  const offsetMin = Math.round((local - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
  const sign = offsetMin < 0 ? '-' : '+';
  const abs = Math.abs(offsetMin);
  const offset = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${p('year')}-${p('month')}-${p('day')}T${p('hour')}:${p('minute')}:${p('second')}${offset}`;
}

/** Day and time as printed on the receipt: `28 Nov 2026 10:40` in the zone. */
export function printedTime(zoned: string): string {
  const [date, rest] = zoned.split('T');
  const [y, m, d] = date!.split('-');
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  return `${d} ${months[Number(m) - 1]} ${y} ${rest!.slice(0, 5)}`;
}
