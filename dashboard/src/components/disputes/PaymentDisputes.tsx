import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { listDisputes, type DashboardPaymentDetail } from '@in-store-payments/client';
import { DISPUTE_AREA } from '../../areas';
import { useSession } from '../../session';
import { ErrorNote, Field, Status } from '../ui';
import { DueTag } from './DueTag';

/**
 * A payment's dispute (docs/disputes.md, "The payment side"): `disputeStatus` (its latest dispute's status) for every role,
 * and for those who read disputes a link to each of its disputes (GET /api/dashboard/disputes?paymentId=).
 */
export function PaymentDisputes({ payment }: { payment: DashboardPaymentDetail }) {
  const { can } = useSession();
  const reads = can(DISPUTE_AREA) && payment.disputeStatus !== null;
  const disputes = useQuery({
    queryKey: ['disputes', { paymentId: payment.id, status: payment.disputeStatus }], // asked again when the status moves
    queryFn: async () => (await listDisputes({ query: { paymentId: payment.id, size: 20 } })).data,
    enabled: reads,
  });
  return (
    <Field label="Dispute">
      {payment.disputeStatus === null ? '—' : <Status value={payment.disputeStatus} />}
      {reads && (
        <>
          <ErrorNote error={disputes.error} />
          <ul className="plain" aria-label="Disputes of this payment">
            {disputes.data?.content.map((d) => (
              <li key={d.id}>
                <Link to={`/disputes/${d.id}`}>
                  {d.reason} dispute, {d.status}
                </Link>{' '}
                {(d.status === 'NEEDS_RESPONSE' || d.status === 'EXPIRED') && <DueTag dispute={d} />}
              </li>
            ))}
          </ul>
        </>
      )}
    </Field>
  );
}
