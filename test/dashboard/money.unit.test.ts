import { formatMoney } from '../../dashboard/src/format/money';

/** Money as the dashboard shows it (issue 31): the currency's own minor units, the reader's locale, exact digits. */
describe('formatMoney', () => {
  it("uses the currency's symbol and minor units", () => {
    expect(formatMoney(12.5, 'EUR', 'en-US')).toBe('€12.50');
    expect(formatMoney(1250, 'JPY', 'en-US')).toBe('¥1,250');
    expect(formatMoney(1.234, 'BHD', 'en-US')).toBe('BHD\u00a01.234');
  });

  it("follows the reader's locale", () => {
    expect(formatMoney(1250, 'SEK', 'sv-SE')).toBe('1\u00a0250,00\u00a0kr');
    expect(formatMoney(12.5, 'EUR', 'de-DE')).toBe('12,50\u00a0€');
  });

  it('keeps every digit of a large amount and shows nothing for no amount', () => {
    expect(formatMoney('12345678901234.56', 'EUR', 'en-US')).toBe('€12,345,678,901,234.56');
    expect(formatMoney(null, 'EUR', 'en-US')).toBe('—');
  });

  it('shows an unknown currency code as the API sent it', () => {
    expect(formatMoney(3, 'XX', 'en-US')).toBe('3 XX');
  });
});
