import { CREDENTIAL_FIELDS } from '../../acquirers/credentials';
import type { AcquirerAccount } from '@in-store-payments/client';
type AcquirerName = AcquirerAccount['acquirer'];

/** The credentials fields of one acquirer (docs/acquirers.md, "Accounts"); the sandbox needs none. */
export function CredentialInputs({
  acquirer,
  value,
  onChange,
}: {
  acquirer: AcquirerName;
  value: Record<string, string>;
  onChange: (next: Record<string, string>) => void;
}) {
  const fields = CREDENTIAL_FIELDS[acquirer];
  if (fields.length === 0) return <p className="muted">The sandbox needs no credentials.</p>;
  return (
    <>
      {fields.map((f) => (
        <label key={f.key}>
          {f.label}
          {f.choices ? (
            <select value={value[f.key] ?? ''} onChange={(e) => onChange({ ...value, [f.key]: e.target.value })}>
              {f.choices.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          ) : (
            <input
              type={f.secret ? 'password' : 'text'}
              autoComplete="off"
              value={value[f.key] ?? ''}
              onChange={(e) => onChange({ ...value, [f.key]: e.target.value })}
              required
            />
          )}
        </label>
      ))}
    </>
  );
}
