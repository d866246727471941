import { ScrollTable } from '../ScrollTable';
import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { ApiError } from '../../api';
import { routeFieldErrors, type RouteFieldErrors, type RuleField } from '../../acquirers/fieldErrors';
import { draftOf, emptyRule, moved, saveBody, type RuleDraft } from '../../acquirers/routeDraft';
import { replaceAcquirerRoutes, type AcquirerAccount, type AcquirerRoutes, type DashboardStore as Store } from '@in-store-payments/client';
import { ErrorNote } from '../ui';
import { AccountSelect } from './AccountSelect';
import { RouteRow } from './RouteRow';

/** Errors by row key (so that a moved row keeps its own) rather than by position. */
type KeyedErrors = Record<string, Partial<Record<RuleField, string>>>;

/**
 * The ordered rules of one mode and its default account, edited as a whole and saved with one
 * PUT (the whole list replaced). A 400 puts each reason at its rule's field as well as in the
 * error line.
 */
export function RoutesForm({
  routes,
  accounts,
  stores,
  onSaved,
}: {
  routes: AcquirerRoutes;
  accounts: AcquirerAccount[];
  stores: Store[];
  onSaved: (saved: AcquirerRoutes) => void;
}) {
  const [rules, setRules] = useState<RuleDraft[]>(() => routes.rules.map(draftOf));
  const [defaultAccountId, setDefaultAccountId] = useState(routes.defaultAccountId ?? '');
  const [errors, setErrors] = useState<KeyedErrors>({});
  const [defaultError, setDefaultError] = useState<string | undefined>();
  const save = useMutation({
    mutationFn: async (sent: RuleDraft[]) => (await replaceAcquirerRoutes({ body: saveBody(routes.mode, sent, defaultAccountId) })).data,
    onMutate: () => {
      setErrors({});
      setDefaultError(undefined);
    },
    onSuccess: onSaved,
    onError: (err, sent) => {
      if (!(err instanceof ApiError) || err.status !== 400) return;
      const found: RouteFieldErrors = routeFieldErrors(err.message);
      const keyed: KeyedErrors = {};
      for (const [index, fields] of Object.entries(found.rules)) {
        const row = sent[Number(index)];
        if (row) keyed[row.key] = fields;
      }
      setErrors(keyed);
      setDefaultError(found.defaultAccountId);
    },
  });
  const change = (index: number, next: RuleDraft, field: RuleField) => {
    setRules(rules.map((r, i) => (i === index ? next : r)));
    const own = errors[next.key];
    if (own?.[field]) setErrors({ ...errors, [next.key]: { ...own, [field]: undefined } });
  };

  return (
    <form
      aria-label={`Routes of ${routes.mode} payments`}
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        save.mutate(rules);
      }}
    >
      <ScrollTable label="Route rules">
        <thead>
          <tr>
            <th>#</th>
            <th>Name</th>
            <th>Account</th>
            <th>Stores</th>
            <th>Currencies</th>
            <th>Payment modes</th>
            <th>Min amount</th>
            <th>Max amount</th>
            <th>Order</th>
          </tr>
        </thead>
        <tbody>
          {rules.map((r, i) => (
            <RouteRow
              key={r.key}
              position={i}
              count={rules.length}
              rule={r}
              accounts={accounts}
              stores={stores}
              errors={errors[r.key] ?? {}}
              onChange={(next, field) => change(i, next, field)}
              onMove={(by) => setRules(moved(rules, i, by))}
              onRemove={() => setRules(rules.filter((x) => x.key !== r.key))}
            />
          ))}
          {rules.length === 0 && (
            <tr>
              <td colSpan={9}>No rules: every {routes.mode} payment goes to the default account below.</td>
            </tr>
          )}
        </tbody>
      </ScrollTable>
      <div className="inline routes-foot">
        <button type="button" onClick={() => setRules([...rules, emptyRule()])}>
          Add rule
        </button>
        <label>
          Default account (when no rule matches)
          <AccountSelect
            label="Default account"
            value={defaultAccountId}
            accounts={accounts}
            none="None (installation default)"
            error={defaultError}
            onChange={(v) => {
              setDefaultAccountId(v);
              setDefaultError(undefined);
            }}
          />
        </label>
        <button type="submit" disabled={save.isPending}>
          Save routes
        </button>
      </div>
      <ErrorNote error={save.error} />
    </form>
  );
}
