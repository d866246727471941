import { visibleParts } from '../../disputes/visibleText';

/**
 * Text typed by someone, shown as text (React never reads it as markup) with its invisible
 * characters made visible as marked `⟨U+202E⟩` (disputes/visibleText.ts), styled apart from what
 * was typed. `label` makes a block a named region.
 */
export function ShownText({ value, label }: { value: string; label?: string }) {
  const shown = visibleParts(value).map((p, i) =>
    p.hidden ? (
      <mark key={i} className="invisible-char" title={`invisible character ${p.text.slice(1, -1)}`}>
        {p.text}
      </mark>
    ) : (
      p.text
    ),
  );
  return label ? (
    <div className="shown-text" role="region" aria-label={label}>
      {shown}
    </div>
  ) : (
    <span>{shown}</span>
  );
}
