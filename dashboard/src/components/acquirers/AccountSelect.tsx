import { useId } from 'react';
import type { AcquirerAccount } from '@in-store-payments/client';
import { FieldError, invalidProps } from './FieldError';

/**
 * A select among the ACTIVE accounts of one mode (what a route may name). A value that is not among
 * them (an account changed since) stays selectable by its id, for the API to judge.
 */
export function AccountSelect({
  label,
  value,
  accounts,
  none,
  error,
  onChange,
}: {
  label: string;
  value: string;
  accounts: AcquirerAccount[];
  /** The label of the empty choice. */
  none: string;
  error?: string;
  onChange: (id: string) => void;
}) {
  const id = useId();
  const known = value === '' || accounts.some((a) => a.id === value);
  return (
    <>
      <select aria-label={label} value={value} onChange={(e) => onChange(e.target.value)} {...invalidProps(id, error)}>
        <option value="">{none}</option>
        {accounts.map((a) => (
          <option key={a.id} value={a.id}>
            {a.name} ({a.acquirer}, {a.merchantAccountId})
          </option>
        ))}
        {!known && <option value={value}>{value}</option>}
      </select>
      <FieldError id={id} message={error} />
    </>
  );
}
