import { wallClock } from '../settlement/zoneClock';

/**
 * An instant written in a time zone with its offset (`2026-11-28T10:40:20+01:00`), as the receipt
 * shows when the payment happened where it happened. The zone's offset comes from the settlement's
 * zone clock (src/settlement/zoneClock.ts: Intl, cached per zone and day), so a receipt and the
 * business date read one clock. An unknown zone falls back to UTC.
 */
export function zonedIso(at: Date, timeZone: string): string {
  const second = Math.floor(at.getTime() / 1000) * 1000;
  let local: number;
  try {
    local = wallClock(second, timeZone);
  } catch {
    return zonedIso(at, 'UTC');
  }
  const offsetMin = Math.round((local - second) / 60_000);
  const sign = offsetMin < 0 ? '-' : '+';
  const abs = Math.abs(offsetMin);
  const two = (n: number) => String(n).padStart(2, '0');
  const offset = `${sign}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
  const d = new Date(local);
  const date = `${String(d.getUTCFullYear()).padStart(4, '0')}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}`;
  return `${date}T${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}${offset}`;
}

/** Day and time as printed on the receipt: `28 Nov 2026 10:40` in the zone. */
export function printedTime(zoned: string): string {
  const [date, rest] = zoned.split('T');
  const [y, m, d] = date!.split('-');
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  return `${d} ${months[Number(m) - 1]} ${y} ${rest!.slice(0, 5)}`;
}
