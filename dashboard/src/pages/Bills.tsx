import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { listDashboardBills, type ListDashboardBillsData } from '@in-store-payments/client';
import { BILL_STATUSES } from '../../../core/bill/statuses';
import { present } from '../api';
import { StorePicker } from '../components/FilterFields';
import { ListTable } from '../components/ListTable';
import { StoreName } from '../components/Names';
import { ErrorNote, Filters, ModeSwitch, money, Status, when } from '../components/ui';
import { useAddressFilters } from '../components/useAddressFilters';

const FILTERS = ['status', 'storeExternalId', 'mode'] as const;
const REFRESH_MS = 3000;

/**
 * Bills of the business (docs/dashboard.md, "Bills") over GET /api/dashboard/bills: newest first,
 * live and test alike until narrowed to one mode, filtered by status and store (in the address, so
 * a filtered list can be bookmarked); what each bill is paid and what remains. Refreshes while open.
 */
export function Bills() {
  const { page, filters, draft, setDraft, apply } = useAddressFilters(FILTERS);
  // The filters come from the address as text; the API validates them.
  const query = present({ ...filters, page, size: 20 }) as ListDashboardBillsData['query'];
  const list = useQuery({
    queryKey: ['bills', query],
    queryFn: async () => (await listDashboardBills({ query })).data,
    refetchInterval: REFRESH_MS,
    placeholderData: keepPreviousData,
  });

  return (
    <section>
      <h1>Bills</h1>
      <p className="muted">
        A bill is paid by one or more tenders (cards, QR payments, cash at the till); a bill cancelled or expired is given back tender by tender.
      </p>
      <ModeSwitch value={filters.mode} onChange={(mode) => apply({ mode })} />
      <Filters onSubmit={() => apply(draft)}>
        <label>
          Status
          <select value={draft.status} onChange={(e) => setDraft({ ...draft, status: e.target.value })}>
            <option value="">Any status</option>
            {BILL_STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <StorePicker value={draft.storeExternalId} onChange={(storeExternalId) => setDraft({ ...draft, storeExternalId })} />
        <button type="submit">Apply filters</button>
      </Filters>
      <ErrorNote error={list.error} />
      <ListTable
        label="Bills"
        headers={['Reference', 'Status', 'Amount', 'Paid', 'Remaining', 'Tenders', 'Store', 'Mode', 'Created']}
        empty={`No bills${Object.values(filters).some(Boolean) ? ' match these filters' : ''}.`}
        loaded={list.data ? { count: list.data.content.length } : null}
        page={page}
        totalPages={list.data?.totalPages}
        onPage={(p) => apply({}, p)}
      >
        {list.data?.content.map((b) => (
          <tr key={b.id}>
            <td>
              <Link to={`/bills/${b.id}`}>{b.reference}</Link>
            </td>
            <td>
              <Status value={b.status} />
            </td>
            <td>{money(b.amount, b.currency)}</td>
            <td>{money(b.paidAmount, b.currency)}</td>
            <td>{money(b.remainingAmount, b.currency)}</td>
            <td>{b.tenders.length}</td>
            <td>
              <StoreName id={b.storeExternalId} />
            </td>
            <td>
              <span className={`mode mode-${b.mode}`}>{b.mode}</span>
            </td>
            <td>{when(b.createdAt)}</td>
          </tr>
        ))}
      </ListTable>
      <p className="muted">
        {list.data ? `${list.data.totalElements} ${list.data.totalElements === 1 ? 'bill' : 'bills'}` : 'Loading…'} · refreshes every {REFRESH_MS / 1000} s
      </p>
    </section>
  );
}
