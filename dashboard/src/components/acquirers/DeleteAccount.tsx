import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { deleteAcquirerAccount, type AcquirerAccount } from '@in-store-payments/client';
import { ApiError } from '../../api';
import { ErrorNote } from '../ui';

/**
 * Delete with a confirmation step. The API keeps (409) an account that a route names or that an
 * open payment uses: the page says so with the service's reason.
 */
export function DeleteAccount({ account, onDeleted }: { account: AcquirerAccount; onDeleted: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const remove = useMutation({
    mutationFn: () => deleteAcquirerAccount({ path: { id: account.id } }),
    onSuccess: () => {
      setConfirming(false);
      onDeleted();
    },
    onError: (err) => {
      if (err instanceof ApiError && err.status === 409) setRefusal(err.message);
    },
  });

  if (refusal) {
    return (
      <div className="guard" role="alert" aria-label={`${account.name} not deleted`}>
        <p>
          <strong>{account.name} was not deleted.</strong> The service says: {refusal}.
        </p>
        <p>
          An account that a route names, or that an open payment still uses, is kept. Take it out of the routes, or let its payments finish, then delete it.
        </p>
        <button
          type="button"
          onClick={() => {
            setRefusal(null);
            setConfirming(false);
          }}
        >
          Keep it
        </button>
      </div>
    );
  }
  if (confirming) {
    return (
      <span className="actions">
        <button type="button" className="danger" disabled={remove.isPending} onClick={() => remove.mutate()}>
          Confirm delete
        </button>
        <button type="button" onClick={() => setConfirming(false)}>
          Cancel
        </button>
        <ErrorNote error={remove.error instanceof ApiError && remove.error.status === 409 ? null : remove.error} />
      </span>
    );
  }
  return (
    <button type="button" onClick={() => setConfirming(true)}>
      Delete
    </button>
  );
}
