import type { ReactNode } from 'react';
import { csvText } from '../../../src/security/csvCell';
import { ApiError } from '../api';
import { formatMoney } from '../format/money';

/** Small shared pieces: money, dates, statuses, errors, paging. */
export const money = formatMoney;

export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

/** Statuses by their API names (docs/dashboard.md). */
export function Status({ value }: { value: string }) {
  return <span className={`status status-${value}`}>{value}</span>;
}

export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  const message = error instanceof ApiError ? `${error.status}: ${error.message}` : error instanceof Error ? error.message : String(error);
  return (
    <p className="error" role="alert">
      {message}
    </p>
  );
}

export function Pager({ page, totalPages, onPage }: { page: number; totalPages: number; onPage: (p: number) => void }) {
  return (
    <div className="pager">
      <button type="button" disabled={page <= 0} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span>
        Page {totalPages === 0 ? 0 : page + 1} of {totalPages}
      </span>
      <button type="button" disabled={page + 1 >= totalPages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </div>
  );
}

export function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="field">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** A secret shown exactly once, with the warning that it cannot be shown again. */
export function ShownOnce({ label, value, onDone }: { label: string; value: string; onDone: () => void }) {
  return (
    <div className="once" role="status">
      <p>
        <strong>{label}</strong> — copy it now; it is shown only once.
      </p>
      <code data-testid="secret-once">{value}</code>
      <button type="button" onClick={onDone}>
        Done
      </button>
    </div>
  );
}

/** CSV text with a header row: the service's own writer, so the export follows the same rule as lines.csv. */
export function toCsv(header: string[], rows: (string | number | null | undefined)[][]): string {
  return csvText(header, rows);
}

const MODES = [
  ['', 'Live and test'],
  ['live', 'Live'],
  ['test', 'Test'],
] as const;

/** The live / test switch of a list; '' shows both modes (unless `both` is false: one mode at a time). */
export function ModeSwitch({
  value,
  onChange,
  both = true,
  label = 'Mode',
}: {
  value: string;
  onChange: (mode: string) => void;
  both?: boolean;
  label?: string;
}) {
  return (
    <div className="modes" role="group" aria-label={label}>
      {MODES.filter(([mode]) => both || mode !== '').map(([mode, label]) => (
        <button key={mode} type="button" aria-pressed={value === mode} onClick={() => onChange(mode)}>
          {label}
        </button>
      ))}
    </div>
  );
}

/** A list's filter form: submitting it (Enter, or its submit button) calls `onSubmit` instead of loading a page. */
export function Filters({ onSubmit, children }: { onSubmit: () => void; children: ReactNode }) {
  return (
    <form
      className="filters"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </form>
  );
}
