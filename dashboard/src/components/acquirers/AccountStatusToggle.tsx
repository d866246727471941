import { useMutation } from '@tanstack/react-query';
import { updateAcquirerAccount, type AcquirerAccount } from '@in-store-payments/client';
import { ErrorNote } from '../ui';

/** Deactivate or activate an account; the API refuses (409) to deactivate one a route names. */
export function AccountStatusToggle({ account, onChanged }: { account: AcquirerAccount; onChanged: () => void }) {
  const next = account.status === 'ACTIVE' ? 'INACTIVE' : 'ACTIVE';
  const change = useMutation({
    mutationFn: async () => (await updateAcquirerAccount({ path: { id: account.id }, body: { status: next } })).data,
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
