import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { emptyCredentials } from '../../acquirers/credentials';
import { updateAcquirerAccount, type AcquirerAccount } from '@in-store-payments/client';
import { ErrorNote } from '../ui';
import { CredentialInputs } from './CredentialInputs';

/** New credentials for an account (PUT `{ credentials }`): they replace the old ones at once. */
export function RotateCredentials({ account, onDone }: { account: AcquirerAccount; onDone: (changed: boolean) => void }) {
  const [credentials, setCredentials] = useState(() => emptyCredentials(account.acquirer, account.mode));
  const rotate = useMutation({
    mutationFn: async () => (await updateAcquirerAccount({ path: { id: account.id }, body: { credentials } })).data,
    onSuccess: () => onDone(true),
  });
  return (
    <form
      className="inline"
      aria-label={`New credentials for ${account.name}`}
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        rotate.mutate();
      }}
    >
      <CredentialInputs acquirer={account.acquirer} value={credentials} onChange={setCredentials} />
      <button type="submit" disabled={rotate.isPending}>
        Replace credentials
      </button>
      <button type="button" onClick={() => onDone(false)}>
        Cancel
      </button>
      <ErrorNote error={rotate.error} />
    </form>
  );
}
