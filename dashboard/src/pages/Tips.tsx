import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { SUPPORTED_CURRENCY_CODES } from '../../../src/money/currencies';
import { present, saveText } from '../api';
import { DateRange, StorePicker } from '../components/FilterFields';
import { ListTable } from '../components/ListTable';
import { StoreName } from '../components/Names';
import { TipsChart } from '../components/tips/TipsChart';
import { ErrorNote, Filters, ModeSwitch, money } from '../components/ui';
import { useAddressFilters } from '../components/useAddressFilters';
import { tipsPerDay } from '../tips/perDay';
import { CHART_PAGES, useAllTips } from '../tips/useAllTips';
import { fetchTipsCsv, fetchTipsPage, tipsCsvAddress, type TipsFilters } from '../tips/report';

const FILTERS = ['from', 'to', 'storeExternalId', 'currency', 'mode'] as const;

/**
 * Tips (ADMIN, FINANCE; docs/dashboard.md, "Tips") over GET /api/dashboard/tips: per business date, store,
 * cashier and currency, the payments captured and the tips charged on them; a chart of tips per
 * day; the same rows as CSV. Filters in the address, as the other lists.
 */
export function Tips() {
  const { page, filters, draft, setDraft, apply } = useAddressFilters(FILTERS);
  const chosen = present(filters) as TipsFilters;
  const list = useQuery({
    queryKey: ['tips', chosen, page],
    queryFn: () => fetchTipsPage(chosen, page, 20),
    placeholderData: keepPreviousData,
  });
  const all = useAllTips(chosen);
  const csv = useMutation({ mutationFn: async () => saveText(await fetchTipsCsv(chosen), 'tips.csv') });
  const days = tipsPerDay(all.data?.rows ?? []);

  return (
    <section>
      <h1>Tips</h1>
      <p className="muted">
        Per business date, store and cashier: the payments captured, tipped or not, and the tips charged on them. A later refund does not change them.
      </p>
      {/* One mode at a time (live by default): test money is never summed with live money. */}
      <ModeSwitch value={filters.mode || 'live'} onChange={(mode) => apply({ mode })} both={false} />
      <Filters onSubmit={() => apply({ ...draft, mode: filters.mode })}>
        <DateRange from={draft.from} to={draft.to} onChange={(range) => setDraft({ ...draft, ...range })} labels={['From business date', 'To business date']} />
        <StorePicker value={draft.storeExternalId} onChange={(storeExternalId) => setDraft({ ...draft, storeExternalId })} />
        <label>
          Currency
          <select value={draft.currency} onChange={(e) => setDraft({ ...draft, currency: e.target.value })}>
            <option value="">Any currency</option>
            {!SUPPORTED_CURRENCY_CODES.includes(draft.currency) && draft.currency && <option>{draft.currency}</option>}
            {SUPPORTED_CURRENCY_CODES.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </label>
        <button type="submit">Apply filters</button>
      </Filters>
      <div className="actions" style={{ marginBottom: '0.5rem' }}>
        <a
          href={tipsCsvAddress(chosen)}
          onClick={(e) => {
            // The CSV needs the session, sent in a header: the page fetches it and saves the file.
            e.preventDefault();
            if (!csv.isPending) csv.mutate();
          }}
        >
          Download CSV
        </a>
        <span role="status" className="muted">
          {csv.isPending ? 'Downloading…' : ''}
        </span>
      </div>
      <ErrorNote error={csv.error} />
      <ErrorNote error={list.error ?? all.error} />
      {[...days.entries()].map(([currency, d]) => (
        <TipsChart key={currency} currency={currency} days={d} />
      ))}
      {all.data && !all.data.complete && (
        <p className="note">The chart shows the first {CHART_PAGES * 100} rows only: narrow the dates or pick a store to see every day.</p>
      )}
      <h2>Per cashier</h2>
      <ListTable
        label="Tips"
        headers={['Business date', 'Store', 'Cashier', 'Currency', 'Payments', 'Tips']}
        empty={`No captured payments${Object.values(filters).some(Boolean) ? ' match these filters' : ' yet'}.`}
        loaded={list.data ? { count: list.data.content.length } : null}
        page={page}
        totalPages={list.data?.totalPages}
        onPage={(p) => apply({}, p)}
      >
        {list.data?.content.map((r) => (
          <tr key={`${r.businessDate} ${r.storeExternalId} ${r.cashierId ?? ''} ${r.currency}`}>
            <td>{r.businessDate}</td>
            <td>
              <StoreName id={r.storeExternalId} />
            </td>
            <td>{r.cashierId ?? <span className="muted">No cashier</span>}</td>
            <td>{r.currency}</td>
            <td>{r.count}</td>
            <td>{money(r.tipAmount, r.currency)}</td>
          </tr>
        ))}
      </ListTable>
    </section>
  );
}
