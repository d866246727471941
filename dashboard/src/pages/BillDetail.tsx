import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { getDashboardBill } from '@in-store-payments/client';
import { isBillFinal } from '../../../core/bill/statuses';
import { isGivingBack } from '../../../core/bill/givenBack';
import { BillTenders } from '../components/bills/BillTenders';
import { GiveBackSteps } from '../components/bills/GiveBackSteps';
import { StoreName } from '../components/Names';
import { ErrorNote, Field, money, Status, when } from '../components/ui';

/**
 * One bill (docs/dashboard.md, "Bills"): what it owes, what is paid and what remains, its tenders in
 * sequence order, and once cancelled or expired its give-back step by step. Refreshes until final.
 */
export function BillDetail() {
  const { billId = '' } = useParams();
  const detail = useQuery({
    queryKey: ['bill', billId],
    queryFn: async () => (await getDashboardBill({ path: { id: billId } })).data,
    refetchInterval: (q) => (q.state.data && isBillFinal(q.state.data.status) ? false : 3000),
  });

  if (detail.error) return <ErrorNote error={detail.error} />;
  const b = detail.data;
  if (!b) return <p>Loading…</p>;

  return (
    <section>
      <p>
        <Link to="/bills">← Bills</Link>
      </p>
      <h1>
        Bill {b.reference} <Status value={b.status} />
      </h1>
      <dl className="fields">
        <Field label="Reference">{b.reference}</Field>
        <Field label="Store">
          <StoreName id={b.storeExternalId} /> <code>{b.storeExternalId}</code>
        </Field>
        <Field label="Mode">{b.mode}</Field>
        <Field label="Amount">{money(b.amount, b.currency)}</Field>
        <Field label="Paid">{money(b.paidAmount, b.currency)}</Field>
        <Field label="Remaining">{money(b.remainingAmount, b.currency)}</Field>
        <Field label="Expires">{when(b.expiresAt)}</Field>
        <Field label="Created">{when(b.createdAt)}</Field>
        <Field label="Updated">{when(b.updatedAt)}</Field>
        <Field label="Bill id">
          <code>{b.id}</code>
        </Field>
      </dl>

      <h2>Tenders</h2>
      <BillTenders bill={b} />

      {isGivingBack(b.status) && <GiveBackSteps bill={b} />}
    </section>
  );
}
