import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ACCOUNTS_KEY, useAcquirerAccounts } from '../acquirers/useAcquirerAccounts';
import { AccountsTable } from '../components/acquirers/AccountsTable';
import { CreatedAccount } from '../components/acquirers/CreatedAccount';
import { NewAccountForm } from '../components/acquirers/NewAccountForm';
import { RoutesEditor } from '../components/acquirers/RoutesEditor';
import { ErrorNote } from '../components/ui';
import type { AcquirerAccount } from '@in-store-payments/client';
import { NAMES_KEY } from '../names/useNames';

/**
 * Acquirer accounts (ADMIN; docs/acquirers.md) over /api/dashboard/acquirer-accounts and
 * /api/dashboard/acquirer-routes: the business's accounts (MIDs) with their status, a form to add
 * one, their actions, and the routes of each mode.
 */
export function AcquirerAccounts() {
  const client = useQueryClient();
  const accounts = useAcquirerAccounts();
  const [created, setCreated] = useState<AcquirerAccount | null>(null);
  const refresh = () => Promise.all([client.invalidateQueries({ queryKey: ACCOUNTS_KEY }), client.invalidateQueries({ queryKey: NAMES_KEY })]);
  return (
    <section>
      <h1>Acquirer accounts</h1>
      {created && <CreatedAccount account={created} onDone={() => setCreated(null)} />}
      <NewAccountForm
        onCreated={(a) => {
          setCreated(a);
          void refresh();
        }}
      />
      <ErrorNote error={accounts.error} />
      <AccountsTable accounts={accounts.data ?? []} loaded={accounts.isSuccess} onChanged={() => void refresh()} />
      <RoutesEditor />
    </section>
  );
}
