import { useMemo, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { createColumnHelper, flexRender, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { Link, useSearchParams } from 'react-router';
import { present, saveText } from '../api';
import { ErrorNote, Filters, ModeSwitch, money, Pager, Status, toCsv, when } from '../components/ui';
import { listDashboardPayments, type ListDashboardPaymentsData, type Payment } from '@in-store-payments/client';

/** Statuses a user can filter on, by their API names. */
export const STATUSES = [
  'CREATED',
  'AWAITING_TERMINAL',
  'AUTHORIZED',
  'CAPTURED',
  'SETTLED',
  'PARTIALLY_REFUNDED',
  'REFUNDED',
  'REFUSED',
  'CANCELLED',
  'EXPIRED',
  'ERROR',
  'FAILED',
];

const FILTERS = ['status', 'storeExternalId', 'terminalExternalId', 'mode', 'from', 'to', 'q'] as const;
const REFRESH_MS = 3000;

const col = createColumnHelper<Payment>();
const columns = [
  col.accessor('pspReference', { header: 'PSP reference', cell: (c) => <Link to={`/payments/${c.row.original.id}`}>{c.getValue()}</Link> }),
  col.accessor('reference', { header: 'Reference', cell: (c) => c.getValue() ?? '—' }),
  col.accessor('status', { header: 'Status', cell: (c) => <Status value={c.getValue()} /> }),
  col.accessor('amount', { header: 'Amount', cell: (c) => money(c.getValue(), c.row.original.currency) }),
  col.accessor('storeExternalId', { header: 'Store' }),
  col.accessor('terminalExternalId', { header: 'Terminal' }),
  col.accessor('mode', { header: 'Mode', cell: (c) => <span className={`mode mode-${c.getValue()}`}>{c.getValue()}</span> }),
  col.accessor('createdAt', { header: 'Created', cell: (c) => when(c.getValue()) }),
];

/**
 * Payments of the business, live and test alike until narrowed to one mode (contracts 9). The
 * filters live in the address (nothing secret), and the list refreshes itself while open.
 */
export function Payments() {
  const [params, setParams] = useSearchParams();
  const page = Number(params.get('page') ?? 0) || 0;
  const filters = Object.fromEntries(FILTERS.map((f) => [f, params.get(f) ?? ''])) as Record<(typeof FILTERS)[number], string>;
  const [draft, setDraft] = useState(filters);
  // The filters come from the address as text; the API validates them.
  const query = present({ ...filters, page, size: 20 }) as ListDashboardPaymentsData['query'];

  const list = useQuery({
    queryKey: ['payments', query],
    queryFn: async () => (await listDashboardPayments({ query })).data,
    refetchInterval: REFRESH_MS,
    placeholderData: keepPreviousData,
  });
  const rows = useMemo(() => list.data?.content ?? [], [list.data]);
  const table = useReactTable({ data: rows, columns, getCoreRowModel: getCoreRowModel(), getRowId: (p) => p.id });

  const apply = (next: Partial<typeof filters>, nextPage = 0) => {
    const merged = { ...filters, ...next };
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries(merged)) if (v) p.set(k, v);
    if (nextPage) p.set('page', String(nextPage));
    setParams(p);
  };

  async function exportCsv() {
    // Every page of the current filters, 100 at a time.
    const all: Payment[] = [];
    for (let p = 0; ; p++) {
      const { data: chunk } = await listDashboardPayments({ query: { ...query, page: p, size: 100 } });
      all.push(...chunk.content);
      if (p + 1 >= chunk.totalPages) break;
    }
    const header = [
      'id',
      'pspReference',
      'reference',
      'status',
      'amount',
      'currency',
      'storeExternalId',
      'terminalExternalId',
      'mode',
      'paymentMethod',
      'cardBrand',
      'last4',
      'createdAt',
      'capturedAt',
    ];
    saveText(
      toCsv(
        header,
        all.map((p) => header.map((h) => p[h as keyof Payment] as string | number | null)),
      ),
      'payments.csv',
    );
  }

  return (
    <section>
      <h1>Payments</h1>
      <ModeSwitch value={filters.mode} onChange={(mode) => apply({ mode })} />
      <Filters onSubmit={() => apply(draft)}>
        <label>
          Search
          <input value={draft.q} placeholder="reference, PSP reference or id" onChange={(e) => setDraft({ ...draft, q: e.target.value })} />
        </label>
        <label>
          Status
          <select value={draft.status} onChange={(e) => setDraft({ ...draft, status: e.target.value })}>
            <option value="">Any</option>
            {STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <label>
          Store
          <input value={draft.storeExternalId} onChange={(e) => setDraft({ ...draft, storeExternalId: e.target.value })} />
        </label>
        <label>
          Terminal
          <input value={draft.terminalExternalId} onChange={(e) => setDraft({ ...draft, terminalExternalId: e.target.value })} />
        </label>
        <label>
          From
          <input type="date" value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.target.value })} />
        </label>
        <label>
          To
          <input type="date" value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} />
        </label>
        <button type="submit">Apply filters</button>
        <button type="button" onClick={() => void exportCsv()}>
          Export CSV
        </button>
      </Filters>
      <ErrorNote error={list.error} />
      <table aria-label="Payments">
        <thead>
          {table.getHeaderGroups().map((g) => (
            <tr key={g.id}>
              {g.headers.map((h) => (
                <th key={h.id}>{flexRender(h.column.columnDef.header, h.getContext())}</th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((r) => (
            <tr key={r.id}>
              {r.getVisibleCells().map((c) => (
                <td key={c.id}>{flexRender(c.column.columnDef.cell, c.getContext())}</td>
              ))}
            </tr>
          ))}
          {list.isSuccess && rows.length === 0 && (
            <tr>
              <td colSpan={columns.length}>No payments match.</td>
            </tr>
          )}
        </tbody>
      </table>
      {list.data && <Pager page={page} totalPages={list.data.totalPages} onPage={(p) => apply({}, p)} />}
      <p className="muted">
        {list.data ? `${list.data.totalElements} payments` : 'Loading…'} · refreshes every {REFRESH_MS / 1000} s
      </p>
    </section>
  );
}
