import { ScrollTable } from '../components/ScrollTable';
import { useState, type FormEvent } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { present } from '../api';
import { GuardedDelete } from '../components/GuardedDelete';
import { ErrorNote, Field, Filters, ModeSwitch, Pager, Status, when } from '../components/ui';
import {
  createDashboardStore,
  createDashboardTerminal,
  deleteDashboardStore,
  deleteDashboardTerminal,
  getDashboardStore,
  listDashboardTerminals,
  searchDashboardStores,
  updateDashboardStore,
  updateDashboardTerminal,
  type DashboardStore as Store,
  type DashboardTerminal as Terminal,
  type SearchDashboardStoresData,
  type StoreInput,
  type TerminalInput,
} from '@in-store-payments/client';
import { NAMES_KEY } from '../names/useNames';

/**
 * Stores and terminals (OPERATIONS, ADMIN; docs/stores-and-terminals.md) over /api/dashboard/stores: list live and
 * test stores, create, edit, deactivate, delete; a store's page lists its terminals with the same
 * actions. Validation and the delete guard are the API's; the page shows its answers.
 */
type TerminalType = NonNullable<Terminal['terminalType']>;
const TERMINAL_TYPES: TerminalType[] = ['POS', 'MPOS', 'SOFTPOS', 'KIOSK', 'UNATTENDED'];

type StoreFields = Pick<Store, 'name' | 'addressLine1' | 'city' | 'postalCode' | 'country' | 'timezone' | 'defaultCurrency' | 'mcc' | 'tipping'>;
/** A new store's tipping: the API's defaults (docs/tips.md). */
const DEFAULT_TIPPING: Store['tipping'] = { enabled: false, percentages: [10, 15, 20], allowCustom: true };
const EMPTY_STORE: StoreFields = {
  name: '',
  addressLine1: '',
  city: '',
  postalCode: '',
  country: '',
  timezone: '',
  defaultCurrency: '',
  mcc: '',
  tipping: DEFAULT_TIPPING,
};

/** "10, 15, 20" as the API's percentages; what is not a number goes as it is, for the API to name (tipping.percentages[1]). */
const percentagesOf = (text: string): number[] =>
  text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => Number(p));

/** The PUT body of a store: PUT replaces, so every field goes back as it is unless changed. */
const storeBody = (s: StoreFields & { metadata?: Record<string, unknown>; status?: Store['status'] }): StoreInput => ({
  name: s.name,
  addressLine1: s.addressLine1 || null,
  city: s.city || null,
  postalCode: s.postalCode || null,
  country: s.country,
  timezone: s.timezone,
  defaultCurrency: s.defaultCurrency || null,
  mcc: s.mcc || null,
  tipping: s.tipping,
  ...(s.metadata ? { metadata: s.metadata } : {}),
  ...(s.status ? { status: s.status } : {}),
});

const terminalBody = (
  t: Pick<Terminal, 'label' | 'terminalType' | 'vendor' | 'model' | 'serialNumber'> & { metadata?: Record<string, unknown>; status?: Terminal['status'] },
): TerminalInput => ({
  label: t.label,
  terminalType: t.terminalType || null,
  vendor: t.vendor || null,
  model: t.model || null,
  serialNumber: t.serialNumber || null,
  ...(t.metadata ? { metadata: t.metadata } : {}),
  ...(t.status ? { status: t.status } : {}),
});

