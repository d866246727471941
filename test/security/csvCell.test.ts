import Decimal from 'decimal.js';
import { csvCell, csvText } from '../../src/security/csvCell';
import { linesCsv } from '../../src/settlement/records';
import type { SettlementLine } from '../../src/generated/prisma/client';

/** CSV injection: every export keeps a formula-like cell as text (pure: no stack). */
describe('CSV cells a spreadsheet could run', () => {
  const formulaLike = [
    '=1+1',
    '+1',
    '-1+1',
    '@SUM(A1)',
    ';=1+1',
    '\uFF1D1+1', // full-width equals ＝
    '\uFF0B1', // full-width plus ＋
    '\uFF0D1', // full-width minus －
    '\uFF20SUM(A1)', // full-width commercial at ＠
    '\uFF1B=1', // full-width semicolon ；
    '\t=1+1',
    '\r=1+1',
    ' =1+1',
    '\u00A0=1+1', // no-break space
    '\u3000=1+1', // ideographic space
    '\uFEFF=1+1', // byte-order mark
  ];

  it.each(formulaLike)('%j is prefixed with a quote mark', (value) => {
    const cell = csvCell(value);
    // quoted cells (a carriage return inside) keep the prefix inside the quotes
    expect(cell.replace(/^"/, '').startsWith(`'${value.slice(0, 1)}`)).toBe(true);
  });

  it('plain numbers, negative amounts included, stay numbers; ordinary text is untouched', () => {
    expect(csvCell('-30.25')).toBe('-30.25');
    expect(csvCell(-15)).toBe('-15');
    expect(csvCell('100.00')).toBe('100.00');
    expect(csvCell('order 12')).toBe('order 12');
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell(null)).toBe('');
  });

  it('quotes per RFC 4180', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvText(['h1', 'h2'], [['x', '\r=1']])).toBe(`h1,h2\r\nx,"'\r=1"\r\n`);
  });

  it('settlement lines.csv neutralises a payment reference with each of these starts', () => {
    const line = (reference: string) =>
      ({
        type: 'PAYMENT',
        paymentId: 'pay_1',
        pspReference: 'psp_1',
        reference,
        amount: new Decimal('10.5'),
        feeAmount: new Decimal('0.25'),
        netAmount: new Decimal('10.25'),
        currency: 'EUR',
        occurredAt: new Date('2026-07-14T10:00:00Z'),
        acquirerAccountId: null,
        expectedFeeAmount: null,
        tipAmount: new Decimal('0'),
        disputeId: null,
        acquirerDisputeId: null,
      }) as unknown as SettlementLine;
    const rows = linesCsv(formulaLike.map(line)).split('\r\n');
    expect(rows[0]).toBe(
      'type,paymentId,pspReference,reference,amount,feeAmount,netAmount,currency,occurredAt,acquirerAccountId,expectedFeeAmount,disputeId,acquirerDisputeId,tipAmount',
    );
    // one row per line; a reference holding a carriage return is quoted, so split the body by the amount columns
    const body = rows.slice(1).join('\r\n');
    for (const value of formulaLike) {
      const cell = csvCell(value);
      expect(cell).toContain(`'${value}`);
      expect(body).toContain(`PAYMENT,pay_1,psp_1,${cell},10.5,0.25,10.25,EUR,2026-07-14T10:00:00.000Z`);
    }
  });
});
