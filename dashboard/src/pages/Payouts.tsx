import { ScrollTable } from '../components/ScrollTable';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { useAddressFilters } from '../components/useAddressFilters';
import { present } from '../api';
import { ExportCsv } from '../components/ExportCsv';
import { AccountPicker, DateRange } from '../components/FilterFields';
import { AccountName } from '../components/Names';
import { ListTable } from '../components/ListTable';
import { ErrorNote, Field, Filters, money, Status, when } from '../components/ui';
import { getPayout, listBalances, listPayouts, type ListPayoutsData, type Payout } from '@in-store-payments/client';

/**
 * Payouts and balances (ADMIN, FINANCE; docs/payouts-and-fees.md) over /api/dashboard/payouts and
 * /api/dashboard/balances: what the acquirers paid to the bank, each reconciled with the batches
 * it pays, and what is still on its way.
 */

const STATUSES = ['IN_TRANSIT', 'PAID', 'FAILED'];
const CSV_HEADER = [
  'id',
  'acquirerAccountId',
  'acquirerPayoutId',
  'status',
  'amount',
  'currency',
  'arrivalDate',
  'expectedAmount',
  'reconciled',
  'batchIds',
  'failureReason',
  'createdAt',
];

/** Reconciliation in words: the payout's own figures, never markup. */
function Reconciliation({ p }: { p: Payout }) {
  if (p.expectedAmount === null) return <span className="muted">waiting for its batch</span>;
  if (p.reconciled) return <span>Reconciled</span>;
  return (
    <span className="warning">
      PAYOUT_MISMATCH: paid {money(p.amount, p.currency)}, batches net {money(p.expectedAmount, p.currency)}
    </span>
  );
}

export function Payouts() {
  const { page, filters, draft, setDraft, apply } = useAddressFilters(['acquirerAccountId', 'status', 'from', 'to'] as const);
  const query = present({ ...filters, page, size: 20 }) as ListPayoutsData['query'];
  const list = useQuery({ queryKey: ['payouts', query], queryFn: async () => (await listPayouts({ query })).data, placeholderData: keepPreviousData });
  return (
    <section>
      <h1>Payouts</h1>
      <Filters onSubmit={() => apply(draft)}>
        <AccountPicker value={draft.acquirerAccountId} onChange={(id) => setDraft({ ...draft, acquirerAccountId: id })} />
        <label>
          Status
          <select value={draft.status} onChange={(e) => setDraft({ ...draft, status: e.target.value })}>
            <option value="">Any</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <DateRange from={draft.from} to={draft.to} onChange={(range) => setDraft({ ...draft, ...range })} />
        <button type="submit">Apply filters</button>
      </Filters>
      <div className="actions" style={{ marginBottom: '0.5rem' }}>
        <ExportCsv
          fetchPage={async (p, size) => (await listPayouts({ query: { ...query, page: p, size } })).data}
          header={CSV_HEADER}
          row={(p: Payout) => [
            p.id,
            p.acquirerAccountId,
            p.acquirerPayoutId,
            p.status,
            p.amount,
            p.currency,
            p.arrivalDate,
            p.expectedAmount,
            String(p.reconciled),
            p.batchIds.join(' '),
            p.failureReason,
            p.createdAt,
          ]}
          filename="payouts.csv"
        />
      </div>
      <ErrorNote error={list.error} />
      <ListTable
        label="Payouts"
        headers={['Created', 'Payout', 'Account', 'Status', 'Amount', 'Arrival', 'Reconciliation']}
        empty="No payouts yet."
        loaded={list.data ? { count: list.data.content.length } : null}
        page={page}
        totalPages={list.data?.totalPages}
        onPage={(p) => apply({}, p)}
      >
        {list.data?.content.map((p) => (
          <tr key={p.id}>
            <td>{when(p.createdAt)}</td>
            <td>
              <Link to={`/payouts/${p.id}`}>{p.acquirerPayoutId}</Link>
            </td>
            <td>
              <AccountName id={p.acquirerAccountId} />
            </td>
            <td>
              <Status value={p.status} />
            </td>
            <td>{money(p.amount, p.currency)}</td>
            <td>{p.arrivalDate}</td>
            <td>
              <Reconciliation p={p} />
            </td>
          </tr>
        ))}
      </ListTable>
    </section>
  );
}

export function PayoutDetail() {
  const { id = '' } = useParams();
  const payout = useQuery({ queryKey: ['payout', id], queryFn: async () => (await getPayout({ path: { id } })).data });
  if (payout.error) return <ErrorNote error={payout.error} />;
  const p = payout.data;
  if (!p) return <p>Loading…</p>;
  return (
    <section>
      <p>
        <Link to="/payouts">← Payouts</Link>
      </p>
      <h1>
        Payout {p.acquirerPayoutId} <Status value={p.status} />
      </h1>
      <dl className="fields">
        <Field label="Amount">{money(p.amount, p.currency)}</Field>
        <Field label="Account">
          <AccountName id={p.acquirerAccountId} /> {p.acquirerAccountId && <code>{p.acquirerAccountId}</code>}
        </Field>
        <Field label="Arrival date">{p.arrivalDate}</Field>
        <Field label="Expected (net of its batches)">{money(p.expectedAmount, p.currency)}</Field>
        <Field label="Reconciliation">
          <Reconciliation p={p} />
        </Field>
        {p.failureReason !== null && <Field label="What the bank said">{p.failureReason}</Field>}
        <Field label="Created">{when(p.createdAt)}</Field>
        <Field label="Updated">{when(p.updatedAt)}</Field>
      </dl>
      <h2>Batches it pays</h2>
      <ul aria-label="Batches it pays">
        {p.batchIds.map((b) => (
          <li key={b}>
            <Link to={`/settlements/${b}`}>{b}</Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function Balances() {
  const balances = useQuery({ queryKey: ['balances'], queryFn: async () => (await listBalances()).data });
  return (
    <section>
      <h1>Balances</h1>
      <p className="muted">Per acquirer account and currency: settled and not yet paid out, on its way to the bank, and paid out in the last 30 days.</p>
      <ErrorNote error={balances.error} />
      <ScrollTable label="Balances">
        <thead>
          <tr>
            <th>Account</th>
            <th>Currency</th>
            <th>Settled, not paid out</th>
            <th>In transit</th>
            <th>Paid out (30 days)</th>
          </tr>
        </thead>
        <tbody>
          {balances.data?.map((b) => (
            <tr key={`${b.acquirerAccountId ?? ''} ${b.currency}`}>
              <td>
                <AccountName id={b.acquirerAccountId} />
              </td>
              <td>{b.currency}</td>
              <td>{money(b.settledNotPaidOut, b.currency)}</td>
              <td>{money(b.inTransit, b.currency)}</td>
              <td>{money(b.paidOutLast30Days, b.currency)}</td>
            </tr>
          ))}
        </tbody>
      </ScrollTable>
      {balances.data?.length === 0 && <p className="muted">Nothing settled yet.</p>}
    </section>
  );
}
