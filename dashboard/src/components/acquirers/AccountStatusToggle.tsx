import { useMutation } from '@tanstack/react-query';
import { api } from '../../api';
import { accountPath } from '../../acquirers/useAcquirerAccounts';
import type { AcquirerAccount } from '../../types';
import { ErrorNote } from '../ui';

/** Deactivate or activate an account; the API refuses (409) to deactivate one a route names. */
export function AccountStatusToggle({ account, onChanged }: { account: AcquirerAccount; onChanged: () => void }) {
  const next = account.status === 'ACTIVE' ? 'INACTIVE' : 'ACTIVE';
  const change = useMutation({
    mutationFn: () => api<AcquirerAccount>(accountPath(account.id), { method: 'PUT', body: { status: next } }),
    onSuccess: onChanged,
  });
  return (
    <>
      <button type="button" disabled={change.isPending} onClick={() => change.mutate()}>
        {next === 'INACTIVE' ? 'Deactivate' : 'Activate'}
      </button>
      <ErrorNote error={change.error} />
    </>
  );
}
