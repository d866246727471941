import { useId } from 'react';
import { PAYMENT_MODES, type RuleDraft } from '../../acquirers/routeDraft';
import type { RuleField } from '../../acquirers/fieldErrors';
import type { AcquirerAccount, DashboardStore as Store } from '@in-store-payments/client';
import { AccountSelect } from './AccountSelect';
import { FieldError, invalidProps } from './FieldError';
import { StoreSelect } from './StoreSelect';

/** One rule of the ordered route table: its name, account and conditions, each with the API's reason when refused. */
export function RouteRow({
  position,
  count,
  rule,
  accounts,
  stores,
  errors,
  onChange,
  onMove,
  onRemove,
}: {
  position: number;
  count: number;
  rule: RuleDraft;
  accounts: AcquirerAccount[];
  stores: Store[];
  errors: Partial<Record<RuleField, string>>;
  onChange: (next: RuleDraft, field: RuleField) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const id = useId();
  const set = <K extends keyof RuleDraft & RuleField>(field: K, value: RuleDraft[K]) => onChange({ ...rule, [field]: value }, field);
  const text = (field: 'name' | 'currencies' | 'minAmount' | 'maxAmount', label: string, extra: Record<string, string> = {}) => (
    <td>
      <input
        aria-label={label}
        value={rule[field]}
        onChange={(e) => set(field, e.target.value)}
        {...extra}
        {...invalidProps(`${id}-${field}`, errors[field])}
      />
      <FieldError id={`${id}-${field}`} message={errors[field]} />
    </td>
  );
  return (
    <tr aria-label={`Rule ${position + 1}`}>
      <td>{position + 1}</td>
      {text('name', 'Rule name', { maxLength: '100' })}
      <td>
        <AccountSelect
          label="Account"
          value={rule.accountId}
          accounts={accounts}
          none="Choose an account"
          error={errors.accountId}
          onChange={(v) => set('accountId', v)}
        />
      </td>
      <td>
        <StoreSelect value={rule.storeExternalIds} stores={stores} error={errors.storeExternalIds} onChange={(v) => set('storeExternalIds', v)} />
      </td>
      {text('currencies', 'Currencies', { placeholder: 'EUR, USD' })}
      <td>
        <div role="group" aria-label="Payment modes" {...invalidProps(`${id}-paymentModes`, errors.paymentModes)}>
          {PAYMENT_MODES.map((m) => (
            <label key={m} className="check">
              <input
                type="checkbox"
                checked={rule.paymentModes.includes(m)}
                onChange={(e) => set('paymentModes', e.target.checked ? [...rule.paymentModes, m] : rule.paymentModes.filter((x) => x !== m))}
              />
              {m}
            </label>
          ))}
        </div>
        <FieldError id={`${id}-paymentModes`} message={errors.paymentModes} />
      </td>
      {text('minAmount', 'Min amount', { inputMode: 'decimal', size: '8' })}
      {text('maxAmount', 'Max amount', { inputMode: 'decimal', size: '8' })}
      <td>
        <div className="actions">
          <button type="button" disabled={position === 0} onClick={() => onMove(-1)}>
            Move up
          </button>
          <button type="button" disabled={position + 1 >= count} onClick={() => onMove(1)}>
            Move down
          </button>
          <button type="button" onClick={onRemove}>
            Remove
          </button>
        </div>
        <FieldError id={`${id}-rule`} message={errors.rule} />
      </td>
    </tr>
  );
}
