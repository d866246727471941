import { ScrollTable } from '../components/ScrollTable';
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ErrorNote, Pager, ShownOnce, Status, when } from '../components/ui';
import {
  createDashboardWebhookConfig,
  deleteDashboardWebhookConfig,
  listDashboardWebhookAttempts,
  listDashboardWebhookConfigs,
  listDashboardWebhookDeliveries,
  redeliverDashboardWebhookEvent,
  regenerateDashboardWebhookSecret,
  sendDashboardWebhookTest,
  type WebhookConfig,
  type WebhookConfigWithSecret,
} from '@in-store-payments/client';
import { PAYMENT_EVENT_TYPES as EVENT_TYPES } from '../../../core/webhooks/eventTypes';

/**
 * Webhook destinations (ADMIN; docs/webhooks.md) over /api/dashboard/webhooks: create (the signing secret
 * shown once), edit the events, send a test event, regenerate the secret, delete; each
 * destination's deliveries with their attempts, and redelivery.
 */

export function Webhooks() {
  const client = useQueryClient();
  const [secret, setSecret] = useState<{ label: string; value: string } | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const configs = useQuery({ queryKey: ['webhooks'], queryFn: async () => (await listDashboardWebhookConfigs()).data });
  const refresh = () => client.invalidateQueries({ queryKey: ['webhooks'] });
  const action = useMutation({
    mutationFn: async (a: { id: string; kind: 'rotate' | 'test' | 'delete' }) => {
      const path = { id: a.id };
      if (a.kind === 'delete') return (await deleteDashboardWebhookConfig({ path })).data;
      if (a.kind === 'rotate') return (await regenerateDashboardWebhookSecret({ path })).data;
      return (await sendDashboardWebhookTest({ path })).data;
    },
    // A destination being deleted stops its deliveries' refresh first: once gone, they are a 404.
    onMutate: async (a) => {
      if (a.kind !== 'delete') return;
      if (selected === a.id) setSelected(null);
      await client.cancelQueries({ queryKey: ['webhooks', a.id] });
    },
    onSuccess: (res, a) => {
      if (a.kind === 'rotate' && res && typeof res === 'object' && 'secret' in res) setSecret({ label: 'New signing secret', value: String(res.secret) });
      if (a.kind === 'test') setSelected(a.id);
      if (a.kind === 'delete') setDeleting(null);
      void refresh();
    },
  });

  return (
    <section>
      <h1>Webhooks</h1>
      {secret && <ShownOnce label={secret.label} value={secret.value} onDone={() => setSecret(null)} />}
      <NewDestination
        onCreated={(c) => {
          setSecret({ label: 'Signing secret', value: c.secret });
          void refresh();
        }}
      />
      <ErrorNote error={configs.error ?? action.error} />
      <ScrollTable label="Webhook destinations">
        <thead>
          <tr>
            <th>URL</th>
            <th>Description</th>
            <th>Events</th>
            <th>Mode</th>
            <th>Created</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {configs.data?.map((c) => (
            <tr key={c.id} aria-selected={selected === c.id}>
              <td>
                <code>{c.url}</code>
              </td>
              <td>{c.description ?? '—'}</td>
              <td>{c.eventTypes.length ? c.eventTypes.join(', ') : 'every event'}</td>
              <td>
                <span className={`mode mode-${c.mode}`}>{c.mode}</span>
              </td>
              <td>{when(c.createdAt)}</td>
              <td className="actions">
                <button type="button" onClick={() => setSelected(c.id)}>
                  Deliveries
                </button>
                <button type="button" disabled={action.isPending} onClick={() => action.mutate({ id: c.id, kind: 'test' })}>
                  Send test event
                </button>
                <button type="button" disabled={action.isPending} onClick={() => action.mutate({ id: c.id, kind: 'rotate' })}>
                  Regenerate secret
                </button>
                {deleting === c.id ? (
                  <>
                    <button type="button" className="danger" onClick={() => action.mutate({ id: c.id, kind: 'delete' })}>
                      Confirm delete
                    </button>
                    <button type="button" onClick={() => setDeleting(null)}>
                      Cancel
                    </button>
                  </>
                ) : (
                  <button type="button" onClick={() => setDeleting(c.id)}>
                    Delete
                  </button>
                )}
              </td>
            </tr>
          ))}
          {configs.isSuccess && configs.data.length === 0 && (
            <tr>
              <td colSpan={6}>No destinations yet: events are not sent anywhere.</td>
            </tr>
          )}
        </tbody>
      </ScrollTable>
      {selected && configs.data?.some((c) => c.id === selected) && <Deliveries config={configs.data.find((c) => c.id === selected)!} />}
    </section>
  );
}

