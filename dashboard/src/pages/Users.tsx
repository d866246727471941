import { ScrollTable } from '../components/ScrollTable';
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ErrorNote, Pager, when } from '../components/ui';
import { createUser, disableUser, listUsers, resetUserMfa, unlockUser, updateUser } from '@in-store-payments/client';
import { NAMES_KEY } from '../names/useNames';

const ROLES = ['ADMIN', 'FINANCE', 'OPERATIONS', 'COMPLIANCE', 'USER'];

/** Users of the business (ADMIN): create, change roles, unlock, reset authenticator, disable. */
export function Users() {
  const [page, setPage] = useState(0);
  const client = useQueryClient();
  const users = useQuery({ queryKey: ['users', page], queryFn: async () => (await listUsers({ query: { page, size: 20 } })).data });
  const refresh = () => Promise.all([client.invalidateQueries({ queryKey: ['users'] }), client.invalidateQueries({ queryKey: NAMES_KEY })]);
  const action = useMutation({
    mutationFn: (call: () => Promise<unknown>) => call(),
    onSuccess: refresh,
  });

  return (
    <section>
      <h1>Users</h1>
      <NewUser onCreated={() => void refresh()} />
      <ErrorNote error={users.error ?? action.error} />
      <ScrollTable label="Users">
        <thead>
          <tr>
            <th>Username</th>
            <th>Name</th>
            <th>Roles</th>
            <th>State</th>
            <th>Authenticator</th>
            <th>Created</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {users.data?.content.map((u) => (
            <tr key={u.id}>
              <td>{u.username}</td>
              <td>{u.displayName ?? '—'}</td>
              <td>{u.roles.map((r) => r.replace(/^ROLE_/, '')).join(', ')}</td>
              <td>{!u.enabled ? 'disabled' : u.locked ? 'locked' : 'active'}</td>
              <td>{u.mfaEnabled ? 'on' : 'off'}</td>
              <td>{when(u.createdAt)}</td>
              <td className="actions">
                {u.locked && (
                  <button type="button" onClick={() => action.mutate(() => unlockUser({ path: { id: u.id } }))}>
                    Unlock
                  </button>
                )}
                {u.mfaEnabled && (
                  <button type="button" onClick={() => action.mutate(() => resetUserMfa({ path: { id: u.id } }))}>
                    Reset authenticator
                  </button>
                )}
                {u.enabled ? (
                  <button type="button" onClick={() => confirm(`Disable ${u.username}?`) && action.mutate(() => disableUser({ path: { id: u.id } }))}>
                    Disable
                  </button>
                ) : (
                  <button type="button" onClick={() => action.mutate(() => updateUser({ path: { id: u.id }, body: { enabled: true } }))}>
                    Enable
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </ScrollTable>
      {users.data && <Pager page={page} totalPages={users.data.totalPages} onPage={setPage} />}
    </section>
  );
}

function NewUser({ onCreated }: { onCreated: () => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [roles, setRoles] = useState<string[]>(['USER']);
  const create = useMutation({
    mutationFn: () => createUser({ body: { username, password, roles } }),
    onSuccess: () => {
      setUsername('');
      setPassword('');
      onCreated();
    },
  });
  return (
    <form
      className="inline"
      aria-label="New user"
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <label>
        New username
        <input value={username} onChange={(e) => setUsername(e.target.value)} required />
      </label>
      <label>
        Initial password
        <input type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} required />
      </label>
      <fieldset>
        <legend>Roles</legend>
        {ROLES.map((r) => (
          <label key={r} className="check">
            <input type="checkbox" checked={roles.includes(r)} onChange={(e) => setRoles(e.target.checked ? [...roles, r] : roles.filter((x) => x !== r))} />
            {r}
          </label>
        ))}
      </fieldset>
      <button type="submit" disabled={create.isPending}>
        Create user
      </button>
      <ErrorNote error={create.error} />
    </form>
  );
}
