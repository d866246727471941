/**
 * Text typed by people (a statement, a reference, a cashier id) shown as text: React never
 * interprets it as markup, and this makes what would be invisible or would reorder what is seen
 * visible as `⟨U+202E⟩`: control characters (except tab and line breaks), bidirectional controls
 * and zero-width characters. The stored text is never changed; only what is displayed.
 */
function hidden(cp: number): boolean {
  if (cp === 0x09 || cp === 0x0a || cp === 0x0d) return false;
  return (
    cp < 0x20 ||
    (cp >= 0x7f && cp <= 0x9f) || // DEL and the C1 controls
    (cp >= 0x200b && cp <= 0x200f) || // zero-width space, joiners, LRM, RLM
    (cp >= 0x202a && cp <= 0x202e) || // bidi embeddings and overrides
    (cp >= 0x2060 && cp <= 0x2064) ||
    (cp >= 0x2066 && cp <= 0x2069) || // bidi isolates
    cp === 0xfeff
  );
}

const marker = (cp: number) => `⟨U+${cp.toString(16).toUpperCase().padStart(4, '0')}⟩`;

/** The text in runs: plain text as it is, each hidden character as its marker, flagged so a page can style it apart from typed text. */
export function visibleParts(text: string): { text: string; hidden: boolean }[] {
  const parts: { text: string; hidden: boolean }[] = [];
  let plain = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (!hidden(cp)) {
      plain += ch;
      continue;
    }
    if (plain) parts.push({ text: plain, hidden: false });
    plain = '';
    parts.push({ text: marker(cp), hidden: true });
  }
  if (plain) parts.push({ text: plain, hidden: false });
  return parts;
}

export const visibleText = (text: string): string =>
  visibleParts(text)
    .map((p) => p.text)
    .join('');

/** The distinct hidden characters of a text, as markers (`⟨U+0007⟩`), for a warning under an editor. */
export function hiddenCharacters(text: string): string[] {
  const found = new Set<string>();
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (hidden(cp)) found.add(marker(cp));
  }
  return [...found];
}