export function Stores() {
  const [params, setParams] = useSearchParams();
  const page = Number(params.get('page') ?? 0) || 0;
  const mode = params.get('mode') ?? '';
  const q = params.get('q') ?? '';
  const [draftQ, setDraftQ] = useState(q);
  const [creating, setCreating] = useState(false);
  const client = useQueryClient();
  // The filters come from the address as text; the API validates them.
  const query = present({ q, mode, page, size: 20 }) as SearchDashboardStoresData['query'];
  const list = useQuery({ queryKey: ['stores', query], queryFn: async () => (await searchDashboardStores({ query })).data, placeholderData: keepPreviousData });
  const refresh = () => Promise.all([client.invalidateQueries({ queryKey: ['stores'] }), client.invalidateQueries({ queryKey: NAMES_KEY })]);
  const setStatus = useMutation({
    mutationFn: (v: { store: Store; status: 'ACTIVE' | 'INACTIVE' }) =>
      updateDashboardStore({ path: { storeExternalId: v.store.externalId }, body: storeBody({ ...v.store, status: v.status }) }),
    onSuccess: refresh,
  });
  const go = (next: Record<string, string | number>) => {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries({ q, mode, ...next })) if (v) p.set(k, String(v));
    setParams(p);
  };

  return (
    <section>
      <h1>Stores</h1>
      <ModeSwitch value={mode} onChange={(mode) => go({ mode, page: 0 })} />
      <Filters onSubmit={() => go({ q: draftQ, page: 0 })}>
        <label>
          Search stores
          <input value={draftQ} placeholder="name, city, postal code or id" onChange={(e) => setDraftQ(e.target.value)} />
        </label>
        <button type="submit">Search</button>
        {!creating && (
          <button type="button" onClick={() => setCreating(true)}>
            New store
          </button>
        )}
      </Filters>
      {creating && (
        <StoreForm
          title="New store"
          initial={EMPTY_STORE}
          withMode
          submitLabel="Create store"
          onCancel={() => setCreating(false)}
          onSubmit={async (fields, m) => (await createDashboardStore({ body: { ...storeBody(fields), mode: m } })).data}
          onDone={() => {
            setCreating(false);
            void refresh();
          }}
        />
      )}
      <ErrorNote error={list.error ?? setStatus.error} />
      <ScrollTable label="Stores">
        <thead>
          <tr>
            <th>Name</th>
            <th>Store ID</th>
            <th>City</th>
            <th>Country</th>
            <th>Time zone</th>
            <th>Mode</th>
            <th>Status</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {list.data?.content.map((s) => (
            <tr key={s.externalId}>
              <td>
                <Link to={`/stores/${encodeURIComponent(s.externalId)}`}>{s.name}</Link>
              </td>
              <td>
                <code>{s.externalId}</code>
              </td>
              <td>{s.city ?? '—'}</td>
              <td>{s.country}</td>
              <td>{s.timezone}</td>
              <td>
                <span className={`mode mode-${s.mode}`}>{s.mode}</span>
              </td>
              <td>
                <Status value={s.status} />
              </td>
              <td className="actions">
                <button type="button" onClick={() => setStatus.mutate({ store: s, status: s.status === 'ACTIVE' ? 'INACTIVE' : 'ACTIVE' })}>
                  {s.status === 'ACTIVE' ? 'Deactivate' : 'Activate'}
                </button>
                <GuardedDelete
                  what="store"
                  name={s.name}
                  remove={(force) => deleteDashboardStore({ path: { storeExternalId: s.externalId }, query: force ? { force: 'true' } : undefined })}
                  onDeleted={() => void refresh()}
                />
              </td>
            </tr>
          ))}
          {list.isSuccess && list.data.content.length === 0 && (
            <tr>
              <td colSpan={8}>No stores match.</td>
            </tr>
          )}
        </tbody>
      </ScrollTable>
      {list.data && <Pager page={page} totalPages={list.data.totalPages} onPage={(p) => go({ page: p })} />}
    </section>
  );
}

function StoreForm({
  title,
  initial,
  withMode,
  submitLabel,
  onSubmit,
  onDone,
  onCancel,
}: {
  title: string;
  initial: StoreFields;
  withMode?: boolean;
  submitLabel: string;
  onSubmit: (fields: StoreFields, mode: 'live' | 'test') => Promise<Store>;
  onDone: (s: Store) => void;
  onCancel: () => void;
}) {
  const [f, setF] = useState<StoreFields>(initial);
  const [mode, setMode] = useState<'live' | 'test'>('live');
  const [tipPercentages, setTipPercentages] = useState(initial.tipping.percentages.join(', '));
  const save = useMutation({
    mutationFn: () => onSubmit({ ...f, tipping: { ...f.tipping, percentages: percentagesOf(tipPercentages) } }, mode),
    onSuccess: onDone,
  });
  const text = (key: Exclude<keyof StoreFields, 'tipping'>, label: string, opts: { required?: boolean; placeholder?: string } = {}) => (
    <label>
      {label}
      <input value={f[key] ?? ''} required={opts.required} placeholder={opts.placeholder} onChange={(e) => setF({ ...f, [key]: e.target.value })} />
    </label>
  );
  return (
    <form
      className="card"
      aria-label={title}
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      {text('name', 'Store name', { required: true })}
      {text('addressLine1', 'Address')}
      {text('city', 'City')}
      {text('postalCode', 'Postal code')}
      {text('country', 'Country', { required: true, placeholder: 'DE' })}
      {text('timezone', 'Time zone', { required: true, placeholder: 'Europe/Berlin' })}
      {text('defaultCurrency', 'Currency', { placeholder: 'EUR' })}
      {text('mcc', 'MCC', { placeholder: '5411' })}
      <fieldset>
        <legend>Tips</legend>
        <label>
          <input type="checkbox" checked={f.tipping.enabled} onChange={(e) => setF({ ...f, tipping: { ...f.tipping, enabled: e.target.checked } })} />
          Tipping enabled
        </label>
        <label>
          Tip percentages
          <input value={tipPercentages} placeholder="10, 15, 20" onChange={(e) => setTipPercentages(e.target.value)} />
        </label>
        <label>
          <input type="checkbox" checked={f.tipping.allowCustom} onChange={(e) => setF({ ...f, tipping: { ...f.tipping, allowCustom: e.target.checked } })} />
          Custom tip allowed
        </label>
      </fieldset>
      {withMode && (
        <label>
          Store mode
          <select value={mode} onChange={(e) => setMode(e.target.value as 'live' | 'test')}>
            <option value="live">live</option>
            <option value="test">test</option>
          </select>
        </label>
      )}
      <div className="actions">
        <button type="submit" disabled={save.isPending}>
          {submitLabel}
        </button>
        <button type="button" className="link" onClick={onCancel}>
          Cancel
        </button>
      </div>
      <ErrorNote error={save.error} />
    </form>
  );
}

