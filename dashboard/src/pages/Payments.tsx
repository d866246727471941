import { ScrollTable } from '../components/ScrollTable';
import { useMemo } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { createColumnHelper, flexRender, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { Link } from 'react-router';
import { present } from '../api';
import { ExportCsv } from '../components/ExportCsv';
import { DateRange, StorePicker, TerminalPicker } from '../components/FilterFields';
import { StoreName, TerminalName } from '../components/Names';
import { ErrorNote, Filters, ModeSwitch, money, Pager, Status, when } from '../components/ui';
import { useAddressFilters } from '../components/useAddressFilters';
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
/** The export's columns: the API's fields, ids and exact amounts. */
const CSV_HEADER = [
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
] as const satisfies readonly (keyof Payment)[];

const col = createColumnHelper<Payment>();
const columns = [
  col.accessor('pspReference', { header: 'PSP reference', cell: (c) => <Link to={`/payments/${c.row.original.id}`}>{c.getValue()}</Link> }),
  col.accessor('reference', { header: 'Reference', cell: (c) => c.getValue() ?? '—' }),
  col.accessor('status', { header: 'Status', cell: (c) => <Status value={c.getValue()} /> }),
  col.accessor('amount', { header: 'Amount', cell: (c) => money(c.getValue(), c.row.original.currency) }),
  col.accessor('storeExternalId', { header: 'Store', cell: (c) => <StoreName id={c.getValue()} /> }),
  col.accessor('terminalExternalId', { header: 'Terminal', cell: (c) => <TerminalName id={c.getValue()} /> }),
  col.accessor('mode', { header: 'Mode', cell: (c) => <span className={`mode mode-${c.getValue()}`}>{c.getValue()}</span> }),
  col.accessor('createdAt', { header: 'Created', cell: (c) => when(c.getValue()) }),
];

/**
 * Payments of the business, live and test alike until narrowed to one mode (docs/dashboard.md, "Payments"). The
 * filters live in the address (nothing secret), and the list refreshes itself while open.
 */
export function Payments() {
  const { page, filters, draft, setDraft, apply } = useAddressFilters(FILTERS);
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
        <StorePicker value={draft.storeExternalId} onChange={(storeExternalId) => setDraft({ ...draft, storeExternalId, terminalExternalId: '' })} />
        <TerminalPicker
          value={draft.terminalExternalId}
          storeId={draft.storeExternalId}
          onChange={(terminalExternalId) => setDraft({ ...draft, terminalExternalId })}
        />
        <DateRange from={draft.from} to={draft.to} onChange={(range) => setDraft({ ...draft, ...range })} labels={['From', 'To']} />
        <button type="submit">Apply filters</button>
        <ExportCsv
          fetchPage={async (p, size) => (await listDashboardPayments({ query: { ...query, page: p, size } })).data}
          header={[...CSV_HEADER]}
          row={(p: Payment) => CSV_HEADER.map((h) => p[h] as string | number | null)}
          filename="payments.csv"
        />
      </Filters>
      <ErrorNote error={list.error} />
      <ScrollTable label="Payments">
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
      </ScrollTable>
      {list.data && <Pager page={page} totalPages={list.data.totalPages} onPage={(p) => apply({}, p)} />}
      <p className="muted">
        {list.data ? `${list.data.totalElements} ${list.data.totalElements === 1 ? 'payment' : 'payments'}` : 'Loading…'} · refreshes every {REFRESH_MS / 1000}{' '}
        s
      </p>
    </section>
  );
}
