import { ScrollTable } from '../components/ScrollTable';
import { useState, type FormEvent } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { useAddressFilters } from '../components/useAddressFilters';
import { present, saveText } from '../api';
import { DateRange, StorePicker } from '../components/FilterFields';
import { ListTable } from '../components/ListTable';
import { FeeAudit } from '../components/settlements/FeeAudit';
import { StoreName, UserName } from '../components/Names';
import { ErrorNote, Field, Filters, money, Pager, Status, when } from '../components/ui';
import {
  closeSettlementBatch,
  exportSettlementLines,
  listStoresWaitingForSettlement,
  getSettlement,
  listSettlementLines,
  listSettlements,
  type GetSettlementFeeAuditData,
  type ListSettlementsData,
  type SettlementBatch as Settlement,
} from '@in-store-payments/client';

/**
 * Settlements (ADMIN, FINANCE; docs/settlement.md) over /api/dashboard/settlements: close a store's open
 * batch, the batches newest first, and one batch with its totals, discrepancies, lines and CSV.
 */

const DISCREPANCY_TEXT: Record<string, string> = {
  MISSING_FROM_REPORT: 'captured here, not in the acquirer’s report: stays unsettled and goes into the next batch',
  NOT_IN_PLATFORM: 'in the acquirer’s report, unknown here: recorded as a payment from the report',
  AMOUNT_MISMATCH: 'the acquirer reported another amount',
  FEE_MISMATCH: 'the acquirer charged another fee than the cost contract says (expected: the contract’s; reported: charged)',
};

/** a - b for amounts of at most 4 decimals, exactly (no binary fraction left over). */
const minus = (a: number, b: number): number => (Math.round(a * 10_000) - Math.round(b * 10_000)) / 10_000;

export function Settlements() {
  const { page, filters, draft, setDraft, apply } = useAddressFilters(['storeExternalId', 'mode', 'from', 'to'] as const);
  // The filters come from the address as text; the API validates them.
  const query = present({ ...filters, page, size: 20 }) as ListSettlementsData['query'];
  const list = useQuery({ queryKey: ['settlements', query], queryFn: async () => (await listSettlements({ query })).data, placeholderData: keepPreviousData });

  return (
    <section>
      <h1>Settlements</h1>
      <CloseBatch />
      <Filters onSubmit={() => apply(draft)}>
        <StorePicker value={draft.storeExternalId} onChange={(storeExternalId) => setDraft({ ...draft, storeExternalId })} />
        <label>
          Mode
          <select value={draft.mode} onChange={(e) => setDraft({ ...draft, mode: e.target.value })}>
            <option value="">Live and test</option>
            <option value="live">live</option>
            <option value="test">test</option>
          </select>
        </label>
        <DateRange from={draft.from} to={draft.to} onChange={(range) => setDraft({ ...draft, ...range })} />
        <button type="submit">Apply filters</button>
      </Filters>
      <ErrorNote error={list.error} />
      <FeeAudit query={present(filters) as GetSettlementFeeAuditData['query']} />
      <ListTable
        label="Settlement batches"
        headers={['Business date', 'Store', 'Mode', 'Status', 'Payments', 'Net', 'Discrepancies', 'Closed', 'By']}
        empty="No batches closed yet."
        loaded={list.data ? { count: list.data.content.length } : null}
        page={page}
        totalPages={list.data?.totalPages}
        onPage={(p) => apply({}, p)}
      >
        {list.data?.content.map((b) => (
          <tr key={b.id}>
            <td>
              <Link to={`/settlements/${b.id}`}>{b.date}</Link>
            </td>
            <td>
              <StoreName id={b.storeExternalId} />
            </td>
            <td>
              <span className={`mode mode-${b.mode}`}>{b.mode}</span>
            </td>
            <td>
              <Status value={b.status} />
            </td>
            <td>{b.totals.reduce((n, t) => n + t.paymentCount, 0)}</td>
            <td>{b.totals.map((t) => money(t.netAmount, t.currency)).join(', ') || '—'}</td>
            <td>{b.discrepancies.length}</td>
            <td>{when(b.closedAt)}</td>
            <td>
              <UserName username={b.closedBy} />
            </td>
          </tr>
        ))}
      </ListTable>
    </section>
  );
}