const TERMINALS_SHOWN = 100;

/** One store: its fields (edit, deactivate, delete) and its terminals. */
export function StoreDetail() {
  const { storeExternalId = '' } = useParams();
  const path = { storeExternalId };
  const client = useQueryClient();
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const store = useQuery({ queryKey: ['store', storeExternalId], queryFn: async () => (await getDashboardStore({ path })).data });
  const terminals = useQuery({
    queryKey: ['store', storeExternalId, 'terminals'],
    // The list is paged (at most 100 a page): a store with more shows its first 100, and says so.
    queryFn: async () => (await listDashboardTerminals({ path, query: { size: TERMINALS_SHOWN } })).data,
    enabled: store.isSuccess,
  });
  const refresh = () => Promise.all([client.invalidateQueries({ queryKey: ['store', storeExternalId] }), client.invalidateQueries({ queryKey: NAMES_KEY })]);
  const setStatus = useMutation({
    mutationFn: (status: 'ACTIVE' | 'INACTIVE') => updateDashboardStore({ path, body: storeBody({ ...store.data!, status }) }),
    onSuccess: refresh,
  });

  if (store.error) return <ErrorNote error={store.error} />;
  const s = store.data;
  if (!s) return <p>Loading…</p>;
  return (
    <section>
      <p>
        <Link to="/stores">← Stores</Link>
      </p>
      <h1>
        Store {s.name} <Status value={s.status} />
      </h1>
      {editing ? (
        <StoreForm
          title="Edit store"
          initial={s}
          submitLabel="Save store"
          onCancel={() => setEditing(false)}
          onSubmit={async (fields) => (await updateDashboardStore({ path, body: storeBody({ ...fields, metadata: s.metadata, status: s.status }) })).data}
          onDone={() => {
            setEditing(false);
            void refresh();
          }}
        />
      ) : (
        <dl className="fields">
          <Field label="Store ID">
            <code>{s.externalId}</code>
          </Field>
          <Field label="Mode">{s.mode}</Field>
          <Field label="Address">{[s.addressLine1, s.postalCode, s.city].filter(Boolean).join(', ') || '—'}</Field>
          <Field label="Country">{s.country}</Field>
          <Field label="Time zone">{s.timezone}</Field>
          <Field label="Currency">{s.defaultCurrency ?? '—'}</Field>
          <Field label="MCC">{s.mcc ?? '—'}</Field>
          <Field label="Tips">
            {s.tipping.enabled ? `${s.tipping.percentages.join(', ')} %${s.tipping.allowCustom ? ', custom amount allowed' : ''}` : 'off'}
          </Field>
          <Field label="Created">{when(s.createdAt)}</Field>
          <Field label="Updated">{when(s.updatedAt)}</Field>
        </dl>
      )}
      <div className="actions" role="group" aria-label="Store actions" style={{ marginTop: '0.75rem' }}>
        {!editing && (
          <button type="button" onClick={() => setEditing(true)}>
            Edit
          </button>
        )}
        <button type="button" onClick={() => setStatus.mutate(s.status === 'ACTIVE' ? 'INACTIVE' : 'ACTIVE')}>
          {s.status === 'ACTIVE' ? 'Deactivate' : 'Activate'}
        </button>
        <GuardedDelete
          what="store"
          name={s.name}
          remove={(force) => deleteDashboardStore({ path, query: force ? { force: 'true' } : undefined })}
          onDeleted={() => void navigate('/stores')}
        />
      </div>
      <ErrorNote error={setStatus.error} />
      {s.status === 'INACTIVE' && <p className="note">This store is inactive: payments started in it are refused.</p>}

      <h2>Terminals</h2>
      <NewTerminal storeExternalId={storeExternalId} onCreated={() => void refresh()} />
      <ErrorNote error={terminals.error} />
      <ScrollTable label="Terminals">
        <thead>
          <tr>
            <th>Label</th>
            <th>Terminal ID</th>
            <th>Type</th>
            <th>Serial number</th>
            <th>Device linked</th>
            <th>Status</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {terminals.data?.map((t) => (
            <TerminalRow key={t.externalId} terminal={t} storeExternalId={storeExternalId} onChanged={() => void refresh()} />
          ))}
          {terminals.isSuccess && terminals.data.length === 0 && (
            <tr>
              <td colSpan={7}>No terminals yet.</td>
            </tr>
          )}
        </tbody>
      </ScrollTable>
      {terminals.data?.length === TERMINALS_SHOWN && <p className="note">Showing the first {TERMINALS_SHOWN} terminals by label.</p>}
      <p className="muted">A terminal takes payments once the service operator has linked it to its device (Device linked: yes).</p>
    </section>
  );
}

