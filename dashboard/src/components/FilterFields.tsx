import { useId } from 'react';
import { useNames } from '../names/useNames';

/**
 * The list pages' shared filter fields (Payments, Settlements, Payouts, Disputes): a date range and
 * pickers of the business's stores and terminals by name, so nobody types an id (issue 31).
 */
export function DateRange({
  from,
  to,
  onChange,
  labels = ['From date', 'To date'],
}: {
  from: string;
  to: string;
  onChange: (range: { from: string; to: string }) => void;
  labels?: [string, string];
}) {
  return (
    <>
      <label>
        {labels[0]}
        <input type="date" value={from} onChange={(e) => onChange({ from: e.target.value, to })} />
      </label>
      <label>
        {labels[1]}
        <input type="date" value={to} onChange={(e) => onChange({ from, to: e.target.value })} />
      </label>
    </>
  );
}

/** A choice among options by name; a value from the address that is not among them stays shown by its id. */
function Picker({
  label,
  value,
  onChange,
  options,
  anyText,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  options: { id: string; name: string }[];
  anyText: string;
}) {
  const known = !value || options.some((o) => o.id === value);
  const id = useId();
  // The label names the field alone (not its options), for people and for tests alike.
  return (
    <span className="field-label">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{anyText}</option>
        {!known && <option value={value}>{value}</option>}
        {options.map((o) => (
          <option key={o.id} value={o.id} title={o.id}>
            {o.name}
          </option>
        ))}
      </select>
    </span>
  );
}

export function StorePicker({ value, onChange, label = 'Store' }: { value: string; onChange: (id: string) => void; label?: string }) {
  const { stores } = useNames();
  const options = stores.map((s) => ({ id: s.externalId, name: `${s.name}${s.mode === 'test' ? ' (test)' : ''}` }));
  return <Picker label={label} value={value} onChange={onChange} options={options} anyText="Any store" />;
}

export function AccountPicker({ value, onChange }: { value: string; onChange: (id: string) => void }) {
  const { accounts } = useNames();
  const options = accounts.map((a) => ({ id: a.id, name: `${a.name}${a.mode === 'test' ? ' (test)' : ''}` }));
  return <Picker label="Account" value={value} onChange={onChange} options={options} anyText="Any account" />;
}

/** The terminals of the chosen store, or of every store. */
export function TerminalPicker({ value, onChange, storeId }: { value: string; onChange: (id: string) => void; storeId: string }) {
  const { stores } = useNames();
  const options = stores
    .filter((s) => !storeId || s.externalId === storeId)
    .flatMap((s) => s.terminals.map((t) => ({ id: t.externalId, name: storeId ? t.label : `${t.label} · ${s.name}` })));
  return <Picker label="Terminal" value={value} onChange={onChange} options={options} anyText="Any terminal" />;
}
