import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { listDisputes, type ListDisputesData } from '@in-store-payments/client';
import { DISPUTE_STATUSES } from '../../../core/dispute/statuses';
import { present } from '../api';
import { DueTag } from '../components/disputes/DueTag';
import { ErrorNote, Filters, money, Pager, Status, when } from '../components/ui';
import { dueView } from '../disputes/due';
import { useNow, useReminderHours } from '../disputes/useDisputeClock';

const FILTERS = ['status', 'storeExternalId', 'paymentId', 'from', 'to'] as const;
type FilterValues = Record<(typeof FILTERS)[number], string>;
const REFRESH_MS = 5000;

/** The day after a date (`2026-11-26` → `2026-11-27`): the API's `to` is exclusive, the form's "Opened to" includes its day. */
function dayAfter(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return date; // the API names the field
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/**
 * Disputes (ADMIN, COMPLIANCE, FINANCE; contracts 12) over GET /api/dashboard/disputes: newest
 * first, filtered by status, store and opening dates (in the address, so a filtered list can be
 * bookmarked; `paymentId` comes from a payment's page), each row's due date marked by urgency.
 */
export function Disputes() {
  const [params, setParams] = useSearchParams();
  const page = Number(params.get('page') ?? 0) || 0;
  const filters = Object.fromEntries(FILTERS.map((f) => [f, params.get(f) ?? ''])) as FilterValues;
  const [draft, setDraft] = useState(filters);
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
  const apply = (next: Partial<FilterValues>, nextPage = 0) => {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...filters, ...next })) if (v) p.set(k, v);
    if (nextPage) p.set('page', String(nextPage));
    setParams(p);
  };

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
        <label>
          Store
          <input value={draft.storeExternalId} onChange={(e) => setDraft({ ...draft, storeExternalId: e.target.value })} />
        </label>
        <label>
          Opened from
          <input type="date" value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.target.value })} />
        </label>
        <label>
          Opened to
          <input type="date" value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} />
        </label>
        <button type="submit">Apply filters</button>
      </Filters>
      <ErrorNote error={list.error} />
      <table aria-label="Disputes">
        <thead>
          <tr>
            <th>Opened</th>
            <th>Payment</th>
            <th>Reason</th>
            <th>Amount</th>
            <th>Store</th>
            <th>Status</th>
            <th>Due by</th>
          </tr>
        </thead>
        <tbody>
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
              <td>{d.storeExternalId}</td>
              <td>
                <Status value={d.status} />
              </td>
              <td>
                <DueTag dispute={d} />
              </td>
            </tr>
          ))}
          {list.isSuccess && list.data.content.length === 0 && (
            <tr>
              <td colSpan={7}>No disputes{Object.values(filters).some(Boolean) ? ' match these filters' : ''}.</td>
            </tr>
          )}
        </tbody>
      </table>
      {list.data && <Pager page={page} totalPages={list.data.totalPages} onPage={(p) => apply({}, p)} />}
    </section>
  );
}
