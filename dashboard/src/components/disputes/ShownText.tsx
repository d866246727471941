import { visibleText } from '../../disputes/visibleText';

/**
 * Text typed by someone, shown as text (React never reads it as markup) with its invisible
 * characters made visible (disputes/visibleText.ts). `label` makes a block a named region.
 */
export function ShownText({ value, label }: { value: string; label?: string }) {
  const shown = visibleText(value);
  return label ? (
    <div className="shown-text" role="region" aria-label={label}>
      {shown}
    </div>
  ) : (
    <span>{shown}</span>
  );
}
