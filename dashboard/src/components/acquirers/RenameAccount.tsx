import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { updateAcquirerAccount, type AcquirerAccount } from '@in-store-payments/client';
import { ErrorNote } from '../ui';

/** Renames an account (PUT `{ name }`). */
export function RenameAccount({ account, onDone }: { account: AcquirerAccount; onDone: (changed: boolean) => void }) {
  const [name, setName] = useState(account.name);
  const rename = useMutation({
    mutationFn: async () => (await updateAcquirerAccount({ path: { id: account.id }, body: { name: name.trim() } })).data,
    onSuccess: () => onDone(true),
  });
  return (
    <form
      className="inline"
      aria-label={`Rename ${account.name}`}
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        rename.mutate();
      }}
    >
      <label>
        New name
        <input value={name} maxLength={100} onChange={(e) => setName(e.target.value)} required />
      </label>
      <button type="submit" disabled={rename.isPending}>
        Save name
      </button>
      <button type="button" onClick={() => onDone(false)}>
        Cancel
      </button>
      <ErrorNote error={rename.error} />
    </form>
  );
}
