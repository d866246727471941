import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { ACQUIRERS, emptyCredentials } from '../../acquirers/credentials';
import { createAcquirerAccount, type AcquirerAccount } from '@in-store-payments/client';
type AcquirerName = AcquirerAccount['acquirer'];
import { ErrorNote } from '../ui';
import { CredentialInputs } from './CredentialInputs';

/** Adds an acquirer account (docs/acquirers.md, "Accounts"): name, acquirer, mode, MID and that acquirer's credentials. */
export function NewAccountForm({ onCreated }: { onCreated: (account: AcquirerAccount) => void }) {
  const [name, setName] = useState('');
  const [acquirer, setAcquirer] = useState<AcquirerName>('sandbox');
  const [mode, setMode] = useState<'live' | 'test'>('test');
  const [mid, setMid] = useState('');
  const [credentials, setCredentials] = useState<Record<string, string>>({});
  const create = useMutation({
    mutationFn: () => createAcquirerAccount({ body: { name: name.trim(), acquirer, mode, merchantAccountId: mid.trim(), credentials } }).then((r) => r.data),
    onSuccess: (account) => {
      setName('');
      setMid('');
      setCredentials(emptyCredentials(acquirer, mode));
      onCreated(account);
    },
  });
  return (
    <form
      className="card"
      aria-label="New acquirer account"
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <label>
        Account name
        <input value={name} maxLength={100} onChange={(e) => setName(e.target.value)} required />
      </label>
      <label>
        Acquirer
        <select
          value={acquirer}
          onChange={(e) => {
            const next = e.target.value as AcquirerName;
            setAcquirer(next);
            setCredentials(emptyCredentials(next, mode));
          }}
        >
          {ACQUIRERS.map((a) => (
            <option key={a.value} value={a.value}>
              {a.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Account mode
        <select
          value={mode}
          onChange={(e) => {
            const next = e.target.value as 'live' | 'test';
            setMode(next);
            setCredentials(emptyCredentials(acquirer, next));
          }}
        >
          <option value="test">test</option>
          <option value="live">live</option>
        </select>
      </label>
      <label>
        Merchant account ID
        <input value={mid} maxLength={100} placeholder="the MID the acquirer gave you" onChange={(e) => setMid(e.target.value)} required />
      </label>
      <CredentialInputs acquirer={acquirer} value={credentials} onChange={setCredentials} />
      <div className="actions">
        <button type="submit" disabled={create.isPending}>
          Add account
        </button>
      </div>
      <ErrorNote error={create.error} />
    </form>
  );
}
