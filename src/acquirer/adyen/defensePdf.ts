/**
 * A plain PDF of text lines (A4, Helvetica 10 pt, wrapped, as many pages as it takes): Adyen takes
 * defense documents as PDF, JPG or TIFF, and our evidence is text. The standard fonts show
 * Latin-1 (WinAnsi); any other character is written as '?', and control characters as spaces, so
 * the statement arrives as the merchant wrote it wherever the font can show it. Pure.
 */
const WIDTH = 595;
const HEIGHT = 842;
const MARGIN = 50;
const LEADING = 12;
const COLUMNS = 95; // Helvetica 10 pt across 495 pt, with room to spare
const LINES_PER_PAGE = Math.floor((HEIGHT - 2 * MARGIN) / LEADING);

/** The text cut into lines of at most COLUMNS characters, breaking at spaces where it can. */
export function wrap(text: string): string[] {
  const lines: string[] = [];
  for (const raw of text.split(/\r\n|\r|\n/)) {
    let rest = raw;
    while (rest.length > COLUMNS) {
      const space = rest.lastIndexOf(' ', COLUMNS);
      const cut = space > COLUMNS / 2 ? space : COLUMNS;
      lines.push(rest.slice(0, cut));
      rest = rest.slice(cut).replace(/^ /, '');
    }
    lines.push(rest);
  }
  return lines;
}

/** A PDF string literal's content: Latin-1 only, control characters as spaces, `\\ ( )` escaped. */
function literal(line: string): string {
  let out = '';
  for (const ch of line) {
    const code = ch.codePointAt(0)!;
    const shown = code < 0x20 || (code >= 0x7f && code < 0xa0) ? ' ' : code > 0xff ? '?' : ch;
    out += shown === '\\' || shown === '(' || shown === ')' ? `\\${shown}` : shown;
  }
  return out;
}

export function textPdf(text: string): Buffer {
  const lines = wrap(text);
  const pages: string[][] = [];
  for (let i = 0; i < lines.length; i += LINES_PER_PAGE) pages.push(lines.slice(i, i + LINES_PER_PAGE));
  if (!pages.length) pages.push(['']);
  // Objects: 1 catalog, 2 pages, 3 font, then a page and its content stream per page.
  const objects: string[] = [];
  const pageIds = pages.map((_, i) => 4 + 2 * i);
  objects.push('<< /Type /Catalog /Pages 2 0 R >>');
  objects.push(`<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`);
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  for (const [i, page] of pages.entries()) {
    const stream = `BT /F1 10 Tf ${LEADING} TL ${MARGIN} ${HEIGHT - MARGIN} Td\n${page.map((l) => `(${literal(l)}) Tj T*`).join('\n')}\nET`;
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${WIDTH} ${HEIGHT}] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageIds[i]! + 1} 0 R >>`);
    objects.push(`<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`);
  }
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (const [i, object] of objects.entries()) {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  }
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}
