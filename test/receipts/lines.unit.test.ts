import { layoutReceipt, RECEIPT_WIDTH, row, wrap } from '../../src/receipts/lines';
import { maskEmail } from '../../src/receipts/mask';
import { formatMoney } from '../../src/receipts/money';
import { zonedIso } from '../../src/receipts/zonedTime';
import { tipAndTotal } from '../../src/receipts/amounts';

/** The printable receipt's layout (docs/receipts.md, "The printed receipt"): 48 characters a line at most. */
const layout = (over: Partial<Parameters<typeof layoutReceipt>[0]> = {}) =>
  layoutReceipt({
    merchantName: 'Café Zürich',
    storeName: 'Bahnhofstrasse',
    storeAddress: 'Bahnhofstrasse 1, 8001 Zürich, CH',
    details: [
      ['Date', '28 Nov 2026 10:40'],
      ['Terminal', 'Till 1'],
      ['Reference', 'ORDER-1'],
      ['Cashier', null],
    ],
    card: 'VISA **** 4242',
    amounts: [
      ['Amount', formatMoney('12.50', 'EUR')],
      ['TOTAL', formatMoney('12.50', 'EUR')],
    ],
    refunds: [],
    footer: ['APPROVED', 'Thank you'],
    ...over,
  });

const width = (l: string) => [...l].length;

it('keeps every line within 48 characters, also with a long store name, address and reference', () => {
  const long = 'The Extraordinarily Long Name Of A Neighbourhood Bakery And Coffee Roastery';
  const lines = layout({
    merchantName: long,
    storeName: `${long} (Station Branch)`,
    storeAddress: 'Unit 14b, The Old Railway Goods Yard, Platform Approach Road, Little Snoring-on-the-Marsh, NR21 0AA, GB',
    details: [['Reference', 'A-VERY-LONG-MERCHANT-REFERENCE-THAT-GOES-ON-AND-ON-0123456789']],
  });
  expect(RECEIPT_WIDTH).toBe(48);
  for (const l of lines) expect(width(l)).toBeLessThanOrEqual(48);
  // Nothing lost: the words of the name and the address are all there, wrapped.
  const text = lines.join(' ').replace(/\s+/g, ' ');
  expect(text).toContain('Neighbourhood Bakery And Coffee');
  expect(text).toContain('Little Snoring-on-the-Marsh, NR21 0AA, GB');
  expect(text).toContain('A-VERY-LONG-MERCHANT-REFERENCE-THAT-GOES-ON-AND-');
});

it('puts a label left and its value right on one line when they fit, else the value below', () => {
  expect(row('Amount', '€12.50')).toEqual([`Amount${' '.repeat(48 - 6 - 6)}€12.50`]);
  const split = row('Reference', 'R'.repeat(45));
  expect(split).toEqual(['Reference', `${' '.repeat(3)}${'R'.repeat(45)}`]);
  expect(wrap('x'.repeat(100))).toEqual(['x'.repeat(48), 'x'.repeat(48), 'x'.repeat(4)]);
});

it('drops details that are not set, and shows the card by brand and last four only', () => {
  const lines = layout();
  expect(lines.some((l) => l.startsWith('Cashier'))).toBe(false);
  expect(lines).toContain('VISA **** 4242');
  expect(lines.find((l) => l.startsWith('TOTAL'))).toMatch(/€12\.50$/);
});

it("writes money with the currency's symbol and decimals: 0 (JPY), 2 (EUR, GBP), 3 (BHD, KWD)", () => {
  expect(formatMoney('1200', 'JPY')).toBe('JP¥1,200');
  expect(formatMoney('12.5', 'EUR')).toBe('€12.50');
  expect(formatMoney('-2', 'GBP')).toBe('-£2.00');
  expect(formatMoney('1.5', 'BHD')).toBe('BHD 1.500');
  expect(formatMoney('12.345', 'KWD')).toBe('KWD 12.345');
  const lines = layout({ amounts: [['TOTAL', formatMoney('1200', 'JPY')]] });
  expect(lines.find((l) => l.startsWith('TOTAL'))).toMatch(/¥1,200$/);
});

it("writes the time in the store's zone with its offset", () => {
  const at = new Date('2026-11-28T09:40:20.500Z');
  expect(zonedIso(at, 'Europe/Zurich')).toBe('2026-11-28T10:40:20+01:00');
  expect(zonedIso(new Date('2026-07-01T09:40:20Z'), 'Europe/Zurich')).toBe('2026-07-01T11:40:20+02:00');
  expect(zonedIso(at, 'America/New_York')).toBe('2026-11-28T04:40:20-05:00');
  expect(zonedIso(at, 'Asia/Kolkata')).toBe('2026-11-28T15:10:20+05:30');
  expect(zonedIso(at, 'UTC')).toBe('2026-11-28T09:40:20+00:00');
  // Either side of Zurich's change to summer time (2026-03-29, 01:00 UTC), and a zone the runtime does not know.
  expect(zonedIso(new Date('2026-03-29T00:59:59Z'), 'Europe/Zurich')).toBe('2026-03-29T01:59:59+01:00');
  expect(zonedIso(new Date('2026-03-29T01:00:00Z'), 'Europe/Zurich')).toBe('2026-03-29T03:00:00+02:00');
  expect(zonedIso(at, 'Mars/Olympus_Mons')).toBe('2026-11-28T09:40:20+00:00');
});

it('masks an address as events and logs show it', () => {
  expect(maskEmail('jane.doe@example.com')).toBe('j***@example.com');
  expect(maskEmail('not-an-address')).toBe('***');
});

it('takes tip 0 and total = amount for a payment without a tip', () => {
  const { tipAmount, totalAmount } = tipAndTotal({ amount: '12.50' });
  expect(tipAmount.toFixed()).toBe('0');
  expect(totalAmount.toFixed()).toBe('12.5');
  expect(tipAndTotal({ amount: '10', tipAmount: '1.5', totalAmount: '11.5' }).totalAmount.toFixed()).toBe('11.5');
  // Without totalAmount on the record: the payment's own total rule (amount plus tip).
  expect(tipAndTotal({ amount: '10.00', tipAmount: '1.50' }).totalAmount.toFixed(2)).toBe('11.50');
});