function TerminalRow({ terminal: t, storeExternalId, onChanged }: { terminal: Terminal; storeExternalId: string; onChanged: () => void }) {
  const path = { storeExternalId, terminalExternalId: t.externalId };
  const [editing, setEditing] = useState(false);
  const [label, setLabel] = useState(t.label);
  const [serial, setSerial] = useState(t.serialNumber ?? '');
  const save = useMutation({
    mutationFn: (change: { label?: string; serialNumber?: string; status?: 'ACTIVE' | 'INACTIVE' }) =>
      updateDashboardTerminal({ path, body: terminalBody({ ...t, status: t.status, ...change }) }),
    onSuccess: () => {
      setEditing(false);
      onChanged();
    },
  });
  return (
    <tr>
      <td>
        {editing ? (
          <label>
            Terminal label
            <input value={label} onChange={(e) => setLabel(e.target.value)} required />
          </label>
        ) : (
          t.label
        )}
      </td>
      <td>
        <code>{t.externalId}</code>
      </td>
      <td>{t.terminalType ?? '—'}</td>
      <td>
        {editing ? (
          <label>
            Serial number
            <input value={serial} onChange={(e) => setSerial(e.target.value)} />
          </label>
        ) : (
          (t.serialNumber ?? '—')
        )}
      </td>
      <td>{t.ready ? 'yes' : 'no'}</td>
      <td>
        <Status value={t.status} />
      </td>
      <td className="actions">
        {editing ? (
          <>
            <button type="button" onClick={() => save.mutate({ label, serialNumber: serial })}>
              Save terminal
            </button>
            <button type="button" className="link" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </>
        ) : (
          <button type="button" onClick={() => setEditing(true)}>
            Edit
          </button>
        )}
        <button type="button" onClick={() => save.mutate({ status: t.status === 'ACTIVE' ? 'INACTIVE' : 'ACTIVE' })}>
          {t.status === 'ACTIVE' ? 'Deactivate' : 'Activate'}
        </button>
        <GuardedDelete
          what="terminal"
          name={t.label}
          remove={(force) => deleteDashboardTerminal({ path, query: force ? { force: 'true' } : undefined })}
          onDeleted={onChanged}
        />
        <ErrorNote error={save.error} />
      </td>
    </tr>
  );
}

function NewTerminal({ storeExternalId, onCreated }: { storeExternalId: string; onCreated: () => void }) {
  const [label, setLabel] = useState('');
  const [terminalType, setType] = useState<TerminalType>('POS');
  const [serialNumber, setSerial] = useState('');
  const create = useMutation({
    mutationFn: () =>
      createDashboardTerminal({ path: { storeExternalId }, body: terminalBody({ label, terminalType, serialNumber, vendor: null, model: null }) }),
    onSuccess: () => {
      setLabel('');
      setSerial('');
      onCreated();
    },
  });
  return (
    <form
      className="inline"
      aria-label="New terminal"
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <label>
        New terminal label
        <input value={label} onChange={(e) => setLabel(e.target.value)} required maxLength={100} />
      </label>
      <label>
        Terminal type
        <select value={terminalType} onChange={(e) => setType(e.target.value as TerminalType)}>
          {TERMINAL_TYPES.map((t) => (
            <option key={t}>{t}</option>
          ))}
        </select>
      </label>
      <label>
        New serial number
        <input value={serialNumber} onChange={(e) => setSerial(e.target.value)} maxLength={100} />
      </label>
      <button type="submit" disabled={create.isPending}>
        Add terminal
      </button>
      <ErrorNote error={create.error} />
    </form>
  );
}
