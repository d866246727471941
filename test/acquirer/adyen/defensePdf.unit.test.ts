import { textPdf, wrap } from '../../../src/acquirer/adyen/defensePdf';

/** The defense document's PDF: well-formed (every xref offset lands on its object), text escaped, pages as needed. */
const objectsAt = (pdf: string) => {
  const xref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(pdf)![1]);
  const table = pdf.slice(xref).split('\n');
  const count = Number(table[1]!.split(' ')[1]);
  return table.slice(3, 2 + count).map((row, i) => pdf.startsWith(`${i + 1} 0 obj\n`, Number(row.slice(0, 10))));
};

it('is a PDF whose cross-reference table points at each object', () => {
  const pdf = textPdf('Merchant statement\n\nThe customer signed.').toString('latin1');
  expect(pdf.startsWith('%PDF-1.4\n')).toBe(true);
  expect(objectsAt(pdf).every(Boolean)).toBe(true);
  expect(pdf).toContain('(The customer signed.) Tj');
  expect(pdf).toContain('/Count 1');
});

it('escapes what a PDF string would read, shows Latin-1, and writes other characters as ?', () => {
  const pdf = textPdf('a (b) \\ c\u0007 Grüße 日本').toString('latin1');
  expect(pdf).toContain('(a \\(b\\) \\\\ c  Grüße ??) Tj');
});

it('wraps long lines at spaces and takes as many pages as the text needs', () => {
  expect(wrap(`${'word '.repeat(40)}end`).every((l) => l.length <= 95)).toBe(true);
  expect(wrap('x'.repeat(200))).toEqual(['x'.repeat(95), 'x'.repeat(95), 'x'.repeat(10)]);
  const pdf = textPdf(Array.from({ length: 150 }, (_, i) => `line ${i}`).join('\n')).toString('latin1');
  expect(pdf).toContain('/Count 3');
  expect(objectsAt(pdf).every(Boolean)).toBe(true);
});
