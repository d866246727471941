import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getAcquirerRoutes, type AcquirerRoutes } from '@in-store-payments/client';
import { useAcquirerAccounts } from '../../acquirers/useAcquirerAccounts';
import { useModeStores } from '../../acquirers/useModeStores';
import { ErrorNote, ModeSwitch } from '../ui';
import { RoutesForm } from './RoutesForm';
import { RoutesMeta } from './RoutesMeta';

/** The routes of each mode (docs/acquirers.md, "Routes and the decision"): a live / test switch, the version in force and the rules' form. */
export function RoutesEditor() {
  const [mode, setMode] = useState<'live' | 'test'>('live');
  const client = useQueryClient();
  const key = ['acquirer-routes', mode];
  const routes = useQuery({ queryKey: key, queryFn: async (): Promise<AcquirerRoutes> => (await getAcquirerRoutes({ query: { mode } })).data });
  const accounts = useAcquirerAccounts();
  const stores = useModeStores(mode);
  const usable = (accounts.data ?? []).filter((a) => a.mode === mode && a.status === 'ACTIVE');

  return (
    <section aria-label="Routes">
      <h2>Routes</h2>
      <p className="muted">
        For each new payment the first rule whose every condition holds picks the account; no rule: the default account; none: the installation default.
      </p>
      <ModeSwitch value={mode} onChange={(m) => setMode(m as 'live' | 'test')} both={false} label="Routes mode" />
      <ErrorNote error={routes.error ?? stores.error} />
      {routes.data && (
        <>
          <RoutesMeta routes={routes.data} />
          <RoutesForm
            key={`${mode}-${routes.data.version}`}
            routes={routes.data}
            accounts={usable}
            stores={stores.data ?? []}
            onSaved={(saved) => {
              client.setQueryData(key, saved);
              void client.invalidateQueries({ queryKey: ['acquirer-accounts'] });
            }}
          />
        </>
      )}
    </section>
  );
}
