import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { listDisputes, type ListDisputesData } from '@in-store-payments/client';
import { DISPUTE_STATUSES } from '../../../core/dispute/statuses';
import { present } from '../api';
import { DueTag } from '../components/disputes/DueTag';
import { DateRange, StorePicker } from '../components/FilterFields';
import { ListTable } from '../components/ListTable';
import { StoreName } from '../components/Names';
import { ErrorNote, Filters, money, Status, when } from '../components/ui';
import { useAddressFilters } from '../components/useAddressFilters';
import { dueView } from '../disputes/due';
import { useNow, useReminderHours } from '../disputes/useDisputeClock';

const FILTERS = ['status', 'storeExternalId', 'paymentId', 'from', 'to'] as const;
const REFRESH_MS = 5000;

/** The day after a date (`2026-11-26` → `2026-11-27`): the API's `to` is exclusive, the form's "Opened to" includes its day. */
function dayAfter(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return date; // the API names the field
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/**
 * Disputes (ADMIN, COMPLIANCE, FINANCE; docs/disputes.md) over GET /api/dashboard/disputes: newest
 * first, filtered by status, store and opening dates (in the address, so a filtered list can be
 * bookmarked; `paymentId` comes from a payment's page), each row's due date marked by urgency.
 */
export function Disputes() {
  const { page, filters, draft, setDraft, apply } = useAddressFilters(FILTERS);
  const now = useNow();
  const reminderHours = useReminderHours();
  // The filters come from the address as text; the API validates them.
  const query = present({ ...filters, to: filters.to && dayAfter(filters.to), page, size: 20 }) as ListDisputesData['query'];
  const list = useQuery({
    queryKey: ['disputes', query],
    queryFn: async () => (await listDisputes({ query })).data,
    refetchInterval: REFRESH_MS,
    placeholderData: keepPreviousData,
  });

  return (
    <section>
      <h1>Disputes</h1>
      <p className="muted">
        A dispute still NEEDS_RESPONSE is lost unless evidence is submitted or it is accepted by its due date; those due within {reminderHours} h are marked.
      </p>
      {filters.paymentId && (
        <p className="note">
          The disputes of payment <code>{filters.paymentId}</code>.{' '}
          <button
            type="button"
            className="link"
            onClick={() => {
              setDraft({ ...draft, paymentId: '' });
              apply({ paymentId: '' });
            }}
          >
            Show every dispute
          </button>
        </p>
      )}
      <Filters onSubmit={() => apply(draft)}>
        <label>
          Status
          <select value={draft.status} onChange={(e) => setDraft({ ...draft, status: e.target.value })}>
            <option value="">Any status</option>
            {DISPUTE_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <StorePicker value={draft.storeExternalId} onChange={(storeExternalId) => setDraft({ ...draft, storeExternalId })} />
        <DateRange from={draft.from} to={draft.to} onChange={(range) => setDraft({ ...draft, ...range })} labels={['Opened from', 'Opened to']} />
        <button type="submit">Apply filters</button>
      </Filters>
      <ErrorNote error={list.error} />
      <ListTable
        label="Disputes"
        headers={['Opened', 'Payment', 'Reason', 'Amount', 'Store', 'Status', 'Due by']}
        empty={`No disputes${Object.values(filters).some(Boolean) ? ' match these filters' : ''}.`}
        loaded={list.data ? { count: list.data.content.length } : null}
        page={page}
        totalPages={list.data?.totalPages}
        onPage={(p) => apply({}, p)}
      >
        {list.data?.content.map((d) => (
          <tr key={d.id} className={`due-row due-row-${dueView(d, now, reminderHours).kind}`}>
            <td>
              <Link to={`/disputes/${d.id}`}>{when(d.openedAt)}</Link>
            </td>
            <td>
              <Link to={`/disputes/${d.id}`}>{d.pspReference}</Link>
            </td>
            <td>{d.reason}</td>
            <td>{money(d.amount, d.currency)}</td>
            <td>
              <StoreName id={d.storeExternalId} />
            </td>
            <td>
              <Status value={d.status} />
            </td>
            <td>
              <DueTag dispute={d} />
            </td>
          </tr>
        ))}
      </ListTable>
    </section>
  );
}
