import { useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * A table in a box of its own that scrolls sideways when the table is wider than the page
 * (docs/dashboard.md, "Navigation"): a wide table never widens the page. While it scrolls, the box
 * is a named region the keyboard can reach (Tab, then the arrow keys), so its hidden columns are
 * reachable without a mouse; a table that fits adds no tab stop.
 */
export function ScrollTable({ label, children }: { label: string; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setScrolls(el.scrollWidth > el.clientWidth + 1);
    measure();
    const seen = new ResizeObserver(measure);
    seen.observe(el);
    if (el.firstElementChild) seen.observe(el.firstElementChild);
    return () => seen.disconnect();
  }, []);
  return (
    <div ref={box} className="table-scroll" {...(scrolls ? { role: 'region', 'aria-label': `${label} (scrolls sideways)`, tabIndex: 0 } : {})}>
      <table aria-label={label}>{children}</table>
    </div>
  );
}
