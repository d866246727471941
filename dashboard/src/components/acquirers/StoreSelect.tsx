import { useId } from 'react';
import type { DashboardStore as Store } from '@in-store-payments/client';
import { FieldError, invalidProps } from './FieldError';

/** The stores a rule is limited to (none chosen: every store), among the business's stores of the mode. */
export function StoreSelect({ value, stores, error, onChange }: { value: string[]; stores: Store[]; error?: string; onChange: (ids: string[]) => void }) {
  const id = useId();
  const missing = value.filter((v) => !stores.some((s) => s.externalId === v));
  return (
    <>
      <select
        multiple
        aria-label="Stores"
        size={Math.min(4, Math.max(2, stores.length + missing.length))}
        value={value}
        onChange={(e) => onChange(Array.from(e.target.selectedOptions, (o) => o.value))}
        {...invalidProps(id, error)}
      >
        {stores.map((s) => (
          <option key={s.externalId} value={s.externalId}>
            {s.name} ({s.externalId})
          </option>
        ))}
        {missing.map((v) => (
          <option key={v} value={v}>
            {v}
          </option>
        ))}
      </select>
      <FieldError id={id} message={error} />
    </>
  );
}
