import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { ApiError } from '../api';
import { ErrorNote } from './ui';

/**
 * Delete with a confirmation step, and the delete guard (docs/stores-and-terminals.md, "Decisions") explained: the API refuses
 * (409) to delete a store or terminal that took payments recently, so that those payments can
 * still be followed, refunded and settled. The user then deactivates it, or deletes it anyway.
 */
export function GuardedDelete({
  what,
  name,
  remove: send,
  onDeleted,
}: {
  what: 'store' | 'terminal';
  name: string;
  /** The client call that deletes it (`force`: past the guard). */
  remove: (force: boolean) => Promise<unknown>;
  onDeleted: () => void;
}) {
  const [step, setStep] = useState<'idle' | 'confirm'>('idle');
  const [refusal, setRefusal] = useState<string | null>(null);
  const remove = useMutation({
    mutationFn: send,
    onSuccess: () => {
      setStep('idle');
      setRefusal(null);
      onDeleted();
    },
    onError: (err) => {
      if (err instanceof ApiError && err.status === 409) setRefusal(err.message);
    },
  });

  if (refusal) {
    return (
      <div className="guard" role="alert" aria-label={`${name} not deleted`}>
        <p>
          <strong>{name} was not deleted.</strong> The service says: {refusal}.
        </p>
        <p>
          A {what} that took payments recently is kept so that those payments can still be followed, refunded and settled. Deactivate it to stop new payments
          now, or delete it anyway (its payments stay, but no longer point to it).
        </p>
        <div className="actions">
          <button type="button" className="danger" disabled={remove.isPending} onClick={() => remove.mutate(true)}>
            Delete anyway
          </button>
          <button
            type="button"
            onClick={() => {
              setRefusal(null);
              setStep('idle');
            }}
          >
            Keep it
          </button>
        </div>
      </div>
    );
  }
  if (step === 'confirm') {
    return (
      <span className="actions">
        <button type="button" className="danger" disabled={remove.isPending} onClick={() => remove.mutate(false)}>
          Confirm delete
        </button>
        <button type="button" onClick={() => setStep('idle')}>
          Cancel
        </button>
        <ErrorNote error={remove.error instanceof ApiError && remove.error.status === 409 ? null : remove.error} />
      </span>
    );
  }
  return (
    <button type="button" onClick={() => setStep('confirm')}>
      Delete
    </button>
  );
}
