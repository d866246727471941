import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { getDashboardBill, type Payment } from '@in-store-payments/client';
import { Field, Status } from '../ui';

/**
 * The bill a payment is a tender of (docs/bills.md): a link to the bill's page, named by the bill's
 * reference once read (its id until then, or when it cannot be read); nothing for a payment of its own.
 */
export function PaymentBill({ payment }: { payment: Pick<Payment, 'billId' | 'sequenceNumber'> }) {
  const { billId } = payment;
  const bill = useQuery({
    queryKey: ['bill', billId],
    queryFn: async () => (await getDashboardBill({ path: { id: billId! } })).data,
    enabled: billId !== null,
  });
  if (billId === null) return null;
  return (
    <Field label="Bill">
      <Link to={`/bills/${billId}`}>{bill.data ? `Bill ${bill.data.reference}` : `Bill ${billId}`}</Link>
      {payment.sequenceNumber !== null && <span className="muted"> · tender {payment.sequenceNumber}</span>}
      {bill.data && (
        <>
          {' '}
          <Status value={bill.data.status} />
        </>
      )}
    </Field>
  );
}