/** Closes a store's open batch now, chosen among the stores with something waiting for settlement. */
function CloseBatch() {
  const [store, setStore] = useState('');
  const client = useQueryClient();
  const navigate = useNavigate();
  const close = useMutation({
    mutationFn: async (storeExternalId: string) => (await closeSettlementBatch({ body: { storeExternalId } })).data,
    onSuccess: async (batch) => {
      await client.invalidateQueries({ queryKey: ['settlements'] });
      await client.invalidateQueries({ queryKey: ['settlement-stores'] });
      void navigate(`/settlements/${batch.id}`);
    },
  });
  const waiting = useQuery({
    queryKey: ['settlement-stores'],
    queryFn: async () => (await listStoresWaitingForSettlement()).data.stores,
    // While a close runs (this one, or another's), its progress is read again every second.
    refetchInterval: (q) => (close.isPending || q.state.data?.some((s) => s.closing) ? PROGRESS_MS : false),
  });
  const stores = waiting.data ?? [];
  const offered = stores.filter((s) => s.payments + s.refunds > 0 && !s.closing);
  const closing = stores.filter((s) => s.closing);
  return (
    <form
      className="inline"
      aria-label="Close a batch"
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        close.mutate(store);
      }}
    >
      <label>
        Store to close
        <select value={store} onChange={(e) => setStore(e.target.value)} required>
          <option value="">{waiting.isSuccess && offered.length === 0 ? 'Nothing waiting for settlement' : 'Choose a store'}</option>
          {offered.map((s) => (
            <option key={s.externalId} value={s.externalId} title={s.externalId}>
              {s.name}
              {s.mode === 'test' ? ' (test)' : ''}: {waitingItems(s)}
            </option>
          ))}
          {close.isPending && !offered.some((s) => s.externalId === store) && (
            <option value={store}>{stores.find((s) => s.externalId === store)?.name ?? store}</option>
          )}
        </select>
      </label>
      <button type="submit" disabled={close.isPending || !store}>
        Close batch
      </button>
      <span className="muted">Closes the store’s open batch now, fetches the acquirer’s report and reconciles it.</span>
      <div role="status" aria-label="Closes in progress">
        {closing.map((s) => (
          <CloseProgress key={s.externalId} name={s.name} closing={s.closing!} />
        ))}
      </div>
      <ErrorNote error={close.error} />
    </form>
  );
}

const PROGRESS_MS = 1000;

const count = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

function waitingItems(s: { payments: number; refunds: number }): string {
  return [count(s.payments, 'payment', 'payments'), ...(s.refunds ? [count(s.refunds, 'refund', 'refunds')] : [])].join(' and ');
}

/** One store's close as it runs: claimed and asking the acquirer, then settled of total. */
function CloseProgress({ name, closing }: { name: string; closing: { status: string; total: number; settled: number } }) {
  const text =
    closing.status === 'CLOSING'
      ? `Closing ${name}: ${count(closing.total, 'payment', 'payments')} claimed, asking the acquirer for its report…`
      : `Closing ${name}: ${closing.settled.toLocaleString()} of ${count(closing.total, 'payment', 'payments')} settled`;
  return (
    <p className="progress">
      {text}
      {closing.status === 'SETTLING' && <progress max={closing.total} value={closing.settled} aria-label={`Payments of ${name} settled`} />}
    </p>
  );
}

