import { ScrollTable } from '../components/ScrollTable';
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { present } from '../api';
import { UserById } from '../components/Names';
import { ErrorNote, Pager, when } from '../components/ui';
import { listAuditLogs } from '@in-store-payments/client';

/** The security audit log (ADMIN, COMPLIANCE), newest first, filtered by action. */
export function AuditLog() {
  const [page, setPage] = useState(0);
  const [action, setAction] = useState('');
  const log = useQuery({
    queryKey: ['audit', page, action],
    queryFn: async () => (await listAuditLogs({ query: present({ page, size: 50, action }) })).data,
  });
  return (
    <section>
      <h1>Audit log</h1>
      <label className="inline">
        Action
        <input
          value={action}
          placeholder="e.g. LOGIN_FAILED"
          onChange={(e) => {
            setPage(0);
            setAction(e.target.value.trim().toUpperCase());
          }}
        />
      </label>
      <ErrorNote error={log.error} />
      <ScrollTable label="Audit log">
        <thead>
          <tr>
            <th>When</th>
            <th>Action</th>
            <th>Actor</th>
            <th>Target</th>
            <th>Details</th>
          </tr>
        </thead>
        <tbody>
          {log.data?.content.map((e) => (
            <tr key={e.id}>
              <td>{when(e.createdAt)}</td>
              <td>{e.action}</td>
              <td>
                {e.actorType} {e.actorType === 'USER' ? <UserById id={e.actorId} /> : (e.actorId ?? '')}
              </td>
              <td>
                {e.targetType ?? ''} {e.targetId ?? ''}
              </td>
              <td>
                <code className="details">{JSON.stringify(e.details)}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </ScrollTable>
      {log.data && <Pager page={page} totalPages={log.data.totalPages} onPage={setPage} />}
    </section>
  );
}
