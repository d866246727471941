import { ScrollTable } from '../components/ScrollTable';
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ErrorNote, ShownOnce, Status, when } from '../components/ui';
import { createApiKey, listApiKeys, revokeApiKey, rotateApiKey } from '@in-store-payments/client';

/** API keys (ADMIN, docs/users-and-keys.md, "API keys"): issue live or test, shown once; rotate with grace; revoke. */
export function ApiKeys() {
  const client = useQueryClient();
  const [shown, setShown] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [mode, setMode] = useState<'live' | 'test'>('test');
  const keys = useQuery({ queryKey: ['api-keys'], queryFn: async () => (await listApiKeys()).data });
  const refresh = () => client.invalidateQueries({ queryKey: ['api-keys'] });
  const issue = useMutation({
    mutationFn: async () => (await createApiKey({ body: { name, mode } })).data,
    onSuccess: (k) => {
      setShown(k.key);
      setName('');
      void refresh();
    },
  });
  const rotate = useMutation({
    mutationFn: async (id: string) => (await rotateApiKey({ path: { id } })).data,
    onSuccess: (k) => {
      setShown(k.key);
      void refresh();
    },
  });
  const revoke = useMutation({ mutationFn: (id: string) => revokeApiKey({ path: { id } }), onSuccess: refresh });

  return (
    <section>
      <h1>API keys</h1>
      {shown && <ShownOnce label="New API key" value={shown} onDone={() => setShown(null)} />}
      <form
        className="inline"
        aria-label="New API key"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          issue.mutate();
        }}
      >
        <label>
          Key name
          <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} />
        </label>
        <label>
          Key mode
          <select value={mode} onChange={(e) => setMode(e.target.value as 'live' | 'test')}>
            <option value="test">test</option>
            <option value="live">live</option>
          </select>
        </label>
        <button type="submit" disabled={issue.isPending}>
          Create key
        </button>
      </form>
      <ErrorNote error={keys.error ?? issue.error ?? rotate.error ?? revoke.error} />
      <ScrollTable label="API keys">
        <thead>
          <tr>
            <th>Name</th>
            <th>Prefix</th>
            <th>Mode</th>
            <th>Status</th>
            <th>Scopes</th>
            <th>Created</th>
            <th>Last used</th>
            <th>Expires</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {keys.data?.map((k) => (
            <tr key={k.id}>
              <td>{k.name}</td>
              <td>
                <code>{k.prefix}…</code>
              </td>
              <td>{k.mode}</td>
              <td>
                <Status value={k.status} />
              </td>
              <td>{k.scopes.join(', ')}</td>
              <td>{when(k.createdAt)}</td>
              <td>{when(k.lastUsedAt)}</td>
              <td>{when(k.expiresAt)}</td>
              <td className="actions">
                {k.status === 'ACTIVE' && (
                  <button type="button" onClick={() => rotate.mutate(k.id)}>
                    Rotate
                  </button>
                )}
                {k.status !== 'REVOKED' && (
                  <button type="button" onClick={() => confirm(`Revoke ${k.name} now?`) && revoke.mutate(k.id)}>
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </ScrollTable>
    </section>
  );
}