function NewDestination({ onCreated }: { onCreated: (c: WebhookConfigWithSecret) => void }) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [mode, setMode] = useState<'live' | 'test'>('live');
  const [events, setEvents] = useState<string[]>([]);
  const create = useMutation({
    mutationFn: () => createDashboardWebhookConfig({ body: { url, description: description.trim() || null, eventTypes: events, mode } }).then((r) => r.data),
    onSuccess: (c) => {
      setUrl('');
      setDescription('');
      setEvents([]);
      onCreated(c);
    },
  });
  return (
    <form
      className="card"
      aria-label="New destination"
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <label>
        Destination URL
        <input type="url" value={url} placeholder="https://pos.example.com/webhooks" onChange={(e) => setUrl(e.target.value)} required />
      </label>
      <label>
        Description
        <input value={description} maxLength={500} onChange={(e) => setDescription(e.target.value)} />
      </label>
      <label>
        Destination mode
        <select value={mode} onChange={(e) => setMode(e.target.value as 'live' | 'test')}>
          <option value="live">live</option>
          <option value="test">test</option>
        </select>
      </label>
      <fieldset style={{ gridColumn: '1 / -1', flexWrap: 'wrap' }}>
        <legend>Events (none ticked: every event)</legend>
        {EVENT_TYPES.map((t) => (
          <label key={t} className="check">
            <input
              type="checkbox"
              checked={events.includes(t)}
              onChange={(e) => setEvents(e.target.checked ? [...events, t] : events.filter((x) => x !== t))}
            />
            {t}
          </label>
        ))}
      </fieldset>
      <div className="actions">
        <button type="submit" disabled={create.isPending}>
          Create destination
        </button>
      </div>
      <ErrorNote error={create.error} />
    </form>
  );
}

/** One destination's deliveries, newest first, refreshing while open; attempts per event; redelivery. */
function Deliveries({ config }: { config: WebhookConfig }) {
  const [page, setPage] = useState(0);
  const [open, setOpen] = useState<string | null>(null);
  const client = useQueryClient();
  const history = useQuery({
    queryKey: ['webhooks', config.id, 'events', page],
    queryFn: async () => (await listDashboardWebhookDeliveries({ path: { id: config.id }, query: { page, size: 20 } })).data,
    refetchInterval: 3000,
  });
  const redeliver = useMutation({
    mutationFn: (eventId: string) => redeliverDashboardWebhookEvent({ path: { eventId }, body: { configId: config.id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['webhooks', config.id] }),
  });
  return (
    <div className="panel">
      <h2>Deliveries to {config.url}</h2>
      <ErrorNote error={history.error ?? redeliver.error} />
      <ScrollTable label="Deliveries">
        <thead>
          <tr>
            <th>Event</th>
            <th>Event id</th>
            <th>Status</th>
            <th>Attempts</th>
            <th>Created</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {history.data?.content.map((d) => (
            <tr key={d.eventId}>
              <td>{d.eventType}</td>
              <td>
                <code>{d.eventId}</code>
              </td>
              <td>
                <Status value={d.status} />
              </td>
              <td>{d.attempts}</td>
              <td>{when(d.createdAt)}</td>
              <td className="actions">
                <button type="button" onClick={() => setOpen(open === d.eventId ? null : d.eventId)}>
                  {open === d.eventId ? 'Hide attempts' : 'Attempts'}
                </button>
                <button type="button" disabled={redeliver.isPending} onClick={() => redeliver.mutate(d.eventId)}>
                  Redeliver
                </button>
              </td>
            </tr>
          ))}
          {history.isSuccess && history.data.content.length === 0 && (
            <tr>
              <td colSpan={6}>Nothing delivered to this destination yet.</td>
            </tr>
          )}
        </tbody>
      </ScrollTable>
      {history.data && <Pager page={page} totalPages={history.data.totalPages} onPage={setPage} />}
      {open && <Attempts eventId={open} configId={config.id} />}
    </div>
  );
}

function Attempts({ eventId, configId }: { eventId: string; configId: string }) {
  const attempts = useQuery({
    queryKey: ['webhooks', configId, 'attempts', eventId],
    queryFn: async () => (await listDashboardWebhookAttempts({ path: { eventId } })).data,
    refetchInterval: 3000,
  });
  const mine = attempts.data?.filter((a) => a.configId === configId) ?? [];
  return (
    <>
      <h2>Attempts of {eventId}</h2>
      <ErrorNote error={attempts.error} />
      <ScrollTable label="Attempts">
        <thead>
          <tr>
            <th>#</th>
            <th>Sent</th>
            <th>Answer</th>
            <th>Time</th>
            <th>Error or answer body</th>
          </tr>
        </thead>
        <tbody>
          {mine.map((a) => (
            <tr key={a.attemptNumber}>
              <td>{a.attemptNumber}</td>
              <td>{when(a.requestedAt)}</td>
              <td>{a.responseStatus ?? '—'}</td>
              <td>{a.durationMs} ms</td>
              <td className="details">{a.error ?? a.responseBody ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </ScrollTable>
    </>
  );
}