export function SettlementDetail() {
  const { id = '' } = useParams();
  const [page, setPage] = useState(0);
  const batch = useQuery({ queryKey: ['settlement', id], queryFn: async () => (await getSettlement({ path: { id } })).data });
  const lines = useQuery({
    queryKey: ['settlement', id, 'lines', page],
    queryFn: async () => (await listSettlementLines({ path: { id }, query: { page, size: 50 } })).data,
    enabled: batch.isSuccess,
    placeholderData: keepPreviousData,
  });
  const csv = useMutation({
    mutationFn: async (b: Settlement) => {
      const { data } = await exportSettlementLines({ path: { id }, parseAs: 'text', headers: { Accept: 'text/csv' } });
      saveText(String(data), `settlement-${b.storeExternalId}-${b.date}.csv`);
    },
  });

  if (batch.error) return <ErrorNote error={batch.error} />;
  const b = batch.data;
  if (!b) return <p>Loading…</p>;
  return (
    <section>
      <p>
        <Link to="/settlements">← Settlements</Link>
      </p>
      <h1>
        Batch <StoreName id={b.storeExternalId} /> {b.date} <Status value={b.status} />
      </h1>
      <dl className="fields">
        <Field label="Store">
          <StoreName id={b.storeExternalId} /> <code>{b.storeExternalId}</code>
        </Field>
        <Field label="Business date">{b.date}</Field>
        <Field label="Time zone">{b.timezone}</Field>
        <Field label="Mode">{b.mode}</Field>
        <Field label="Closed">{when(b.closedAt)}</Field>
        <Field label="Closed by">
          <UserName username={b.closedBy} />
        </Field>
        <Field label="Batch id">
          <code>{b.id}</code>
        </Field>
      </dl>

      <h2>Totals</h2>
      <ScrollTable label="Totals">
        <thead>
          <tr>
            <th>Currency</th>
            <th>Payments</th>
            <th>Gross</th>
            <th>Refunds</th>
            <th>Refunded</th>
            <th>Fees</th>
            <th>Expected fees</th>
            <th>Over contract</th>
            <th>Net</th>
          </tr>
        </thead>
        <tbody>
          {b.totals.map((t) => (
            <tr key={t.currency}>
              <td>{t.currency}</td>
              <td>{t.paymentCount}</td>
              <td>{money(t.grossAmount, t.currency)}</td>
              <td>{t.refundCount}</td>
              <td>{money(t.refundAmount, t.currency)}</td>
              <td>{money(t.feeAmount, t.currency)}</td>
              <td>{money(t.expectedFeeAmount, t.currency)}</td>
              <td>{money(minus(t.feeAmount, t.expectedFeeAmount), t.currency)}</td>
              <td>{money(t.netAmount, t.currency)}</td>
            </tr>
          ))}
        </tbody>
      </ScrollTable>

      <h2>Discrepancies</h2>
      {b.discrepancies.length === 0 ? (
        <p className="muted">None: the acquirer’s report matches the payments and refunds recorded here.</p>
      ) : (
        <ScrollTable label="Discrepancies">
          <thead>
            <tr>
              <th>Type</th>
              <th>Payment</th>
              <th>Acquirer reference</th>
              <th>Expected</th>
              <th>Reported</th>
              <th>Meaning</th>
            </tr>
          </thead>
          <tbody>
            {b.discrepancies.map((d, i) => (
              <tr key={i}>
                <td>
                  <Status value={d.type} />
                </td>
                <td>{d.paymentId ? <Link to={`/payments/${d.paymentId}`}>{d.paymentId}</Link> : '—'}</td>
                <td>{d.acquirerRef ?? '—'}</td>
                <td>{money(d.expectedAmount, d.currency)}</td>
                <td>{money(d.reportedAmount, d.currency)}</td>
                <td className="muted">{DISCREPANCY_TEXT[d.type] ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}

      <h2>Lines</h2>
      <div className="actions" style={{ marginBottom: '0.5rem' }}>
        <button type="button" disabled={csv.isPending} onClick={() => csv.mutate(b)}>
          Download CSV
        </button>
      </div>
      <ErrorNote error={lines.error ?? csv.error} />
      <ScrollTable label="Lines">
        <thead>
          <tr>
            <th>Type</th>
            <th>PSP reference</th>
            <th>Reference</th>
            <th>Amount</th>
            <th>Fee</th>
            <th>Expected fee</th>
            <th>Net</th>
            <th>When</th>
          </tr>
        </thead>
        <tbody>
          {lines.data?.content.map((l, i) => (
            <tr key={i}>
              <td>{l.type}</td>
              <td>{l.paymentId ? <Link to={`/payments/${l.paymentId}`}>{l.pspReference ?? l.paymentId}</Link> : (l.pspReference ?? '—')}</td>
              <td>{l.reference ?? '—'}</td>
              <td>{money(l.amount, l.currency)}</td>
              <td>{money(l.feeAmount, l.currency)}</td>
              <td>{money(l.expectedFeeAmount, l.currency)}</td>
              <td>{money(l.netAmount, l.currency)}</td>
              <td>{when(l.occurredAt)}</td>
            </tr>
          ))}
        </tbody>
      </ScrollTable>
      {lines.data && <Pager page={page} totalPages={lines.data.totalPages} onPage={setPage} />}
    </section>
  );
}
