import { ScrollTable } from '../ScrollTable';
import type { DashboardBillDetail } from '@in-store-payments/client';
import { money, Status } from '../ui';
import { TenderLabel } from './TenderLabel';

/**
 * A bill's tenders in sequence order (docs/bills.md): method, status, what each counts toward the
 * bill and what it asked (a card may approve less), each card or QR tender a link to its payment.
 */
export function BillTenders({ bill }: { bill: Pick<DashboardBillDetail, 'tenders' | 'currency'> }) {
  if (bill.tenders.length === 0) return <p className="muted">No tenders yet.</p>;
  return (
    <ScrollTable label="Tenders">
      <thead>
        <tr>
          <th>Tender</th>
          <th>Method</th>
          <th>Status</th>
          <th>Amount</th>
          <th>Requested amount</th>
          <th>Tip</th>
        </tr>
      </thead>
      <tbody>
        {bill.tenders.map((t) => (
          <tr key={t.sequenceNumber}>
            <td>
              <TenderLabel tender={t} />
            </td>
            <td>{t.method ?? '—'}</td>
            <td>
              <Status value={t.status} />
            </td>
            <td>{money(t.amount, bill.currency)}</td>
            <td>
              {money(t.requestedAmount, bill.currency)}
              {t.requestedAmount !== t.amount && <span className="muted"> (partly approved)</span>}
            </td>
            <td>{money(t.tipAmount, bill.currency)}</td>
          </tr>
        ))}
      </tbody>
    </ScrollTable>
  );
}
